/*
 * cards.c - the card tables of RULES.md, as data.  This file is the only
 * place in the project that knows a card's values and texts.
 */
#include <string.h>

#include "cards.h"

#define SIDE(n, nm, t, l) \
	{ "P" #n, nm, BT_TYPE_SIDE, t, l, 0, 0, BT_KIND_NONE }
#define ABILITY(n, k, nm, l, e) \
	{ "X" #n, nm, BT_TYPE_ABILITY, 0, l, e, 0, k }
#define ASSIGN(n, nm, t, l) \
	{ "A" #n, nm, BT_TYPE_ASSIGNMENT, t, l, 0, 0, BT_KIND_NONE }
#define EFFORT(n, nm, e) \
	{ "S" #n, nm, BT_TYPE_SHIFT, 0, 0, e, 0, BT_KIND_NONE }
#define OFFICER(n, nm, o) \
	{ "S" #n, nm, BT_TYPE_SHIFT, 0, 0, 0, o, BT_KIND_NONE }

const bt_card_info bt_cards[BT_CARD_COUNT] = {
	SIDE(01, "Nap in a Jefferies Tube", 1, 1),
	SIDE(02, "Replicator Snack Run", 1, 1),
	SIDE(03, "Doodle on a PADD", 1, 1),
	SIDE(04, "Gossip in the Turbolift", 2, 1),
	SIDE(05, "Reorganize a Locker", 2, 1),
	SIDE(06, "Practice a Salute", 2, 1),
	SIDE(07, "Trivia Night", 2, 2),
	SIDE(08, "Pen Pal Letter", 2, 2),
	SIDE(09, "Plant Care on Deck 9", 2, 2),
	SIDE(10, "Lunch with a Friend", 2, 2),
	SIDE(11, "Sketch the Nebula", 3, 2),
	SIDE(12, "Join a Book Club", 3, 2),
	SIDE(13, "Fix a Friend's Tricorder", 3, 2),
	SIDE(14, "Holonovel Script", 3, 3),
	SIDE(15, "Secret Bar Crawl", 3, 3),
	SIDE(16, "Warp Core Karaoke", 3, 3),
	SIDE(17, "Tribble Sitting", 3, 3),
	SIDE(18, "Bridge Crew Fan Fiction", 4, 3),
	SIDE(19, "Model Starship Build", 4, 3),
	SIDE(20, "Exotic Cooking Class", 4, 3),
	SIDE(21, "Amateur Theatre Night", 4, 4),
	SIDE(22, "Bat'leth Lessons", 4, 4),
	SIDE(23, "Home-Made Holodeck Program", 5, 4),
	SIDE(24, "Start a Band", 5, 4),
	SIDE(25, "Throw a Surprise Party", 6, 5),
	SIDE(26, "Shore Leave Planning", 3, 3),

	ABILITY(01, BT_OVERTIME, "Overtime", 0, 2),
	ABILITY(02, BT_OVERTIME, "Overtime", 0, 2),
	ABILITY(03, BT_OVERTIME, "Overtime", 0, 2),
	ABILITY(04, BT_COVER_STORY, "Cover Story", 0, 0),
	ABILITY(05, BT_COVER_STORY, "Cover Story", 0, 0),
	ABILITY(06, BT_COVER_STORY, "Cover Story", 0, 0),
	ABILITY(07, BT_DEFLECT, "Deflect", 0, 0),
	ABILITY(08, BT_DEFLECT, "Deflect", 0, 0),
	ABILITY(09, BT_EXTRA_DUTY, "Extra Duty", 0, 0),
	ABILITY(10, BT_EXTRA_DUTY, "Extra Duty", 0, 0),
	ABILITY(11, BT_HOLODECK, "Holodeck Reservation", 2, 0),
	ABILITY(12, BT_HOLODECK, "Holodeck Reservation", 2, 0),
	ABILITY(13, BT_SENSOR_SWEEP, "Sensor Sweep", 0, 0),
	ABILITY(14, BT_SENSOR_SWEEP, "Sensor Sweep", 0, 0),
	ABILITY(15, BT_BRAINSTORM, "Brainstorm", 0, 0),
	ABILITY(16, BT_BRAINSTORM, "Brainstorm", 0, 0),
	ABILITY(17, BT_SCALE_BACK, "Scale Back", 0, 0),
	ABILITY(18, BT_SCALE_BACK, "Scale Back", 0, 0),
	ABILITY(19, BT_HAND_OFF, "Hand Off", 0, 0),
	ABILITY(20, BT_HAND_OFF, "Hand Off", 0, 0),

	ASSIGN(01, "Scrub the Plasma Conduits", 5, 0),
	ASSIGN(02, "Inventory Cargo Bay Two", 5, 0),
	ASSIGN(03, "Reroute the Jefferies Tubes", 6, 0),
	ASSIGN(04, "Polish the Bridge Consoles", 6, 0),
	ASSIGN(05, "Update the Crew Manifest", 6, 1),
	ASSIGN(06, "Debug the Replicators", 7, 0),
	ASSIGN(07, "Repaint the Shuttlebay", 7, 1),
	ASSIGN(08, "Recalibrate the Sensor Array", 7, 0),
	ASSIGN(09, "Install New Sickbay Biobeds", 8, 1),
	ASSIGN(10, "Defragment the Main Computer", 8, 0),
	ASSIGN(11, "Survey a Gaseous Anomaly", 8, 2),
	ASSIGN(12, "Escort a Diplomatic Envoy", 9, 1),
	ASSIGN(13, "Catalog Alien Spores", 9, 2),
	ASSIGN(14, "Decontaminate the Transporter", 9, 0),
	ASSIGN(15, "Realign the Deflector Dish", 10, 2),
	ASSIGN(16, "Clean the Warp Core Housing", 10, 1),
	ASSIGN(17, "Upgrade the Holodeck Safeties", 11, 2),
	ASSIGN(18, "Handle a First Contact", 12, 3),

	EFFORT(01, "Ensign on the Night Shift", 1),
	EFFORT(02, "Ensign on the Night Shift", 1),
	EFFORT(03, "Ensign on the Night Shift", 1),
	EFFORT(04, "Ensign on the Night Shift", 1),
	EFFORT(05, "Ensign on the Night Shift", 1),
	EFFORT(06, "Ensign on the Night Shift", 1),
	EFFORT(07, "Ensign on the Night Shift", 1),
	EFFORT(08, "Eager Ensign", 2),
	EFFORT(09, "Eager Ensign", 2),
	EFFORT(10, "Eager Ensign", 2),
	EFFORT(11, "Eager Ensign", 2),
	EFFORT(12, "Eager Ensign", 2),
	EFFORT(13, "Eager Ensign", 2),
	EFFORT(14, "Eager Ensign", 2),
	EFFORT(15, "Eager Ensign", 2),
	EFFORT(16, "Eager Ensign", 2),
	EFFORT(17, "Overachieving Ensign", 3),
	EFFORT(18, "Overachieving Ensign", 3),
	EFFORT(19, "Overachieving Ensign", 3),
	EFFORT(20, "Overachieving Ensign", 3),
	EFFORT(21, "Overachieving Ensign", 3),
	EFFORT(22, "Overachieving Ensign", 3),
	OFFICER(23, "Captain", 3),
	OFFICER(24, "First Officer", 3),
	OFFICER(25, "Chief Engineer", 2),
	OFFICER(26, "Chief of Security", 2),
	OFFICER(27, "Ship's Doctor", 1),
	OFFICER(28, "Ship's Counselor", 1),
};

static const char *const kind_names[BT_KIND__MAX] = {
	[BT_KIND_NONE] = "",
	[BT_OVERTIME] = "Overtime",
	[BT_COVER_STORY] = "Cover Story",
	[BT_DEFLECT] = "Deflect",
	[BT_EXTRA_DUTY] = "Extra Duty",
	[BT_HOLODECK] = "Holodeck Reservation",
	[BT_SENSOR_SWEEP] = "Sensor Sweep",
	[BT_BRAINSTORM] = "Brainstorm",
	[BT_SCALE_BACK] = "Scale Back",
	[BT_HAND_OFF] = "Hand Off",
};

const char *bt_kind_name(bt_kind k)
{
	return (unsigned)k < BT_KIND__MAX ? kind_names[k] : "";
}

/* R9: what each kind's card says, word for word, with when it may be
 * played; the rules page shows it as it stands. */
static const char *const kind_texts[BT_KIND__MAX] = {
	[BT_KIND_NONE] = "",
	[BT_OVERTIME] = "Place this card in the Shift Stack. It shows "
	                "Effort 2.",
	[BT_COVER_STORY] = "Choose an Officer card in the Shift Stack and put "
	                   "it on the bottom of the Shift Deck. Playable only "
	                   "with an Officer in the stack.",
	[BT_DEFLECT] = "Reveal the top Shift card. An Officer goes to the "
	               "bottom of the Shift Deck; any other card goes onto "
	               "the Shift Stack. Playable only if the Shift Deck is "
	               "not empty; allowed whatever the totals.",
	[BT_EXTRA_DUTY] = "Put the top set-aside Assignment on the bottom of "
	                  "the Assignment Deck (one more round). Playable only "
	                  "while any are set aside.",
	[BT_HOLODECK] = "Place this card in the Scoring Row. It is worth 2 "
	                "Leisure.",
	[BT_SENSOR_SWEEP] = "Look at the top three Shift cards (fewer if fewer "
	                    "remain) and put them back in any order you "
	                    "choose. Only you see them. Playable only if the "
	                    "Shift Deck is not empty.",
	[BT_BRAINSTORM] = "Draw two Side Projects (one if only one is left). "
	                  "Playable only if the Side Project Deck is not "
	                  "empty.",
	[BT_SCALE_BACK] = "Choose a Side Project in play and take it into "
	                  "your hand. Playable only with a Side Project in "
	                  "play.",
	[BT_HAND_OFF] = "Give one other card from your hand to another player "
	                "of your choice. Playable only with another card in "
	                "hand.",
};

/* The same, as short as a printed card's text. */
static const char *const kind_shorts[BT_KIND__MAX] = {
	[BT_KIND_NONE] = "",
	[BT_OVERTIME] = "Place this card in the Shift Stack.",
	[BT_COVER_STORY] = "Put an Officer from the Shift Stack on the "
	                   "bottom of the Shift Deck.",
	[BT_DEFLECT] = "Reveal the top Shift card: an Officer goes to the "
	               "bottom of the Shift Deck, any other card onto the "
	               "Shift Stack.",
	[BT_EXTRA_DUTY] = "Put the top set-aside Assignment on the bottom "
	                  "of the Assignment Deck.",
	[BT_HOLODECK] = "Place this card in the Scoring Row.",
	[BT_SENSOR_SWEEP] = "Look at the top three Shift cards and put "
	                    "them back in any order. Only you see them.",
	[BT_BRAINSTORM] = "Draw two Side Projects.",
	[BT_SCALE_BACK] = "Take a Side Project in play into your hand.",
	[BT_HAND_OFF] = "Give another card from your hand to another "
	                "player.",
};

const char *bt_kind_text(bt_kind k)
{
	return (unsigned)k < BT_KIND__MAX ? kind_texts[k] : "";
}

const char *bt_kind_short(bt_kind k)
{
	return (unsigned)k < BT_KIND__MAX ? kind_shorts[k] : "";
}

/* Which range of card numbers each id letter names. */
static const struct {
	char letter;
	int first, count;
} id_ranges[] = {
	{ 'P', BT_SIDE_FIRST, BT_SIDE_COUNT },
	{ 'X', BT_ABILITY_FIRST, BT_ABILITY_COUNT },
	{ 'A', BT_ASSIGN_FIRST, BT_ASSIGN_COUNT },
	{ 'S', BT_SHIFT_FIRST, BT_SHIFT_COUNT },
};

bt_card bt_card_parse(const char *s, size_t len)
{
	if (len != 3 || s[1] < '0' || s[1] > '9' || s[2] < '0' || s[2] > '9')
		return BT_NO_CARD;
	int number = (s[1] - '0') * 10 + (s[2] - '0');
	for (size_t i = 0; i < sizeof id_ranges / sizeof id_ranges[0]; i++)
		if (id_ranges[i].letter == s[0] && number >= 1 &&
		    number <= id_ranges[i].count)
			return (bt_card)(id_ranges[i].first + number - 1);
	return BT_NO_CARD;
}
