/*
 * takeback.c - which moves a player may take back (a misclick undone)
 * before the next action: only one that showed nobody anything new and
 * drew on no chance, so taking it back tells no one what they would not
 * otherwise know and replays the same game.  A move that draws (work,
 * log, Brainstorm), shows a deck's card (Deflect), looks (Sensor Sweep),
 * puts a card in another hand (Hand Off), or ends the round or the game
 * stands.
 */
#include <string.h>

#include "engine.h"

/* The plays that only move cards every seat can see, or the mover's own:
 * a Side Project, and the Abilities that neither draw nor reveal. */
static int quiet_play(const bt_action *a)
{
	if (a->verb == BT_SIDE)
		return 1;
	if (a->verb != BT_SPECIAL || a->card >= BT_CARD_COUNT ||
	    bt_card_get(a->card)->type != BT_TYPE_ABILITY)
		return 0;
	switch (bt_card_get(a->card)->kind) {
	case BT_OVERTIME:
	case BT_COVER_STORY:
	case BT_EXTRA_DUTY:
	case BT_HOLODECK:
	case BT_SCALE_BACK:
		return 1;
	default:
		return 0;
	}
}

int bt_take_back_ok(const bt_game *before, const bt_action *a,
                    const bt_game *after)
{
	return quiet_play(a) && after->status == BT_PLAYING &&
	       after->round == before->round &&
	       after->reprimands == before->reprimands &&
	       after->shift_deck.n >= before->shift_deck.n &&
	       memcmp(after->known_top, before->known_top,
	              sizeof after->known_top) == 0 &&
	       memcmp(&after->rng, &before->rng, sizeof after->rng) == 0 &&
	       memcmp(after->rig_n, before->rig_n, sizeof after->rig_n) == 0;
}
