/*
 * mail_ctx.c - the web program's compose context (mail_ctx.h).
 */
#include <string.h>

#include "mail_ctx.h"

void web_compose(web *w, compose_ctx *c)
{
	memset(c, 0, sizeof *c);
	c->st = w->st;
	c->keys = &w->keys;
	c->base_url = w->cf->base_url;
	/* conf_finish refused a reply address this would turn down */
	compose_reply_address(c, w->cf->reply_address);
}
