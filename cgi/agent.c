/*
 * agent.c - a browser's name for people (agent.h).  Order matters: many
 * browsers name others in their User-Agent (Chrome says "Safari", Edge
 * says "Chrome"), so the more particular come first.
 */
#include <stdio.h>
#include <string.h>

#include "agent.h"

static const struct { const char *mark, *name; } browsers[] = {
	{ "Edg/", "Edge" }, { "OPR/", "Opera" }, { "Firefox/", "Firefox" },
	{ "FxiOS/", "Firefox" }, { "SamsungBrowser/", "Samsung Internet" },
	{ "CriOS/", "Chrome" }, { "Chromium/", "Chromium" },
	{ "Chrome/", "Chrome" }, { "Safari/", "Safari" },
	{ "Thunderbird/", "Thunderbird" }, { "curl/", "curl" },
};

static const struct { const char *mark, *name; } systems[] = {
	{ "Android", "Android" }, { "iPhone", "iPhone" }, { "iPad", "iPad" },
	{ "Windows", "Windows" }, { "Mac OS X", "a Mac" },
	{ "CrOS", "ChromeOS" }, { "Linux", "Linux" },
};

enum {
	NBROWSERS = sizeof browsers / sizeof browsers[0],
	NSYSTEMS = sizeof systems / sizeof systems[0]
};

void agent_words(const char *user_agent, char *out, size_t cap)
{
	const char *b = NULL, *s = NULL;

	if (cap == 0)
		return;
	for (int i = 0; user_agent && !b && i < NBROWSERS; i++)
		if (strstr(user_agent, browsers[i].mark))
			b = browsers[i].name;
	for (int i = 0; user_agent && !s && i < NSYSTEMS; i++)
		if (strstr(user_agent, systems[i].mark))
			s = systems[i].name;
	if (b && s)
		snprintf(out, cap, "%s on %s", b, s);
	else if (b || s)
		snprintf(out, cap, "%s%s", b ? b : "a browser on ", b ? "" : s);
	else
		snprintf(out, cap, "a browser");
}
