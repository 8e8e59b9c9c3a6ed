// devices.mjs - play.mjs's parts about a player's devices: a pushed
// turn notification as the service worker shows it, the settings page's
// "Notify this device", and "Email me my games" signing a phone in.  Each
// takes play.mjs's kit (base URL, check, newSeat, admin, axe, shots,
// submit): they run inside its one run, in its browser.

// A push message as a push service would hand it to the browser
// (DevTools' ServiceWorker.deliverPushMessage: the real services are not
// reachable here), with notifications allowed: the worker shows its title
// and body, and keeps a link to this server only (a foreign one becomes
// My games).
export async function pushShows(t, seat) {
	const { base, check } = t;
	const page = seat.page;
	await seat.ctx.grantPermissions(['notifications'], { origin: new URL(base).origin });
	const cdp = await seat.ctx.newCDPSession(page);
	await cdp.send('ServiceWorker.enable');
	const reg = await new Promise((resolve) => {
		const t = setTimeout(() => resolve(null), 10000);
		cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => {
			const r = e.registrations.find((x) => /static\/$/.test(x.scopeURL));
			if (r) {
				clearTimeout(t);
				resolve(r);
			}
		});
	});
	check(!!reg, 'DevTools sees the worker\'s registration');
	if (!reg)
		return;
	// What the worker did with each push, for the message of a failure:
	// whether it asked to show it, and if that was refused.  (No listener
	// of its own: Chromium wants those added by the script itself.)
	const worker = seat.ctx.serviceWorkers().find((w) => /static\/sw\.js/.test(w.url()));
	// (a worker stopped meanwhile only leaves the message without it)
	if (worker)
		await worker.evaluate(() => {
			self.__btPushes = [];
			const show = self.registration.showNotification.bind(self.registration);
			self.registration.showNotification = (...a) => (
				self.__btPushes.push(`asked: ${a[0]}`), show(...a)).then(
				() => self.__btPushes.push('shown'),
				(e) => { self.__btPushes.push(`refused: ${e}`); throw e; });
		}).catch(() => {});
	const workerSaw = async () => {
		try {
			return worker ? JSON.stringify(await worker.evaluate(() => self.__btPushes))
			              : 'no worker to ask';
		} catch (e) {
			return `the worker is gone (${e.message.split('\n')[0]})`;
		}
	};
	const deliver = (data) => cdp.send('ServiceWorker.deliverPushMessage', {
		origin: new URL(base).origin, registrationId: reg.registrationId,
		data: JSON.stringify(data) });
	const table = new URL('g/AAAAAAAAAAAAAAAAAAAAAA', base).href;
	// one at a time: each delivered, then looked for, by its tag (for up
	// to 30 s: a push starts the worker, which a machine busy with the
	// sanitizers' tests may take long to do)
	const shows = async (data) => {
		await deliver(data);
		const n = await page.evaluate(async (tag) => {
			const r = (await navigator.serviceWorker.getRegistrations()).find((x) => x.active);
			let seen = [];
			for (let i = 0; i < 300; i++) {
				seen = (await r.getNotifications()).map((x) => ({
					title: x.title, body: x.body, url: x.data && x.data.url, tag: x.tag }));
				const n = seen.find((x) => x.tag === tag);
				if (n)
					return n;
				await new Promise((res) => setTimeout(res, 100));
			}
			return { none: seen };
		}, data.tag);
		if (n.none)
			n.worker = await workerSaw();
		return n;
	};
	const one = await shows({ title: 'Your turn', body: 'Round 3, risk 12%', url: table, tag: 'g1' });
	check(one.title === 'Your turn' && one.body === 'Round 3, risk 12%' && one.url === table,
		`a pushed turn shows as a notification with its table (${JSON.stringify(one)})`);
	const two = await shows({ title: 'Elsewhere', body: 'x', url: 'https://evil.example/', tag: 'g2' });
	check(two.url === new URL('games', base).href,
		`a foreign link in a push becomes My games (${JSON.stringify(two)})`);
	await cdp.detach();
}

// The settings page's "Notify this device", allowed to notify: the
// browser either subscribes (the page comes back saying so) or, with no
// push service to reach from here, says why in words.
async function pushControls(t, seat) {
	const { base, check } = t;
	const page = seat.page;
	const on = page.locator('form.push-form .push-on');
	check(await on.isVisible(), 'the settings page shows "Notify this device"');
	await seat.ctx.grantPermissions(['notifications'], { origin: new URL(base).origin });
	await on.click();
	let said = '';
	for (let i = 0; i < 100 && !said; i++) {
		if (page.url().includes('m=push_on'))
			said = 'subscribed';
		else
			said = await page.locator('.push-status').textContent().catch(() => '');
		if (!said)
			await page.waitForTimeout(100);
	}
	check(said === 'subscribed' || /push service/.test(said),
		`"Notify this device" subscribes or says why not (${said || 'nothing'})`);
	if (said !== 'subscribed')
		await page.reload({ waitUntil: 'load' });
}

// The settings page's crew chat: a webhook named (the chat chosen from
// the list), shown by chat and host, never its whole address, then
// removed.  The host is .invalid: no message leaves this machine.
async function chatControls(t, seat) {
	const { check, axe, shots, submit } = t;
	const page = seat.page;
	const form = page.locator('form.hook-form');
	check(await form.isVisible(), "the settings page offers the crew's chat");
	await page.fill('#hook-address', 'https://chat.example.invalid/api/webhooks/123/secret');
	await page.selectOption('#hook-kind', 'discord');
	await submit(page, form);
	const now = await page.locator('.hook-now').textContent().catch(() => '');
	check(page.url().includes('m=hook_on') && /Discord at chat\.example\.invalid/.test(now) &&
		!/secret/.test(now), `the chat is named, its address kept to itself (${now})`);
	await axe.audit(page, 'settings-chat');
	await shots(seat, 'settings-chat');
	await submit(page, page.locator('form:has(input[name=hook][value=off])'));
	check(page.url().includes('m=hook_off') && await page.locator('.hook-now').count() === 0,
		'any seat may remove it');
}

// "Email me my games" on a phone: a game of Tendi's made elsewhere, her
// address asked for from My games, the emailed link's button, My games
// then listing the game, her seat's settings listing this browser, and
// signing it out.  axe checks each page at both widths.
export async function signIn(t, browser) {
	const { base, check, newSeat, admin, axe, shots, submit } = t;
	const made = admin('create', '--players', '2', '--name', 'Tendi',
		'--email', 'Tendi+bt@example.org', '--name', 'Rutherford',
		'--email', 'rutherford@example.org');
	const game = made.split(/\s+/).find((w) => /^[A-Za-z0-9_-]{22}$/.test(w));
	check(!!game, `admin create names its game (${made})`);
	const phone = await newSeat(browser, 'phone', true);
	const page = phone.page;
	await page.setViewportSize({ width: 390, height: 844 });
	await page.goto(new URL('games', base).href, { waitUntil: 'load' });
	await Promise.all([page.waitForNavigation({ waitUntil: 'load' }),
		page.locator('a', { hasText: 'Email me my games' }).click()]);
	await axe.audit(page, 'signin-ask');
	await page.fill('input[name=address]', 'tendi@example.org');
	await submit(page, page.locator('form:has(input[name=address])'));
	check(await page.locator('h1', { hasText: 'Check your email' }).count() === 1,
		'the ask is answered: check your email');
	await axe.audit(page, 'signin-asked');
	const row = admin('mail', 'list', '--all').split('\n')
		.find((l) => /\ssignin\s/.test(l) && /tendi@example\.org/.test(l));
	check(!!row, 'a sign-in email is queued to Tendi');
	const body = row ? admin('mail', 'show', row.trim().split(/\s+/)[0]) : '';
	const link = (body.match(/https?:\S+\/signin\?k=[A-Za-z0-9_-]{43}/) || [])[0];
	check(!!link, 'the email holds the sign-in link');
	if (!link) {
		await phone.ctx.close();
		return;
	}
	await page.goto(link, { waitUntil: 'load' });
	await axe.audit(page, 'signin-confirm');
	await submit(page, page.locator('form:has(input[name=k])'));
	check(await page.locator(`a[href*="${game}"]`).count() === 1,
		`after signing in, My games lists Tendi's game (${page.url()})`);
	await axe.audit(page, 'games-signed-in');
	await page.goto(new URL(`g/${game}/settings`, base).href, { waitUntil: 'load' });
	check(await page.locator('ul.browsers li', { hasText: 'this browser' }).count() === 1,
		'her settings list this browser');
	await axe.audit(page, 'settings-browsers');
	await shots(phone, 'settings-browsers');
	await pushControls(t, phone);
	await chatControls(t, phone);
	await submit(page, page.locator('ul.browsers form').first());
	check(await page.locator(`a[href*="${game}"]`).count() === 0,
		'signed out: My games lists the game no more');
	await phone.ctx.close();
}
