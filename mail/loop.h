/*
 * loop.h - our own loop header.  Every email of ours carries it
 * (message.c writes "X-Buffertime-Loop: DOMAIN", DOMAIN being
 * mail_from's), so an echo of one of ours (a forward rule, a broken
 * autoresponder) is seen as automatic by the inbound side
 * (inbound_mime.c) and never answered.  No GMime here: the sending side
 * includes it too.
 */
#ifndef BT_LOOP_H
#define BT_LOOP_H

#define INBOUND_LOOP_HEADER "X-Buffertime-Loop"

#endif
