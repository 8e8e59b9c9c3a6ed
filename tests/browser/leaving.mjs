// leaving.mjs - what the browser tests forgive of a failed request: a
// poll, a reload or the favicon's load cut short because the page was
// left (the test moves on as soon as a page has loaded; the favicon is
// fetched after the load event, so on a busy machine it is often still
// on its way).  Anything else that fails is a fault.
export function cutShortByLeaving(request) {
	if (request.failure()?.errorText !== 'net::ERR_ABORTED')
		return false;
	const type = request.resourceType();
	if (type === 'fetch' || type === 'document')
		return true;
	return type === 'other' && new URL(request.url()).pathname.endsWith('/icon.svg');
}
