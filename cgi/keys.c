/*
 * keys.c - the names tables of keys.h.
 */
#include "keys.h"

#define WEB_KEY_NAME(n) #n,
const char *const web_key_names[K__MAX] = { WEB_KEYS(WEB_KEY_NAME) };
#undef WEB_KEY_NAME

const char *const web_tpl_files[TPL__MAX] = {
	[TPL_LAYOUT] = "layout.html",
	[TPL_ERROR] = "error.html",
	[TPL_HOME] = "home.html",
	[TPL_CREATED] = "created.html",
	[TPL_TABLE] = "table.html",
	[TPL_CARD] = "card.html",
	[TPL_FORM] = "form.html",
	[TPL_SELECT] = "select.html",
	[TPL_ORDER] = "order.html",
	[TPL_SETTINGS] = "settings.html",
	[TPL_UNSUB] = "unsub.html",
	[TPL_GAMES] = "games.html",
	[TPL_FEED] = "feed.xml",
	[TPL_TALK] = "talk.html",
	[TPL_HISTORY] = "history.html",
	[TPL_RULES] = "rules.html",
	[TPL_BLOCK] = "block.html",
	[TPL_CLOSED] = "closed.html",
	[TPL_SIGNIN] = "signin.html",
};
