/*
 * app.js - what makes the pages an app a phone can install: it registers
 * the service worker (static/sw.js), which shows the turn notifications
 * a seat turns on and opens the table when one is tapped.  It caches
 * nothing, so every page still comes from the server as it is.  Without
 * JavaScript, or in a browser without service workers, the pages work
 * as they do anyway.
 */
(function () {
	"use strict";
	var me = document.currentScript;

	if (!me || !("serviceWorker" in navigator) || !window.URL)
		return;
	var here = new URL(me.src);
	var sw = new URL("sw.js" + here.search, here);
	// static/ is the worker's scope: push and notifications need no
	// control of the pages, and static/ is where the file is served.
	navigator.serviceWorker.register(sw.href, {
		scope: new URL("./", here).href,
		updateViaCache: "none"
	}).catch(function () { /* an old or locked-down browser: no app */ });
})();
