/*
 * agent.h - a browser named in a few words ("Firefox on Android") from
 * its User-Agent, for the list of signed-in browsers: words of our own
 * list only, never the header's text, so the name needs no trust.
 */
#ifndef BT_AGENT_H
#define BT_AGENT_H

#include <stddef.h>

/* Writes the name of user_agent (may be NULL) into out (cap bytes):
 * "a browser" if nothing in it is known. */
void agent_words(const char *user_agent, char *out, size_t cap);

#endif
