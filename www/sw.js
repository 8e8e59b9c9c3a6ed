/*
 * sw.js - Buffer Time's service worker (registered by static/app.js).
 * A push message (RFC 8291, decrypted by the browser) is JSON: title,
 * body, url (a table's address on this server), tag (one notification
 * a game, the newer replacing the older).  It shows it; a tap opens that
 * table, or brings its tab forward.  A URL that is not this server's
 * opens the server's My games instead: a notification never leads away.
 * Nothing is cached and no request is answered here.
 */
"use strict";

var app = new URL("../", self.location.href);       // the server's prefix

function ours(url) {
	try {
		var u = new URL(url, app);
		if (u.origin === app.origin && u.pathname.indexOf(app.pathname) === 0)
			return u.href;
	} catch (e) { /* not a URL */ }
	return new URL("games", app).href;
}

function text(v, most) {
	return typeof v === "string" ? v.slice(0, most) : "";
}

self.addEventListener("install", function () {
	self.skipWaiting();
});

self.addEventListener("activate", function (event) {
	event.waitUntil(self.clients.claim());
});

self.addEventListener("push", function (event) {
	var data = {};
	try {
		data = event.data ? event.data.json() : {};
	} catch (e) {
		data = { body: event.data ? event.data.text() : "" };
	}
	event.waitUntil(self.registration.showNotification(
		text(data.title, 120) || "Buffer Time", {
			body: text(data.body, 400),
			icon: new URL("static/icon-192.png", app).href,
			tag: text(data.tag, 64) || undefined,
			data: { url: ours(data.url) }
		}));
});

self.addEventListener("notificationclick", function (event) {
	var url = ours(event.notification.data && event.notification.data.url);
	event.notification.close();
	event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true })
		.then(function (list) {
			for (var i = 0; i < list.length; i++)
				if (list[i].url === url && "focus" in list[i])
					return list[i].focus();
			return self.clients.openWindow(url);
		}));
});
