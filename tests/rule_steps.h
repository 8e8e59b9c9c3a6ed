/*
 * rule_steps.h - what the rules' tests (check_rules.c, check_abilities.c)
 * play with: a card by its id, a rigged record replayed (legal to its
 * end, or failing where a rule says), one action applied or checked, the
 * hands and piles compared, and states built directly (a fresh game,
 * cards put out of it or on top of a pile).  Each fails the test
 * (Check) when what it needs does not hold.
 */
#ifndef BT_TEST_RULE_STEPS_H
#define BT_TEST_RULE_STEPS_H

#include "engine.h"

/* A record's header for players seats, first to play; seed 1. */
#define HEADER(players, first) \
	"buffertime 1\nplayers " #players "\nfirst " #first "\nseed 1\n"

/* The card id names (it must be one). */
bt_card C(const char *id);

/* Replays text, which must be legal to its end. */
bt_game play(const char *text);

/* Replays text, which must fail on line want_line citing want_rule. */
void play_fails(const char *text, int want_line, int want_rule);

/* Applies one action to g (arguments: card ids or numbers, NULL after
 * the last); it must be legal. */
void act(bt_game *g, int seat, bt_verb verb, const char *card,
         const char *a0, const char *a1, const char *a2);

/* bt_check of one action: the error code, and its rule in *rule. */
int try_act(const bt_game *g, int seat, bt_verb verb, const char *card,
            const char *a0, const char *a1, int *rule);

/* 1 if seat holds card id. */
int in_hand(const bt_game *g, int seat, const char *id);

/* The n cards of a, their ids joined by spaces, must be want. */
void assert_cards(const bt_card *a, int n, const char *want);

/* g must pass bt_game_check. */
void assert_valid(const bt_game *g);

/* A new game's state, dealt from a fixed key. */
bt_game fresh(int players, int first);

/* Card c, pile p's cards or seat's hand out of the game (boxed). */
void box_card(bt_game *g, bt_card c);
void box_pile(bt_game *g, bt_pile *p);
void box_hand(bt_game *g, int seat);

/* Moves c to the top of pile p (it must be in p). */
void to_top(bt_pile *p, bt_card c);

/* Seat 1 holds X01 X04 (and, given, X07 X09 X11 X13 X15 X17 X19) and
 * sides P01 P02; seat 2 holds X02 X05 and P03 P04.  Duty A18 (target
 * 12); Shift Stack S01; Shift Deck from the top S23 S08 S27 S17 S28. */
#define ABILITY_TABLE \
	HEADER(2, 1) \
	"stack assignment A18 A01\n" \
	"stack ability X01 X04 X02 X05 X07 X09 X11 X13 X15 X17 X19\n" \
	"stack side P01 P02 P03 P04 P05 P06 P07\n" \
	"stack shift S01 S23 S08 S27 S17 S28\n"

/* Moves card id from its deck into seat's hand (a built state). */
void give(bt_game *g, int seat, const char *id);

/* ABILITY_TABLE played, seat 1 given the further Ability cards it
 * names. */
bt_game ability_table(void);

#endif
