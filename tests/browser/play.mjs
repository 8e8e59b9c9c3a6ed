// play.mjs - tests/browser.sh's browser half: Debian's chromium, driven
// by playwright-core, plays a 2-player game from two browser contexts, one
// per seat link (seat 2's with JavaScript off: the pages must work
// without it), including a Sensor Sweep in its two steps; then the
// pages around the table: table talk, the history and a past table, the
// email settings, My games, the spectator's link, the rules, a game
// played to its end (tests/data/web-rigged.rec imported one move before
// it: the last move from a context with JavaScript off while another
// seat's page, JavaScript on, watches for it), a practice table, bot
// seats and a stand-in, and the error pages.  axe-core
// checks each of these pages at both widths (axe.mjs).  On a phone
// (390x844), after a move, the first screen of the table shows whose
// turn it is, what happened since the seat last looked and the newest
// table talk line.
//
// Environment: BASE_URL (the home page), OUT_DIR (screenshots, and the
// HTML of every page under OUT_DIR/html/ for the validator), NODE_DEPS (a
// folder whose node_modules holds playwright-core), BUFFERTIME and DB
// (to read a game's hands with "buffertime admin show"), KEY_FILE (the
// server's key, for "buffertime admin link"), RIGGED (the record of a
// whole game), CHROMIUM (default /usr/bin/chromium), TURNS (default 8).
//
// Prints "ok ..." and "FAIL ..." lines, then "N passed, M failed"; exits
// 1 on any failure.  Fails on any console error, page error, CSP
// violation or failed subresource.
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { auditor } from './axe.mjs';
import { cutShortByLeaving } from './leaving.mjs';
import { pushShows, signIn } from './devices.mjs';

const env = process.env;
const base = env.BASE_URL;
const out = env.OUT_DIR;
const require = createRequire(join(env.NODE_DEPS, 'package.json'));
const { chromium } = require('playwright-core');

let passed = 0;
let failed = 0;
function check(ok, what) {
	if (ok) {
		passed++;
		console.log(`ok ${what}`);
	} else {
		failed++;
		console.log(`FAIL ${what}`);
	}
	return ok;
}

const axe = auditor({ deps: env.NODE_DEPS, out, check });

// Everything that must not happen on any page.
const problems = [];
let htmlNo = 0;
const saves = [];

// Chromium's console line for an error page the test asked for.
const errorPageLine = /^Failed to load resource: the server responded with a status of 40[034]\b/;

// Chromium's own line when a page subscribes to push in a context
// without a profile, as every context of this test is (no push service
// could be reached from here anyway): push.js says so in words.
const noPushLine = /^Chrome currently does not support the Push API in incognito mode/;

// errorPages: the page is sent to error pages on purpose.
function watch(page, who, errorPages = false) {
	page.on('console', (m) => {
		if (errorPages && errorPageLine.test(m.text()))
			return;
		if (noPushLine.test(m.text()))
			return;
		if (m.type() === 'error' || m.type() === 'warning')
			problems.push(`${who}: console ${m.type()}: ${m.text()}`);
	});
	page.on('pageerror', (e) => problems.push(`${who}: page error: ${e}`));
	page.on('requestfailed', (r) => {
		if (cutShortByLeaving(r))
			return;
		problems.push(`${who}: request failed: ${r.url()} ${r.failure()?.errorText}`);
	});
	page.on('response', (r) => {
		const type = r.request().resourceType();
		if (type !== 'document' && r.status() >= 400)
			problems.push(`${who}: ${r.status()} for ${type} ${r.url()}`);
		if (type === 'document' && r.status() === 200 &&
		    r.request().frame() === page.mainFrame()) {
			const name = `${String(++htmlNo).padStart(3, '0')}-${who}.html`;
			saves.push(r.text().then(
				(t) => writeFileSync(join(out, 'html', name), t),
				() => {}));
		}
	});
}

async function newSeat(browser, who, js, errorPages = false) {
	const ctx = await browser.newContext({
		javaScriptEnabled: js,
		viewport: { width: 1280, height: 800 },
	});
	if (js) {
		await ctx.exposeBinding('__btCsp', (_src, v) =>
			problems.push(`${who}: CSP violation: ${v}`));
		await ctx.addInitScript(() => {
			document.addEventListener('securitypolicyviolation', (e) =>
				window.__btCsp(`${e.violatedDirective} ${e.blockedURI}`));
		});
	}
	const page = await ctx.newPage();
	watch(page, who, errorPages);
	return { ctx, page, who, js };
}

// The context axe checks a seat's pages in: the seat's own if it runs
// JavaScript, else a new one (JavaScript on) with the seat's cookies.
async function axeContext(browser, seat) {
	if (seat.js)
		return seat;
	const s = await newSeat(browser, `${seat.who}-axe`, true);
	await s.ctx.addCookies(await seat.ctx.cookies());
	return s;
}

// Checks url with axe in a new page of seat's context (see axeContext).
async function auditAt(seat, url, name) {
	return axe.auditUrl(seat.ctx, url, name, (p) => watch(p, seat.who));
}

// Submits a form by clicking its button, as a person would.
async function submit(page, form) {
	await Promise.all([
		page.waitForNavigation({ waitUntil: 'load', timeout: 15000 }),
		form.locator('button[type=submit]').click(),
	]);
	return page.url();
}

// On a wide screen each row of the new-game form reads across: Name,
// Email and the bot box side by side (the box beside its words, not
// above them), the minutes under Name, never in the "Player N" column.
async function rowsAligned(page) {
	return page.locator('.seatrow').first().evaluate((row) => {
		const box = (sel) => row.querySelector(sel).getBoundingClientRect();
		const name = box('label:has(input[name^=name])');
		const email = box('label:has(input[name^=email])');
		const bot = box('label.bot');
		const tick = box('input[type=checkbox]');
		const minutes = box('label.minutes');
		const mid = (r) => r.top + r.height / 2;
		return Math.abs(name.bottom - email.bottom) < 2 && email.right <= bot.left &&
			Math.abs(mid(tick) - mid(bot)) < 3 && minutes.left >= name.left - 1 &&
			minutes.top >= name.bottom - 1;
	});
}

function show(game) {
	return JSON.parse(execFileSync(env.BUFFERTIME,
		['admin', '--db', env.DB, 'show', game], { encoding: 'utf8' }));
}

async function shots(seat, tag) {
	const p = seat.page;
	for (const [w, h, name] of [[390, 844, 'phone'], [1280, 800, 'desktop']]) {
		await p.setViewportSize({ width: w, height: h });
		await p.screenshot({ path: join(out, `${tag}-${seat.who}-${name}.png`),
			fullPage: true });
	}
	await p.setViewportSize({ width: 1280, height: 800 });
}

// On a phone's first screen (390x844, not scrolled) of seat's table:
// whose turn it is, the block of what happened since the seat last
// looked with its newest table talk line (wanted, if given, in its
// words) and its newest move (the block's first line; older ones may
// run below the fold).  That screen is kept as first-N-WHO.png.
let firstScreens = 0;
async function firstScreen(seat, what, wanted) {
	const p = seat.page;
	await p.setViewportSize({ width: 390, height: 844 });
	await p.evaluate(() => window.scrollTo(0, 0)).catch(() => {});
	await p.screenshot({ path: join(out, `first-${++firstScreens}-${seat.who}.png`) });
	const bottom = async (sel) => {
		const b = await p.locator(sel).first().boundingBox();
		return b ? Math.round(b.y + b.height) : Infinity;
	};
	const turn = await bottom('.status .turn');
	const talk = await bottom('section.since .talkline');
	const since = await bottom('section.since ol > li, section.since ul > li, section.since p.none');
	check(turn <= 844 && since <= 844 && talk <= 844,
		`${what}: on a phone's first screen, the turn (${turn} px), the newest` +
		` move since the last look (${since} px) and the newest talk line (${talk} px)`);
	if (wanted !== undefined)
		check((await p.locator('section.since .talkline').innerText()).includes(wanted),
			`${what}: the newest talk line is "${wanted}"`);
	await p.setViewportSize({ width: 1280, height: 800 });
}

async function main() {
	mkdirSync(join(out, 'html'), { recursive: true });
	// launch() gives chromium a fresh, temporary profile of its own
	// (--user-data-dir is refused here), removed when it closes.
	const browser = await chromium.launch({
		executablePath: env.CHROMIUM || '/usr/bin/chromium',
		headless: true,
		args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
			'--no-first-run', '--disable-background-networking',
			'--disable-component-update', '--disable-sync'],
		timeout: 60000,
	});
	try {
		await play(browser);
	} finally {
		await browser.close();
	}
}

async function play(browser) {
	// The home page's form, filled in by hand: two players (two names;
	// there is no count to choose).
	const host = await newSeat(browser, 'creator', true);
	let page = host.page;
	await page.goto(base, { waitUntil: 'load' });
	check(await page.locator('form.newgame').count() === 1, 'home page has the new-game form');
	await page.fill('input[name=name1]', 'Mariner');
	await page.fill('input[name=name2]', 'Boimler');
	await page.selectOption('select[name=first]', '1');
	await axe.audit(page, 'home');
	// The installable app: its service worker (static/sw.js) installs and
	// becomes active, under the strict CSP, with nothing inline.  Active
	// means "activated": registration.active is set while it is still
	// "activating" (its clients.claim() under way), and a push delivered
	// then is dropped (a busy machine showed it).
	const sw = await page.evaluate(async () => {
		for (let i = 0; i < 100; i++) {
			const regs = await navigator.serviceWorker.getRegistrations();
			const on = regs.find((r) => r.active && r.active.state === 'activated');
			if (on)
				return on.active.scriptURL;
			await new Promise((res) => setTimeout(res, 100));
		}
		return 'none after 10 s';
	});
	check(/\/static\/sw\.js\?v=/.test(sw), `the service worker is installed and active (${sw})`);
	await pushShows(kit(), host);
	check(await rowsAligned(page), 'the new-game form\'s rows line up at 1280 px');
	await shots(host, 'home');
	await submit(page, page.locator('form.newgame'));
	check(/\/g\/[A-Za-z0-9_-]{22}\/made$/.test(new URL(page.url()).pathname),
		`the form leads to the links page (${page.url()})`);
	let links = await page.locator('a.seatlink').evaluateAll(
		(as) => as.map((a) => a.href));
	check(links.length === 2, `the created page shows 2 links (${links.length})`);
	await axe.audit(page, 'created');
	await page.reload({ waitUntil: 'load' });
	const again = await page.locator('a.seatlink').evaluateAll((as) => as.map((a) => a.href));
	check(again.join() === links.join(), 'a reload of the links page shows the same links');
	await shots(host, 'created');

	// A game where someone holds a Sensor Sweep: the one just made, or
	// the first of more made with the same form (posted directly).
	const idOf = (l) => new URL(l).pathname.split('/').filter(Boolean).slice(-1)[0];
	const hasSweep = (l) => {
		const hands = show(idOf(l)).hands;
		return Object.values(hands).flat().some((c) => c === 'X13' || c === 'X14');
	};
	let tries = 0;
	while (!hasSweep(links[0]) && tries++ < 60) {
		const r = await fetch(new URL('new', base), {
			method: 'POST',
			headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
			body: 'players=2&name1=Mariner&name2=Boimler&first=1',
		});
		const html = await r.text();
		links = [...new Set(html.match(/https?:\/\/[^"<\s]*\/g\/[A-Za-z0-9_-]{22}\?t=[A-Za-z0-9_-]+/g))];
		if (r.status !== 200 || links.length !== 2) {
			check(false, `another game made with the form (${r.status}, ${links.length} links)`);
			return;
		}
	}
	if (!check(hasSweep(links[0]), `a game with a Sensor Sweep in a hand (${tries} more games)`))
		return;
	const game = idOf(links[0]);

	// One context per seat; seat 2 without JavaScript.
	const seats = [await newSeat(browser, 'seat1', true),
		await newSeat(browser, 'seat2', false)];
	for (const [i, s] of seats.entries()) {
		const resp = await s.page.goto(links[i], { waitUntil: 'load' });
		check(resp.status() === 200 && new URL(s.page.url()).search === '',
			`${s.who}: the link leads to the table without the token`);
		const cookies = await s.ctx.cookies();
		check(cookies.some((c) => c.name === `bt_${game}` && c.httpOnly &&
			c.sameSite === 'Lax'), `${s.who}: an HttpOnly SameSite=Lax seat cookie`);
	}
	await shots(seats[0], 'start');
	await shots(seats[1], 'start');
	const lookouts = [seats[0], await axeContext(browser, seats[1])];
	const table = new URL(`g/${game}`, base).href;
	let jsOffMoves = 0;

	let swept = false;
	const turns = Number(env.TURNS || 8);
	for (let t = 0; t < 40 && (t < turns || !swept); t++) {
		const st = show(game);
		if (st.status !== 'playing')
			break;
		const mover = seats[st.turn - 1];
		const other = seats[2 - st.turn];
		if (t === 0) {
			await auditAt(lookouts[st.turn - 1], table, 'table-on-turn');
			await auditAt(lookouts[2 - st.turn], table, 'table-off-turn');
		}
		page = mover.page;
		await page.goto(new URL(`g/${game}`, base).href, { waitUntil: 'load' });
		const forms = page.locator('form.act');
		const n = await forms.count();
		if (!check(n > 0, `turn ${t}: ${mover.who} has ${n} action forms`))
			break;
		await other.page.goto(new URL(`g/${game}`, base).href, { waitUntil: 'load' });
		check(await other.page.locator('form.act').count() === 0,
			`turn ${t}: ${other.who}, not to move, has no action form`);

		const look = page.locator('form.act:has(input[name=action][value=look])');
		let form;
		if (!swept && await look.count() > 0) {
			// Step 1: look.  The card is committed; the next page shows
			// the top cards and asks for their order.
			const before = st.actions;
			await submit(page, look.first());
			const order = page.locator('form:has(input[name=action][value=order])');
			check(await order.count() === 1, 'after looking, the order form');
			check(await page.locator('form.act:has(input[name=action][value=work])').count() === 0,
				'after looking, nothing but the order');
			check(show(game).actions === before, 'looking writes no record line yet');
			await shots(mover, 'sweep');
			await auditAt(lookouts[st.turn - 1], table, 'table-sweep');
			await auditAt(lookouts[2 - st.turn], table, 'table-sweep-other');
			// The other seat sees that a sweep is under way, not the cards.
			await other.page.reload({ waitUntil: 'load' });
			check(/Sensor Sweep/i.test(await other.page.locator('main').innerText()),
				`${other.who} sees the sweep under way`);
			// A closed browser loses nothing: a new page, same cookie.
			const again = await mover.ctx.newPage();
			watch(again, mover.who);
			await again.goto(new URL(`g/${game}`, base).href, { waitUntil: 'load' });
			check(await again.locator('form:has(input[name=action][value=order])').count() === 1,
				'the pending sweep survives a closed page');
			await again.close();
			// Step 2: an order other than the one they lie in: the last
			// of the offered orders (radio buttons), or the cards reversed
			// (one select a place).
			const sels = order.locator('select');
			const radios = order.locator('input[type=radio]');
			const k = await sels.count();
			const vals = [];
			for (let i = 0; i < k; i++)
				vals.push(await sels.nth(i).inputValue());
			vals.reverse();
			for (let i = 0; i < k; i++)
				await sels.nth(i).selectOption(vals[i]);
			const r = await radios.count();
			if (r > 0) {
				await radios.nth(r - 1).check();
				vals.push(await radios.nth(r - 1).getAttribute('value'));
			}
			const url = await submit(page, order);
			check(!/[?&]m=/.test(url), `the order ${vals.join(' ')} accepted (${url})`);
			const after = show(game);
			check(after.actions === before + 1, 'the sweep is one record line');
			swept = true;
			if (!mover.js)
				jsOffMoves++;
			continue;
		}
		// Otherwise a plain move: work or log if offered, else any.
		const plain = page.locator('form.act:has(input[name=action][value=work]), ' +
			'form.act:has(input[name=action][value=log])');
		form = await plain.count() > 0 ? plain.first() : forms.nth(t % n);
		const url = await submit(page, form);
		if (check(!/[?&]m=/.test(url), `turn ${t}: ${mover.who}'s move accepted (${url})`) &&
		    !mover.js)
			jsOffMoves++;
		if (t === 2) {
			await firstScreen(mover, `turn ${t}: ${mover.who}, after their move`);
			await other.page.reload({ waitUntil: 'load' });
			await firstScreen(other, `turn ${t}: ${other.who}, after the other's move`);
			await shots(seats[0], 'table');
			await shots(seats[1], 'table');
		}
	}
	check(swept, 'a Sensor Sweep was played through the pages');
	check(jsOffMoves > 0, `${seats[1].who}, JavaScript off, made ${jsOffMoves} moves`);
	await shots(seats[0], 'end');
	await shots(seats[1], 'end');

	// The record, from the page's link if it has one.
	const rec = await seats[0].page.request.get(new URL(`g/${game}/record`, base).href);
	check(rec.status() === 200 && (await rec.text()).startsWith('buffertime 1'),
		'the record downloads');
	await between(browser, seats, lookouts, game);
	await signIn(kit(), browser);
	await gameOver(browser);
	await practice(browser);
	await botSeats(browser);
	await errorPages(browser, game);
}

// One round of the worker (--once, a small budget: a test), its clock at
// now (seconds) if given.
function worker(now) {
	const wenv = now ? { ...env, BUFFERTIME_NOW: String(now) } : env;
	execFileSync(env.BUFFERTIME, ['worker', '--db', env.DB, '--key-file', env.KEY_FILE,
		'--base-url', base, '--mail-dir', join(out, 'mail'), '--once',
		'--bot-rollouts', '200'], { encoding: 'utf8', env: wenv,
		stdio: ['ignore', 'ignore', 'pipe'] });
}

const gameOf = (link) => new URL(link).pathname.split('/').filter(Boolean).pop();

// A whole move on page's table: work or log if offered, else the first
// form; a Sensor Sweep's look is followed by its order.
async function wholeMove(page) {
	const plain = page.locator('form.act:has(input[name=action][value=work]), ' +
		'form.act:has(input[name=action][value=log])');
	await submit(page, await plain.count() > 0 ? plain.first() : page.locator('form.act').first());
	const order = page.locator('form:has(input[name=action][value=order])');
	if (await order.count() > 0)
		await submit(page, order.first());
}

// Bot seats and a stand-in, through the pages.  A game made with the
// home page's form, seat 2 played by a bot: the created page and the
// table say so; Ann moves, the worker has the bot answer, and her table
// and the history name the bot.  A game of Ann and Cy whose stand-in rule
// is "after 1 day without a move": the worker, its clock two days on, has
// a bot play Ann's turn, which the history marks; when the turn is Ann's
// again Cy's table says a bot stands in for her, and one click on her
// link gives her the seat back.
async function botSeats(browser) {
	const host = await newSeat(browser, 'botseat', true);
	let page = host.page;
	await page.goto(base, { waitUntil: 'load' });
	await page.fill('input[name=name1]', 'Ann');
	await page.check('input[name=bot2]');
	await page.selectOption('select[name=first]', '1');
	await submit(page, page.locator('form.newgame'));
	check(await page.locator('ol.seatlinks li', { hasText: 'Played by the bot' }).count() === 1,
		'the created page says a bot plays seat 2');
	await axe.audit(page, 'created-bot');
	const link = await page.locator('a.seatlink').first().getAttribute('href');
	const game = gameOf(link);
	await page.goto(link, { waitUntil: 'load' });
	check(await page.getByText(/\bBot\b/).count() >= 1, 'the table names the bot');
	await axe.audit(page, 'table-bot');
	const before = show(game).actions;
	await wholeMove(page);
	worker();
	const st = show(game);
	check(st.actions >= before + 2, `the worker made the bot's move (${st.actions - before} lines)`);
	await page.reload({ waitUntil: 'load' });
	check(st.status !== 'playing' || (st.turn === 1 && await page.locator('form.act').count() > 0),
		'then the turn is Ann\'s again, on her table');
	await shots(host, 'bot');
	await page.goto(new URL(`g/${game}/history`, base).href, { waitUntil: 'load' });
	check(await page.locator('ul.history', { hasText: /\bBot\b/ }).count() === 1,
		'the history names the bot for its move');
	await axe.audit(page, 'history-bot');
	await host.ctx.close();

	const cy = await newSeat(browser, 'standin', true);
	page = cy.page;
	await page.goto(base, { waitUntil: 'load' });
	await page.fill('input[name=name1]', 'Ann');
	await page.fill('input[name=name2]', 'Cy');
	await page.selectOption('select[name=first]', '1');
	await page.selectOption('select[name=standin]', 'days');
	await page.fill('input[name=standin_days]', '1');
	await submit(page, page.locator('form.newgame'));
	const links = await page.locator('a.seatlink').evaluateAll((as) => as.map((a) => a.href));
	if (!check(links.length === 2, `a game with a stand-in rule (${links.length} links)`))
		return;
	const sg = gameOf(links[0]);
	await page.goto(links[1], { waitUntil: 'load' });
	check(/after 1 day without a move/i.test(await page.locator('.standin-rule').innerText()),
		'Cy\'s table states the stand-in rule');
	worker(Math.floor(Date.now() / 1000) + 2 * 86400);
	let g = show(sg);
	check(g.actions >= 1 && g.turn === 2, `two days on, a bot played Ann's turn (${g.actions} lines, turn ${g.turn})`);
	await page.goto(new URL(`g/${sg}/history`, base).href, { waitUntil: 'load' });
	check(await page.locator('ul.history li', { hasText: '(a bot standing in)' }).count() === g.actions,
		'the history marks the stand-in\'s moves');
	await axe.audit(page, 'history-standin');
	await page.goto(new URL(`g/${sg}`, base).href, { waitUntil: 'load' });
	await wholeMove(page);
	g = show(sg);
	if (!check(g.status === 'playing' && g.turn === 1, `Cy moved; Ann's turn (${g.status}, turn ${g.turn})`))
		return;
	await page.reload({ waitUntil: 'load' });
	check(await page.locator('p.notice.standin', { hasText: 'A bot stands in for Ann' }).count() === 1,
		'Cy\'s table says a bot stands in for Ann');
	await shots(cy, 'standin');
	await axe.audit(page, 'table-standin');
	const ann = await newSeat(browser, 'standin-ann', true);
	await ann.page.goto(links[0], { waitUntil: 'load' });
	check(await ann.page.locator('p.notice.standin').count() === 0 &&
		await ann.page.locator('form.act').count() > 0,
	'one click on Ann\'s link gives her the seat back');
	await axe.audit(ann.page, 'table-seat-back');
	await page.reload({ waitUntil: 'load' });
	check(await page.locator('p.notice.standin').count() === 0,
		'Cy\'s table no longer says a bot stands in');
	await ann.ctx.close();
	await cy.ctx.close();
}

// A practice table: once the worker has weighed the turn (--once, a
// small budget: a test), the seat to move sees each form's chance of
// winning, and everyone sees that hints are on.
async function practice(browser) {
	const game = admin('create', '--players', '2', '--practice', '--name', 'Ann',
		'--name', 'Bob');
	const link = (n) => admin('link', game, String(n), '--key-file', env.KEY_FILE,
		'--base-url', base);
	execFileSync(env.BUFFERTIME, ['worker', '--db', env.DB, '--key-file', env.KEY_FILE,
		'--base-url', base, '--mail-dir', join(out, 'mail'), '--once',
		'--bot-rollouts', '200'], { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
	const mover = show(game).turn || 1;
	const seat = await newSeat(browser, 'practice', true);
	await seat.page.goto(link(mover), { waitUntil: 'load' });
	check(await seat.page.getByText('A practice table: hints on').count() === 1,
		'a practice table says hints are on');
	const hints = await seat.page.locator('form.act .form-hint').allTextContents();
	check(hints.length >= 2 && hints.every((h) => /^Chance of winning: (up to )?\d+%/.test(h)),
		`the seat to move sees each form's chance of winning (${hints.length} forms)`);
	await shots(seat, 'practice');
	await axe.audit(seat.page, 'table-practice');
	await seat.ctx.close();
}

// The pages around the table, as people reach them: table talk typed in,
// the history and a past table (seat 2, no JavaScript), the email
// settings, My games, and the spectator's link in a browser with no seat.
async function between(browser, seats, lookouts, game) {
	const table = new URL(`g/${game}`, base).href;
	let page = seats[0].page;
	await page.goto(table, { waitUntil: 'load' });
	await page.fill('form.say textarea[name=text]', 'Red alert: <b>coffee</b> is out');
	await submit(page, page.locator('form.say'));
	check(await page.locator('ul.chat li p', { hasText: 'Red alert: <b>coffee</b> is out' })
		.count() === 1, 'table talk: shown as typed, markup as text');
	await firstScreen(seats[0], 'after table talk', 'Red alert: <b>coffee</b> is out');
	await shots(seats[0], 'talk');

	page = seats[1].page;
	await page.goto(table, { waitUntil: 'load' });
	await Promise.all([page.waitForNavigation({ waitUntil: 'load' }),
		page.locator('nav.links a', { hasText: 'History' }).click()]);
	const past = page.locator('ul.history a.no');
	check(await past.count() >= 3, `history: every move (${await past.count()})`);
	await shots(seats[1], 'history');
	await auditAt(lookouts[1], page.url(), 'history');
	await Promise.all([page.waitForNavigation({ waitUntil: 'load' }),
		past.nth(1).click()]);
	check(/[?&]at=\d+/.test(page.url()) && await page.locator('form.act').count() === 0,
		`a past table, read-only (${page.url()})`);
	await shots(seats[1], 'past');
	await auditAt(lookouts[1], page.url(), 'table-past');

	page = seats[0].page;
	await page.goto(table, { waitUntil: 'load' });
	const share = await page.locator('p.share a').getAttribute('href');
	await Promise.all([page.waitForNavigation({ waitUntil: 'load' }),
		page.locator('nav.links a', { hasText: 'Email settings' }).click()]);
	await page.check('input[name=notify][value=digest]');
	await submit(page, page.locator('form:has(input[name=notify])'));
	check(await page.locator('input[name=notify][value=digest]').isChecked(),
		'settings: the daily digest chosen and kept');
	await axe.audit(page, 'settings');
	await page.goto(new URL('games', base).href, { waitUntil: 'load' });
	check(await page.locator(`a[href*="${game}"]`).count() >= 1, 'My games lists the game');
	await axe.audit(page, 'games');

	const guest = await newSeat(browser, 'spectator', true);
	const resp = await guest.page.goto(share, { waitUntil: 'load' });
	check(resp.status() === 200 && await guest.page.locator('form').count() === 0,
		'the spectator link: a table with no forms');
	check(!/@/.test(await guest.page.content()), 'the spectator page shows no email address');
	await axe.audit(guest.page, 'watch');
	const rules = await auditAt(guest, new URL('rules', base).href, 'rules');
	check(rules === 200, `the rules page (${rules})`);
	await guest.ctx.close();
}

// What devices.mjs's parts of the run need of this one.
function kit() {
	return { base, check, newSeat, admin, axe, shots, submit };
}

function admin(...args) {
	return execFileSync(env.BUFFERTIME, ['admin', '--db', env.DB, ...args],
		{ encoding: 'utf8' }).trim();
}

// A game played to its end: the rigged record but its last move,
// imported; the last move's seat makes it from a context with JavaScript
// off while seat 1's table, JavaScript on, stays open: with www/live.js
// the move must show there within 30 s without a reload.
async function gameOver(browser) {
	const lines = readFileSync(env.RIGGED, 'utf8').split('\n');
	let last = -1;
	lines.forEach((l, i) => { if (/^[1-6] /.test(l)) last = i; });
	const [seatNo, verb] = lines[last].split(' ');
	if (!check(['work', 'log'].includes(verb), `the rigged record ends in work or log (${verb})`))
		return;
	const file = join(out, 'rigged-but-last.rec');
	writeFileSync(file, lines.filter((_l, i) => i !== last).join('\n'));
	const game = admin('import', file);
	const link = (n) => admin('link', game, String(n), '--key-file', env.KEY_FILE,
		'--base-url', base);
	const watcherNo = seatNo === '1' ? 2 : 1;
	const watcher = await newSeat(browser, `rigged${watcherNo}`, true);
	const mover = await newSeat(browser, `rigged${seatNo}`, false);
	await watcher.page.goto(link(watcherNo), { waitUntil: 'load' });
	await mover.page.goto(link(seatNo), { waitUntil: 'load' });
	const live = await watcher.page.locator('script[src*="live.js"]').count() > 0;
	const form = mover.page.locator(`form.act:has(input[name=action][value=${verb}])`);
	if (!check(await form.count() === 1, `the last move (${verb}) offered to seat ${seatNo}, JavaScript off`))
		return;
	const url = await submit(mover.page, form);
	check(!/[?&]m=/.test(url) && show(game).status !== 'playing',
		`seat ${seatNo}, JavaScript off, made the last move: the game is over`);
	check(await mover.page.locator('.result').count() === 1, 'the mover sees the result');
	await shots(mover, 'over');
	if (live) {
		const start = Date.now();
		const seen = await watcher.page.locator('.result').waitFor({ timeout: 30000 })
			.then(() => true, () => false);
		check(seen, `live.js: seat ${watcherNo}'s open table shows the move without a reload` +
			` (${((Date.now() - start) / 1000).toFixed(1)} s)`);
	} else {
		console.log('note: the table loads no live.js: no live-update check');
		await watcher.page.reload({ waitUntil: 'load' });
	}
	check(await watcher.page.locator('.result').count() === 1,
		`seat ${watcherNo} sees the game over`);
	check(await watcher.page.locator('section.deal li.hand').count() === 3 &&
		await watcher.page.locator('section.deal ul.sweeps li').count() >= 1,
	`seat ${watcherNo} sees every hand and what the Sensor Sweep saw, now that it is over`);
	check(await watcher.page.locator('#review').getByText('A bot is going over the game').count() === 1,
		'no worker ran yet: the table says the review is being computed');
	await axe.audit(watcher.page, 'table-over');
	await review(watcher, game);
	await crew(watcher, watcherNo, mover, game);
	await watcher.ctx.close();
	await mover.ctx.close();
}

// The worker reviews the finished game (a small budget: a test); the
// table then shows the chart, the turning points and the figures.
async function review(seat, game) {
	execFileSync(env.BUFFERTIME, ['worker', '--db', env.DB, '--key-file', env.KEY_FILE,
		'--base-url', base, '--mail-dir', join(out, 'mail'), '--once',
		'--review-rollouts', '200'], { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
	const moves = admin('export', game).split('\n').filter((l) => /^[1-6] /.test(l)).length;
	await seat.page.reload({ waitUntil: 'load' });
	const chart = seat.page.locator('#review svg[role=img]');
	check(await chart.count() === 1, 'the review: one chart');
	check(await seat.page.locator('#review svg title').count() === 1 &&
		(await seat.page.locator('#review svg desc').textContent()).includes('chance of winning'),
		'the chart has a title and a description in words');
	const points = (await seat.page.locator('#review svg polyline').getAttribute('points'))
		.trim().split(/\s+/).length;
	check(points === moves + 1, `one point per move and one before (${points}, ${moves} moves)`);
	check(await seat.page.locator('#review ol.turning li').count() === Math.min(3, moves),
		'the moves that changed the chance most');
	check(await seat.page.locator('#review details table tbody tr').count() === moves,
		'the figures table: one row per move');
	const box = await chart.boundingBox();
	check(box && box.width > 100, `the chart is drawn (${box && Math.round(box.width)} px wide)`);
	await shots(seat, 'review');
	await axe.audit(seat.page, 'table-review');
}

// Play again on the finished table: seat (number no, JavaScript on)
// presses it, other joins (and plays every other seat's turns, by its
// link), My games shows the crew's line with the
// rematch in play; the rematch is played to its end through the pages
// (work or log when offered), and its table then shows the crew's two
// games: the chart and a line for each.
async function crew(seat, no, other, game) {
	const tableOf = (id) => new URL(`g/${id}`, base).href;
	const again = seat.page.locator('form.again');
	if (!check(await again.count() === 1, 'the finished table offers Play again'))
		return;
	await submit(seat.page, again);
	const next = new URL(seat.page.url()).pathname.split('/').filter(Boolean).pop();
	if (!check(next !== game && /^[A-Za-z0-9_-]{22}$/.test(next),
		`Play again leads to the new game's table (${seat.page.url()})`))
		return;
	await other.page.goto(tableOf(game), { waitUntil: 'load' });
	await submit(other.page, other.page.locator('form.again'));
	check(other.page.url() === tableOf(next), `${other.who} joins the rematch`);
	await seat.page.goto(new URL('games', base).href, { waitUntil: 'load' });
	check(/A crew of 2 games: [01] won, [01] lost, 1 in play/.test(
		await seat.page.locator('p.crewline').innerText()),
	'My games: the crew\'s line, the rematch in play');
	await axe.audit(seat.page, 'games-crew');
	const start = Date.now();
	for (let t = 0; t < 300; t++) {
		const st = show(next);
		if (st.status !== 'playing')
			break;
		// another seat's move from other's context, by that seat's link
		const mover = st.turn === no ? seat : other;
		await mover.page.goto(st.turn === no ? tableOf(next) : admin('link', next,
			String(st.turn), '--key-file', env.KEY_FILE, '--base-url', base),
		{ waitUntil: 'load' });
		const order = mover.page.locator('form:has(input[name=action][value=order])');
		const plain = mover.page.locator('form.act:has(input[name=action][value=work]), ' +
			'form.act:has(input[name=action][value=log])');
		const forms = mover.page.locator('form.act');
		const form = await order.count() > 0 ? order.first()
			: await plain.count() > 0 ? plain.first() : forms.first();
		if (await form.count() !== 1)
			return check(false, `rematch turn ${t}: a form to send`);
		await submit(mover.page, form);
	}
	check(show(next).status !== 'playing',
		`the rematch played to its end (${((Date.now() - start) / 1000).toFixed(1)} s)`);
	await seat.page.goto(tableOf(next), { waitUntil: 'load' });
	const chart = seat.page.locator('#crew svg[role=img]');
	check(await chart.count() === 1 && await seat.page.locator('#crew svg title').count() === 1,
		'the crew panel: one chart with a title');
	check(/^2 games: [0-2] won, [0-2] lost\. Leisure against the goal: \d+ of \d+, \d+ of \d+\./.test(
		await seat.page.locator('#crew svg desc').textContent()),
	'the chart\'s description says the results in words');
	const items = seat.page.locator('#crew ol.crewgames li');
	check(await items.count() === 2, 'the crew panel lists both games');
	check((await items.nth(1).innerText()).includes('(this game)') &&
		!(await items.nth(0).innerText()).includes('(this game)'),
	'the rematch is "this game"');
	const box = await chart.boundingBox();
	check(box && box.width > 100, `the crew chart is drawn (${box && Math.round(box.width)} px wide)`);
	await shots(seat, 'crew');
	await axe.audit(seat.page, 'table-crew');
}

// The error pages, as a browser meets them: a game's record without its
// seat (403), a page that is not there (404), a refused new-game form
// (400).
async function errorPages(browser, game) {
	const guest = await newSeat(browser, 'errors', true, true);
	const page = guest.page;
	for (const [path, code] of [[`g/${game}/record`, 403], ['no-such-page', 404]]) {
		const resp = await page.goto(new URL(path, base).href, { waitUntil: 'load' });
		check(resp.status() === code, `${path}: ${code} (${resp.status()})`);
		await axe.audit(page, `error-${code}`);
	}
	// The home page's form with a player count it does not offer.
	await page.goto(base, { waitUntil: 'load' });
	await page.route('**/new', (r) => r.continue({
		postData: (r.request().postData() || '').replace(/players=\d+/, 'players=9'),
	}));
	const [resp] = await Promise.all([
		page.waitForResponse((r) => r.url().endsWith('/new')),
		page.locator('form.newgame button[type=submit]').click(),
	]);
	await page.waitForLoadState('load');
	check(resp.status() === 400, `a refused new-game form: 400 (${resp.status()})`);
	await axe.audit(page, 'error-400');
	await guest.ctx.close();
}

try {
	await main();
} catch (e) {
	check(false, `the browser run: ${e.stack || e}`);
}
await Promise.all(saves);
for (const p of problems)
	check(false, p);
console.log(`axe: ${axe.seen.length} page views checked (${axe.seen.join(' ')})`);
check(problems.length === 0, 'no console errors, CSP violations or failed requests');
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
