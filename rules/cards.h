/*
 * cards.h - the card set of Buffer Time (RULES.md R2, card tables).
 *
 * Every card is a small integer.  The numbering puts the cards that can be
 * held in a hand (Side Projects, then Abilities) first, so a hand fits in
 * one 64-bit mask and iterating its bits yields the cards sorted by id.
 */
#ifndef BT_CARDS_H
#define BT_CARDS_H

#include <stddef.h>
#include <stdint.h>

typedef uint8_t bt_card;

enum {
	BT_SIDE_FIRST = 0,   /* P01..P26 */
	BT_SIDE_COUNT = 26,
	BT_ABILITY_FIRST = 26, /* X01..X20 */
	BT_ABILITY_COUNT = 20,
	BT_ASSIGN_FIRST = 46, /* A01..A18 */
	BT_ASSIGN_COUNT = 18,
	BT_SHIFT_FIRST = 64, /* S01..S28 */
	BT_SHIFT_COUNT = 28,
	BT_CARD_COUNT = 92,
	BT_HANDABLE_COUNT = 46, /* sides and abilities: the hand mask bits */
	BT_NO_CARD = 0xff
};

typedef enum bt_card_type {
	BT_TYPE_SIDE,
	BT_TYPE_ABILITY,
	BT_TYPE_ASSIGNMENT,
	BT_TYPE_SHIFT,
	BT_TYPE__MAX
} bt_card_type;

/* The nine ability kinds of R9, in table order. */
typedef enum bt_kind {
	BT_KIND_NONE,
	BT_OVERTIME,
	BT_COVER_STORY,
	BT_DEFLECT,
	BT_EXTRA_DUTY,
	BT_HOLODECK,
	BT_SENSOR_SWEEP,
	BT_BRAINSTORM,
	BT_SCALE_BACK,
	BT_HAND_OFF,
	BT_KIND__MAX
} bt_kind;

/* One printed card.  Values that do not apply are 0. */
typedef struct bt_card_info {
	char id[4];          /* "P07", NUL-terminated */
	const char *name;    /* printed name (for abilities, the kind) */
	bt_card_type type;
	uint8_t target;      /* Target icon (assignments, side projects) */
	uint8_t leisure;     /* Leisure icon, incl. Holodeck Reservation's 2 */
	uint8_t effort;      /* Effort icon, incl. Overtime's 2 */
	uint8_t officers;    /* Officer icons */
	bt_kind kind;        /* abilities only */
} bt_card_info;

/* The table of all cards, indexed by bt_card. */
extern const bt_card_info bt_cards[BT_CARD_COUNT];

/* The card c (c < BT_CARD_COUNT). */
static inline const bt_card_info *bt_card_get(bt_card c)
{
	return &bt_cards[c];
}

/* The card whose id is the first len bytes of s ("A01".."X20"), or
 * BT_NO_CARD if there is none.  Case-sensitive. */
bt_card bt_card_parse(const char *s, size_t len);

/* Printed name of an ability kind ("Sensor Sweep"). */
const char *bt_kind_name(bt_kind k);

/* The kind's rules text word for word, with when it is playable (R9's
 * table); "" for BT_KIND_NONE or a value out of range. */
const char *bt_kind_text(bt_kind k);

/* The kind's text as short as a card's ("Draw two Side Projects."). */
const char *bt_kind_short(bt_kind k);

/* Quick accessors used on hot paths. */
static inline bt_card_type bt_card_type_of(bt_card c)
{
	return c < BT_ABILITY_FIRST ? BT_TYPE_SIDE
	     : c < BT_ASSIGN_FIRST ? BT_TYPE_ABILITY
	     : c < BT_SHIFT_FIRST ? BT_TYPE_ASSIGNMENT
	     : BT_TYPE_SHIFT;
}

static inline int bt_card_is_officer(bt_card c)
{
	return bt_cards[c].officers > 0;
}

#endif
