// axe.mjs - play.mjs's accessibility half: axe-core, run inside the real
// browser on a page at phone (390x844) and desktop (1280x800) widths, and
// a full-page screenshot of the page at each width.
//
// The page's CSP forbids inline script, and the checks must not weaken
// it: axe's source goes in through page.evaluate, which the DevTools
// protocol runs outside the page's CSP, and the context keeps the CSP
// it was given (no bypassCSP).  axe needs JavaScript in the page: a page
// of a context with JavaScript off is checked in a context with it on.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const widths = [[390, 844, 'phone'], [1280, 800, 'desktop']];

// What axe does not see: the page wider than the window, and a select
// too narrow for one of its options (a native closed select cuts its
// text; one the browser lets style, base-select, wraps it).
function layoutProblems() {
	const found = [];
	const root = document.scrollingElement;
	if (root.scrollWidth > window.innerWidth)
		found.push(`the page is ${root.scrollWidth} px wide in a ${window.innerWidth} px window`);
	const probe = document.createElement('span');
	probe.style.cssText = 'position:absolute;visibility:hidden;white-space:nowrap';
	document.body.append(probe);
	for (const sel of document.querySelectorAll('select')) {
		if (!sel.offsetParent)
			continue;
		const cs = getComputedStyle(sel);
		if (cs.appearance === 'base-select' && cs.whiteSpace !== 'nowrap') {
			// A styled select wraps its label: it must not overflow.
			if (sel.scrollWidth > sel.clientWidth + 1 || sel.scrollHeight > sel.clientHeight + 1)
				found.push(`select ${sel.name}: its label overflows its box`);
			continue;
		}
		probe.style.font = cs.font;
		// The room for the text: the box less its padding and the arrow.
		const room = sel.clientWidth - parseFloat(cs.paddingLeft) -
			parseFloat(cs.paddingRight) - 20;
		for (const o of sel.options) {
			probe.textContent = o.text;
			if (probe.offsetWidth > room) {
				found.push(`select ${sel.name}: "${o.text}" needs ${probe.offsetWidth} px, has ${Math.round(room)}`);
				break;
			}
		}
	}
	probe.remove();
	return found;
}

// Every rule axe has but the experimental ones: WCAG 2.x A and AA and
// best practices.  Any violation, of any impact, fails.
const runOptions = { resultTypes: ['violations'] };

export function auditor({ deps, out, check }) {
	const source = readFileSync(join(deps, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
	const seen = [];

	async function inject(page) {
		if (!await page.evaluate(() => typeof window.axe === 'object'))
			await page.evaluate(source);
	}

	function describe(v) {
		const lines = [`  ${v.id} (${v.impact}): ${v.help}`];
		for (const n of v.nodes.slice(0, 8)) {
			const why = (n.failureSummary || '').split('\n').slice(1, 2).join(' ').trim();
			lines.push(`    ${n.target.join(' ')}${why ? `: ${why}` : ''}`);
		}
		if (v.nodes.length > 8)
			lines.push(`    ... and ${v.nodes.length - 8} more`);
		return lines.join('\n');
	}

	// Checks the page as it is now, at both widths; leaves it at the
	// desktop width.  Returns the number of violations.
	async function audit(page, name) {
		let total = 0;
		for (const [w, h, tag] of widths) {
			await page.setViewportSize({ width: w, height: h });
			await inject(page);
			const violations = await page.evaluate((o) =>
				window.axe.run(document, o).then((r) => r.violations.map((v) => ({
					id: v.id, impact: v.impact, help: v.help,
					nodes: v.nodes.map((n) => ({
						target: n.target.map(String),
						failureSummary: n.failureSummary,
					})),
				}))), runOptions);
			await page.screenshot({ path: join(out, `axe-${name}-${tag}.png`), fullPage: true });
			seen.push(`${name}@${w}`);
			const text = violations.map(describe).join('\n');
			check(violations.length === 0,
				`axe: ${name} at ${w}x${h}: ${violations.length} violations` +
				(text ? `\n${text}` : ''));
			total += violations.length;
			const layout = await page.evaluate(layoutProblems);
			check(layout.length === 0, `layout: ${name} at ${w}x${h}` +
				(layout.length ? `:\n    ${layout.join('\n    ')}` : ''));
		}
		await page.setViewportSize({ width: 1280, height: 800 });
		return total;
	}

	// Opens url in a new page of ctx (a context with JavaScript on),
	// checks it and closes it.  Returns the response's status.
	async function auditUrl(ctx, url, name, watch) {
		const page = await ctx.newPage();
		if (watch)
			watch(page);
		const resp = await page.goto(url, { waitUntil: 'load' });
		await audit(page, name);
		await page.close();
		return resp ? resp.status() : 0;
	}

	return { audit, auditUrl, seen };
}
