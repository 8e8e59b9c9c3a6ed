/*
 * push.js - the settings page's "Notify this device" (the server side is
 * cgi/page_push.c).  It asks the browser's push manager for a
 * subscription for the server's key (the form's data-key), with the
 * player's leave, and sends it in the page's own form; "Stop" ends the
 * subscription and tells the server.  It says in words what went wrong:
 * no permission, or a browser that cannot reach its push service.
 * Without JavaScript the page says that it needs it.
 */
(function () {
	"use strict";
	var form = document.querySelector("form.push-form");
	if (!form)
		return;
	var buttons = form.querySelector(".push-buttons");
	var on = form.querySelector(".push-on");
	var off = form.querySelector(".push-off");
	var status = form.querySelector(".push-status");
	var scope = new URL("./", document.currentScript.src).href;

	function say(words) {
		status.textContent = words;
	}

	function key() {
		var b = form.getAttribute("data-key").replace(/-/g, "+").replace(/_/g, "/");
		var raw = atob(b + "===".slice((b.length + 3) % 4));
		var out = new Uint8Array(raw.length);
		for (var i = 0; i < raw.length; i++)
			out[i] = raw.charCodeAt(i);
		return out;
	}

	function send(what, sub) {
		var json = sub.toJSON();
		form.elements.push.value = what;
		form.elements.endpoint.value = json.endpoint || "";
		form.elements.p256dh.value = (json.keys && json.keys.p256dh) || "";
		form.elements.auth.value = (json.keys && json.keys.auth) || "";
		form.submit();
	}

	if (!("serviceWorker" in navigator) || !("PushManager" in window) ||
	    !("Notification" in window)) {
		say("This browser cannot show notifications from a web page.");
		return;
	}
	navigator.serviceWorker.getRegistration(scope).then(function (reg) {
		if (!reg) {
			say("This browser has not installed the game's helper yet: " +
			    "reload the page.");
			return;
		}
		return reg.pushManager.getSubscription().then(function (sub) {
			buttons.hidden = false;
			on.hidden = !!sub;
			off.hidden = !sub;
			if (sub)
				say("This browser is notified.");
			on.addEventListener("click", function () {
				Notification.requestPermission().then(function (p) {
					if (p !== "granted") {
						say("This browser was not allowed to show " +
						    "notifications: allow them in its settings " +
						    "for this site, then try again.");
						return;
					}
					return reg.pushManager.subscribe({
						userVisibleOnly: true, applicationServerKey: key()
					}).then(function (s) { send("on", s); });
				}).catch(function (e) {
					say("This browser could not reach its push service (" +
					    (e && e.name ? e.name : "error") + "). Your email " +
					    "still comes.");
				});
			});
			off.addEventListener("click", function () {
				if (sub)
					sub.unsubscribe().then(function () { send("off", sub); },
						function () { send("off", sub); });
			});
		});
	}).catch(function () {
		say("This browser cannot show notifications from a web page.");
	});
})();
