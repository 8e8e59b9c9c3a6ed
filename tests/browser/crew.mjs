// crew.mjs - tests/crewgame.sh's browser half: a whole crew's game.  A
// 4-seat game made on the home page's form from a desktop: Ann plays on a
// phone (390x844, touch), Ben on a desktop (1280x800), Cy only by email
// (she answers her turn emails through `buffertime inbound`, as her mail
// program would send them, and never opens a page) and seat 4 is a bot,
// played by the worker, that talks at the table.  They play to the end;
// on the way Ann takes back a Side Project at 390 px and moves again,
// and the first screen after each of Ann's and Ben's first moves is kept
// (viewport only) and must show whose turn it is and the newest move
// since the seat last looked.  At the end the table shows the result
// and every hand, and Cy has the game-over email.  Then a game that can
// no longer be won (OUT_OF_REACH, imported) says so at both widths.
// axe-core (axe.mjs) checks each kind of page each context meets.
//
// Environment: BASE_URL, OUT_DIR (screenshots), NODE_DEPS (a folder
// whose node_modules holds playwright-core and axe-core), BUFFERTIME, DB,
// KEY_FILE, CONFIG (the servers' buffertime.conf, for `inbound`),
// MAIL_DIR (the worker's emails, one *.eml file each), OUT_OF_REACH (a
// record), CHROMIUM (default /usr/bin/chromium), WAIT_MS (how long one
// wait for the worker may take, default 60000).
//
// Prints "ok ..." and "FAIL ..." lines, the game's timing, then
// "N passed, M failed"; exits 1 on any failure.
import { createRequire } from 'node:module';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { auditor } from './axe.mjs';
import { cutShortByLeaving } from './leaving.mjs';

const env = process.env;
const base = env.BASE_URL;
const out = env.OUT_DIR;
const waitMs = Number(env.WAIT_MS || 60000);
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

// A failure that ends the game: what follows would only repeat it.
class Stop extends Error {}
function must(ok, what) {
	if (!check(ok, what))
		throw new Stop(what);
}

const axe = auditor({ deps: env.NODE_DEPS, out, check });
const problems = [];

function watch(page, who) {
	page.on('console', (m) => {
		if (m.type() === 'error' || m.type() === 'warning')
			problems.push(`${who}: console ${m.type()}: ${m.text()}`);
	});
	page.on('pageerror', (e) => problems.push(`${who}: page error: ${e}`));
	page.on('requestfailed', (r) => {
		if (cutShortByLeaving(r))
			return;
		problems.push(`${who}: request failed: ${r.resourceType()} ${r.url()} ${r.failure()?.errorText}`);
	});
	page.on('response', (r) => {
		const type = r.request().resourceType();
		if (r.status() >= 400)
			problems.push(`${who}: ${r.status()} for ${type} ${r.url()}`);
	});
}

// page.goto(url) as a player's reload: an open table reloads itself
// when a move lands (www/live.js), and a goto that meets that reload is
// "interrupted by another navigation"; the table is then loaded again.
async function visit(page, url) {
	for (let tries = 0; ; tries++) {
		try {
			return await page.goto(url, { waitUntil: 'load' });
		} catch (e) {
			if (tries >= 3 || !/interrupted by another navigation/.test(String(e)))
				throw e;
			await page.waitForLoadState('load');
		}
	}
}

const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const desktop = { viewport: { width: 1280, height: 800 } };

async function newSeat(browser, who, device) {
	const ctx = await browser.newContext({ ...device });
	await ctx.exposeBinding('__btCsp', (_src, v) =>
		problems.push(`${who}: CSP violation: ${v}`));
	await ctx.addInitScript(() => {
		document.addEventListener('securitypolicyviolation', (e) =>
			window.__btCsp(`${e.violatedDirective} ${e.blockedURI}`));
	});
	const page = await ctx.newPage();
	watch(page, who);
	return { ctx, page, who, size: device.viewport };
}

// axe on the seat's page as it is now, once per kind of page and seat.
// axe.mjs checks both widths; the seat's own is put back after.
const audited = new Set();
async function audit(seat, kind) {
	const name = `${kind}-${seat.who}`;
	if (audited.has(name))
		return;
	audited.add(name);
	await axe.audit(seat.page, name);
	await seat.page.setViewportSize(seat.size);
}

async function submit(page, form) {
	await Promise.all([
		page.waitForNavigation({ waitUntil: 'load', timeout: 15000 }),
		form.locator('button[type=submit]').click(),
	]);
	return page.url();
}

function admin(...args) {
	return execFileSync(env.BUFFERTIME, ['admin', '--db', env.DB, ...args],
		{ encoding: 'utf8' }).trim();
}
const show = (game) => JSON.parse(admin('show', game));

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Polls fn (sync or async) every 200 ms until it returns something
// truthy; fails with what after WAIT_MS.
async function until(fn, what) {
	const end = Date.now() + waitMs;
	for (;;) {
		const v = await fn();
		if (v)
			return v;
		if (Date.now() > end)
			must(false, `${what} within ${waitMs / 1000} s`);
		await sleep(200);
	}
}

// ---- email: Cy's side ----------------------------------------------------

// The emails the worker wrote, oldest first: { file, head (lower-case
// names, unfolded), body }.
function mails() {
	return readdirSync(env.MAIL_DIR).filter((f) => f.endsWith('.eml')).sort()
		.map((f) => {
			const text = readFileSync(join(env.MAIL_DIR, f), 'utf8').replace(/\r\n/g, '\n');
			const cut = text.indexOf('\n\n');
			const head = {};
			for (const h of text.slice(0, cut).replace(/\n[ \t]+/g, ' ').split('\n')) {
				const i = h.indexOf(':');
				if (i > 0)
					head[h.slice(0, i).toLowerCase()] = h.slice(i + 1).trim();
			}
			return { file: f, head, body: text.slice(cut + 2) };
		});
}

const cyAddress = 'cy@example.org';
const forCy = (m) => (m.head.to || '').includes(cyAddress);

// The menu of an email: [{ no, text }] from its "N. What" lines.
function menu(body) {
	const items = [];
	for (const l of body.split('\n')) {
		const m = /^(\d+)\. (.*)$/.exec(l);
		if (m)
			items.push({ no: m[1], text: m[2] });
	}
	return items;
}

// Cy's choice: log when she can; else, every third turn, a Side
// Project; else get to work; else the first.
function cyChoice(items, turnNo) {
	const starts = (w) => items.find((i) => i.text.startsWith(w));
	return starts('Log the completed assignment') ||
		(turnNo % 3 === 2 && starts('Start this Side Project')) ||
		starts('Get to work') || items[0];
}

// Cy's reply to mail, as a mail program writes it: her number on top,
// the email quoted below.
function replyTo(mail, number, n) {
	const mid = mail.head['message-id'];
	const quoted = mail.body.split('\n').map((l) => (l ? `> ${l}` : '>')).join('\n');
	return [
		'From: Cy <cy@example.org>',
		`To: ${mail.head['reply-to']}`,
		`Subject: Re: ${mail.head.subject}`,
		`Date: ${new Date().toUTCString().replace('GMT', '+0000')}`,
		`Message-ID: <cy.${n}.${Date.now()}@example.org>`,
		`In-Reply-To: ${mid}`,
		`References: ${mid}`,
		'MIME-Version: 1.0',
		'Content-Type: text/plain; charset=utf-8',
		'Content-Transfer-Encoding: 8bit',
		'',
		number,
		'',
		`On ${mail.head.date}, ${mail.head.from} wrote:`,
		quoted,
		'',
	].join('\n');
}

const answered = new Set();
async function cyMoves(game, st) {
	const mail = await until(() => mails().filter((m) => forCy(m) &&
		m.head['reply-to'] && !answered.has(m.head['message-id']) &&
		menu(m.body).length > 0).pop(), `Cy's turn email (move ${st.actions + 1})`);
	answered.add(mail.head['message-id']);
	const pick = cyChoice(menu(mail.body), answered.size);
	const r = spawnSync(env.BUFFERTIME, ['inbound', '--config', env.CONFIG],
		{ input: replyTo(mail, pick.no, answered.size), encoding: 'utf8', timeout: 30000 });
	must(r.status === 0 && /moved/.test(r.stderr),
		`Cy's reply "${pick.no}" (${pick.text.split(' — ')[0]}) to ${mail.file}` +
		` is taken (exit ${r.status}: ${r.stderr.trim()})`);
	await until(() => show(game).actions > st.actions, 'Cy\'s move in the record');
	return pick.text.split(' — ')[0];
}

// ---- the seats with a browser ----------------------------------------------

const anyAct = (page, action) =>
	page.locator(`form.act:has(input[name=action][value=${action}])`);

// One move on the seat's table, with the simple policy: log when it can;
// else, every third turn, a Side Project or an Ability (a Sensor Sweep's
// look then its order); else work.  side: a Side Project if there is one.
async function tableMove(seat, table, turnNo, side) {
	const page = seat.page;
	await visit(page, table);
	const order = page.locator('form:has(input[name=action][value=order])');
	if (await order.count() > 0) {
		await submit(page, order.first());
		return 'order';
	}
	const forms = page.locator('form.act');
	must(await forms.count() > 0, `${seat.who} has forms on their turn`);
	await audit(seat, 'table-turn');
	let form = anyAct(page, 'log');
	if (side && await anyAct(page, 'side').count() > 0)
		form = anyAct(page, 'side');
	else if (await form.count() === 0 && turnNo % 3 === 1)
		form = page.locator('form.act:not(.work)');
	if (await form.count() === 0)
		form = anyAct(page, 'work');
	if (await form.count() === 0)
		form = forms;
	const n = await form.count();
	form = form.nth(turnNo % n);
	const action = await form.locator('input[name=action]').getAttribute('value');
	let url = await submit(page, form);
	if (action === 'look') {
		check(await order.count() === 1, `${seat.who}: after the look, the order form`);
		await audit(seat, 'table-sweep');
		url = await submit(page, order.first());
	}
	check(!/[?&]m=/.test(url), `${seat.who}'s ${action} accepted (${url})`);
	return action;
}

// The newest line the bot said in the table talk panel, or ''.
async function botLine(page) {
	const lines = page.locator('section.talk ul.chat li', {
		has: page.locator('.who', { hasText: /^Bot$/ }) });
	const n = await lines.count();
	return n ? (await lines.nth(n - 1).locator('p').innerText()).trim() : '';
}

// On the seat's first screen (its own viewport, not scrolled): whose turn
// it is and the block of moves since the seat last looked, its newest
// line being the newest move of the table's log.  Kept as a screenshot.
let firstScreens = 0;
async function firstScreen(seat, what) {
	const p = seat.page;
	await p.evaluate(() => window.scrollTo(0, 0));
	await p.screenshot({ path: join(out, `first-${++firstScreens}-${seat.who}.png`) });
	const bottom = async (sel) => {
		const b = await p.locator(sel).first().boundingBox();
		return b ? Math.round(b.y + b.height) : Infinity;
	};
	const turn = await bottom('.status .turn');
	const since = await bottom('section.since ul.moves li.latest');
	const talk = await bottom('section.since .talkline');
	const h = seat.size.height;
	check(turn <= h && since <= h && talk <= h,
		`${what}: on the first screen (${seat.size.width}x${h}), whose turn (${turn} px),` +
		` the newest talk line (${talk} px) and the newest move since the last look` +
		` (${since} px)`);
	const newest = (await p.locator('section.log ul.moves li').first().innerText()).trim();
	const seen = (await p.locator('section.since ul.moves li.latest').innerText()).trim();
	const rest = (s) => s.replace(/^\S+ /, '');
	check(rest(seen) === rest(newest),
		`${what}: the since block's newest line ("${seen}") is the newest move ("${newest}")`);
}

// Ann's take-back at 390 px: her Side Project (Ben, a person, is next)
// taken back with the table's form; her turn again, then she moves.
async function takeBack(ann, game, table) {
	const before = show(game).actions;
	const form = ann.page.locator('form.takeback');
	must(await form.count() === 1, 'after her Side Project, Ann\'s table offers "Take back my move"');
	const box = await form.locator('button').boundingBox();
	check(box && box.y + box.height <= ann.size.height && box.x + box.width <= ann.size.width,
		`the take-back button is on her first screen at ${ann.size.width} px` +
		` (${box && `${Math.round(box.x + box.width)}x${Math.round(box.y + box.height)}`})`);
	await ann.page.screenshot({ path: join(out, 'takeback-offered-ann.png') });
	await audit(ann, 'table-takeback-offered');
	const url = await submit(ann.page, form);
	const st = show(game);
	check(st.actions === before - 1 && st.turn === 1,
		`the move is gone and it is Ann's turn again (${st.actions} lines, turn ${st.turn})`);
	const notice = ann.page.locator('p.notice', { hasText: 'Your move was taken back' });
	check(await notice.count() === 1, `Ann's table says "Your move was taken back" (${url})`);
	check(/^Your turn/.test(await ann.page.locator('.status .turn').innerText()) &&
		await ann.page.locator('form.act').count() > 0, 'her table says it is her turn, with her forms');
	await ann.page.screenshot({ path: join(out, 'takeback-done-ann.png') });
	await audit(ann, 'table-taken-back');
	await visit(ann.page, table);
}

async function main() {
	mkdirSync(out, { recursive: true });
	const browser = await chromium.launch({
		executablePath: env.CHROMIUM || '/usr/bin/chromium',
		headless: true,
		args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
			'--no-first-run', '--disable-background-networking',
			'--disable-component-update', '--disable-sync'],
		timeout: 60000,
	});
	try {
		const game = await play(browser);
		await outOfReach(browser);
		return game;
	} catch (e) {
		if (!(e instanceof Stop))
			throw e;
	} finally {
		await browser.close();
	}
}

// The new-game form from a desktop: Ann, Ben and Cy with emails, seat 4
// a bot; the seat links of the page that follows, one for each person.
async function create(browser) {
	const host = await newSeat(browser, 'creator', desktop);
	const page = host.page;
	const people = [['Ann', 'ann@example.org'], ['Ben', 'ben@example.org'],
		['Cy', cyAddress]];
	// Ann must hold a Side Project to take back: else the form again.
	let links = [];
	for (let tries = 0; tries < 20; tries++) {
		await visit(page, base);
		await audit(host, 'home');
		for (const [i, [name, email]] of people.entries()) {
			await page.fill(`input[name=name${i + 1}]`, name);
			await page.fill(`input[name=email${i + 1}]`, email);
		}
		await page.check('input[name=bot4]');
		await page.selectOption('select[name=first]', '1');
		await submit(page, page.locator('form.newgame'));
		links = await page.locator('a.seatlink').evaluateAll((as) => as.map((a) => a.href));
		must(links.length === 3, `the created page: a link for each person (${links.length})`);
		const hand = show(new URL(links[0]).pathname.split('/').pop()).hands['1'];
		if (hand.some((c) => c.startsWith('P')))
			break;
		console.log(`note: Ann holds no Side Project (${hand.join(' ')}): another game`);
	}
	check(await page.locator('ol.seatlinks li', { hasText: 'Played by the bot' }).count() === 1,
		'the created page says the bot plays seat 4');
	await audit(host, 'created');
	await host.ctx.close();
	return links;
}

async function play(browser) {
	const links = await create(browser);
	const game = new URL(links[0]).pathname.split('/').pop();
	const table = new URL(`g/${game}`, base).href;
	const ann = await newSeat(browser, 'ann', phone);
	const ben = await newSeat(browser, 'ben', desktop);
	for (const [i, s] of [ann, ben].entries()) {
		await visit(s.page, links[i]);
		must(s.page.url() === table,
			`${s.who} opens the seat link: the table, without the token (${s.page.url()})`);
	}
	const start = Date.now();
	const turns = { 1: 0, 2: 0, 3: 0, 4: 0 };
	let tookBack = false;
	let botSpoke = '';
	let moves = 0;
	for (; moves < 400; moves++) {
		const st = show(game);
		if (st.status !== 'playing')
			break;
		const no = st.turn;
		if (no === 3) {
			await cyMoves(game, st);
		} else if (no === 4) {
			await until(() => show(game).actions > st.actions, `the bot's move ${st.actions + 1}`);
		} else {
			const seat = no === 1 ? ann : ben;
			const other = no === 1 ? ben : ann;
			const side = no === 1 && !tookBack;
			const action = await tableMove(seat, table, turns[no], side);
			if (action === 'side' && side) {
				tookBack = true;
				await takeBack(ann, game, table);
				await tableMove(ann, table, turns[no], false);
			}
			const next = show(game);
			if (turns[no] < 3)
				await firstScreen(seat, `${seat.who}'s move ${turns[no] + 1}`);
			else
				await audit(seat, 'table-moved');
			await visit(other.page, table);
			const otherNo = 3 - no;
			const forms = await other.page.locator('form.act').count();
			check(next.status !== 'playing' || (next.turn === otherNo) === (forms > 0),
				`${other.who} has action forms (${forms}) only on their turn (seat ${next.turn})`);
			if (next.turn !== otherNo)
				await audit(other, 'table-waiting');
			botSpoke ||= await botLine(other.page);
		}
		turns[no]++;
	}
	const secs = ((Date.now() - start) / 1000).toFixed(1);
	const st = show(game);
	console.log(`the game: ${moves} turns in ${secs} s (Ann ${turns[1]}, Ben ${turns[2]},` +
		` Cy ${turns[3]} by email, the bot ${turns[4]}), ${st.actions} record lines,` +
		` ${st.status}`);
	must(st.status === 'won' || st.status === 'lost', `the game ended (${st.status})`);
	check(tookBack, 'Ann took back a Side Project on the way');
	check(turns[3] > 0 && turns[4] > 0, 'Cy and the bot had turns');
	check(botSpoke, `the bot talked at the table during the game ("${botSpoke}")`);
	await theEnd(ann, ben, game, table, st);
	return game;
}

// The finished table: the result and every hand, at both seats' widths;
// Cy's game-over email.
async function theEnd(ann, ben, game, table, st) {
	for (const seat of [ann, ben]) {
		await visit(seat.page, table);
		check(await seat.page.locator('.result').count() === 1 &&
			(await seat.page.locator('.result h2').innerText()).length > 0,
			`${seat.who}'s table shows the result`);
		check(await seat.page.locator('section.deal li.hand').count() === 4,
			`${seat.who}'s table shows the four hands now that the game is over`);
		await seat.page.screenshot({ path: join(out, `over-${seat.who}.png`), fullPage: true });
		await audit(seat, 'table-over');
	}
	const over = await until(() => mails().filter((m) => forCy(m) &&
		/^Buffer Time: game (won|lost)\b/.test(m.head.subject || '')).pop(),
	'Cy\'s game-over email');
	check(over.head.subject.includes(st.status) && /is over/.test(over.body),
		`Cy's game-over email: "${over.head.subject}"`);
}

// The imported game that can no longer be won, at a phone's width and a
// desktop's: the notice says so; then the phone ends it.
async function outOfReach(browser) {
	const game = admin('import', '--email', 'ann@example.org', '--email', 'ben@example.org',
		'--email', cyAddress, env.OUT_OF_REACH);
	const st = show(game);
	const link = admin('link', game, String(st.turn), '--key-file', env.KEY_FILE,
		'--base-url', base);
	for (const [who, device] of [['reach-desktop', desktop], ['reach-phone', phone]]) {
		const seat = await newSeat(browser, who, device);
		await visit(seat.page, link);
		const notice = seat.page.locator('p.notice.reach');
		check(await notice.count() === 1 &&
			/can no longer be won/.test(await notice.innerText()) && await notice.isVisible(),
			`${who}: the table says the game can no longer be won`);
		const b = await notice.boundingBox();
		check(b && b.y + b.height <= device.viewport.height,
			`${who}: the notice is on the first screen (${b && Math.round(b.y + b.height)} px)`);
		await seat.page.screenshot({ path: join(out, `${who}.png`) });
		await audit(seat, 'table-out-of-reach');
		if (device === phone)
			await endHere(seat, game);
		await seat.ctx.close();
	}
}

// The phone ends the hopeless game: "End the game here…" opens a
// confirmation; once confirmed the table tells who ended it.
async function endHere(seat, game) {
	const page = seat.page;
	const yes = page.getByRole('button', { name: 'Yes, end it: the crew has lost' });
	check(!(await yes.isVisible()), 'ending asks first: no end button before the question is opened');
	await page.locator('details.end summary').click();
	check(await yes.isVisible(), 'the question opens to "Yes, end it"');
	await audit(seat, 'end-confirm');
	await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), yes.click()]);
	const title = page.locator('.result h2');
	check(await title.count() === 1 &&
		/ended the game: it could no longer be won/.test(await title.innerText()),
		`the ended game's table says who ended it (${await title.count() && await title.innerText()})`);
	const status = show(game).status;
	check(status === 'lost', `the ended game reads as lost (${status})`);
	await page.screenshot({ path: join(out, 'reach-ended-phone.png') });
	await audit(seat, 'table-ended');
}

try {
	await main();
} catch (e) {
	check(false, `the browser run: ${e.stack || e}`);
}
for (const p of problems)
	check(false, p);
console.log(`axe: ${axe.seen.length} page views checked (${axe.seen.join(' ')})`);
check(problems.length === 0, 'no console errors, CSP violations or failed requests');
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
