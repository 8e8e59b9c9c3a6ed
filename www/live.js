/*
 * live.js - keeps a table page current (the server side is cgi/live.c).
 *
 * The page's ETag is in this script's data-tag: "GAME-CLOCK".  Every 10 s
 * while the tab is visible, at once when it becomes visible again (or
 * comes back from the back/forward cache), the script asks the page's
 * own address with HEAD and If-None-Match: that tag.
 *   304           nothing changed.
 *   200, new tag  the page is reloaded (without a ?m= notice), unless
 *                 someone is typing (a focused or edited text field):
 *                 then, if GAME changed, a small "The game has moved:
 *                 reload" link shows, and the page reloads at the first
 *                 check after the typing is over; if only CLOCK changed
 *                 (words like "3 minutes ago"), the new tag is kept and
 *                 nothing shows.
 *   else          (an error, offline) the next check waits twice as long.
 * While hidden, checks start at 60 s apart and double to 10 minutes.
 * Without JavaScript, the page has its own Reload link.
 */
(function () {
	"use strict";
	var me = document.currentScript;
	var tag = me && me.getAttribute("data-tag");
	var VISIBLE = 10000, HIDDEN = 60000, MOST = 600000;
	var delay = VISIBLE, timer = 0, busy = false, moved = false;

	if (!tag || !window.fetch || !window.URL)
		return;

	function game(t) {
		return t.split("-")[0];
	}

	function typing() {
		var f = document.activeElement, all, i;
		if (f && (f.tagName === "TEXTAREA" || f.tagName === "SELECT" ||
		    (f.tagName === "INPUT" &&
		     !/^(submit|button|reset|image|hidden|checkbox|radio)$/.test(f.type))))
			return true;
		all = document.querySelectorAll("textarea, input[type=text]");
		for (i = 0; i < all.length; i++)
			if (all[i].value !== all[i].defaultValue)
				return true;
		return false;
	}

	/* The page's address without its one-time notice. */
	function target() {
		var u = new URL(location.href);
		if (u.searchParams.has("m"))
			u.searchParams.delete("m");
		return u.href;
	}

	function reload() {
		var u = target();
		if (u === location.href)
			location.reload();
		else
			location.replace(u);
	}

	function notice() {
		var p, a, main;
		if (document.getElementById("live-note"))
			return;
		p = document.createElement("p");
		p.id = "live-note";
		p.className = "live-note";
		p.setAttribute("role", "status");
		a = document.createElement("a");
		a.href = target();
		a.textContent = "The game has moved: reload";
		p.appendChild(a);
		main = document.querySelector("main") || document.body;
		main.appendChild(p);
	}

	function schedule() {
		clearTimeout(timer);
		timer = setTimeout(tick, delay);
	}

	function calm() {
		delay = document.hidden ? Math.min(Math.max(delay * 2, HIDDEN), MOST)
		                        : VISIBLE;
	}

	/* A 200's tag t: news, stale words, or (no tag, the same) nothing. */
	function seen(t) {
		t = (t || "").replace(/^W\//, "");
		if (!t || t === tag)
			return;
		if (!typing())
			reload();
		else if (game(t) !== game(tag)) {
			moved = true;
			notice();
		} else
			tag = t;
	}

	function check() {
		busy = true;
		fetch(location.href, {
			method: "HEAD", cache: "no-store", credentials: "same-origin",
			headers: { "If-None-Match": tag }
		}).then(function (r) {
			if (r.status === 304 || r.ok) {
				if (r.ok)
					seen(r.headers.get("ETag"));
				calm();
			} else
				delay = Math.min(delay * 2, MOST);
		}, function () {
			delay = Math.min(delay * 2, MOST);
		}).then(function () {
			busy = false;
			schedule();
		});
	}

	function tick() {
		if (busy)
			return;
		if (moved) {
			if (!typing())
				reload();
			else
				schedule();
			return;
		}
		check();
	}

	function now() {
		delay = VISIBLE;
		clearTimeout(timer);
		tick();
	}

	document.addEventListener("visibilitychange", function () {
		if (!document.hidden)
			now();
	});
	window.addEventListener("pageshow", function (e) {
		if (e.persisted)
			now();
	});
	schedule();
}());
