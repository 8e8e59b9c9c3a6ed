/*
 * keys.h - the names templates use: one enum of keys for every template
 * (a key is a {{name}}), and the list of template files.  The X-macro
 * keeps each enum and its names table in step: adding a key is one line.
 */
#ifndef BT_KEYS_H
#define BT_KEYS_H

#define WEB_KEYS(X) \
	/* layout.html */ \
	X(title) X(static_url) X(version) X(home_url) X(main) \
	X(rules_url) \
	/* error.html */ \
	X(err_title) X(err_text) X(has_hint) X(err_hint) X(request_id) \
	X(has_back) X(back_url) X(has_rule_link) X(rule_url) \
	/* home.html */ \
	X(new_url) X(has_message) X(message) X(remind_hours) \
	X(create_code) X(invite) \
	X(has_standin) X(standin_text) X(can_standin) X(standin_url) \
	X(standin_label) X(standin_rule) X(standin_opt) X(standin_value) \
	X(standin_sel) X(standin_name) X(standin_days) X(has_standin_rule) \
	X(more_open) X(more_seat) X(more_no) X(more_name) X(more_email) \
	X(more_bot) X(seat_bot) \
	X(more_minutes) \
	X(first_opt) X(first_value) X(first_text) X(first_sel) \
	X(seat) X(seat_no) X(seat_name) X(seat_email) X(seat_minutes) \
	X(seat_hand) X(seat_class) X(seat_note) X(once) \
	/* created.html */ \
	X(link) X(link_name) X(link_url) X(link_note) X(first_name) \
	X(link_no) X(botseat) X(botseat_no) X(botseat_name) X(shown) \
	X(made_again) \
	/* table.html */ \
	X(round) X(rounds_max) X(turn_text) X(turn_class) \
	X(out_of_reach) X(reach_text) X(can_end) X(end_url) \
	X(has_ended) X(ended_text) \
	X(has_notice) X(notice) X(notice_class) \
	X(over) X(result_class) X(result_title) X(record_url) \
	X(effort) X(target) X(effort_w) X(effort_class) \
	X(officers) X(officers_max) X(pip) X(pip_class) \
	X(leisure) X(goal) X(leisure_w) \
	X(has_risk) X(risk_pct) X(risk_detail) X(risk_class) X(effort_live) \
	X(my_turn) X(turn_forms) X(sweeping) X(sweep_cards) X(sweep_form) \
	X(you_name) X(you_seat) X(hand) X(has_hand) \
	X(duty) X(has_duty) X(sides) X(has_sides) X(stack) X(has_stack) \
	X(row) X(has_row) X(known) X(has_known) X(bottom) X(has_bottom) \
	X(deck_assignment) X(deck_shift) X(deck_side) X(deck_ability) \
	X(discard) X(set_aside) \
	X(move) X(move_text) X(move_class) X(has_moves) X(table_url) \
	X(live) X(live_tag) \
	/* card.html */ \
	X(card_class) X(card_id) X(card_name) X(card_type) \
	X(has_target) X(card_target) X(has_leisure) X(card_leisure) \
	X(has_effort) X(card_effort) X(has_officers) X(card_officers) \
	X(has_text) X(card_text) X(card_form) X(card_meaning) \
	X(card_rules_url) \
	/* form.html */ \
	X(form_url) X(csrf) X(seq) X(action) X(has_card) X(card) \
	X(choices) X(form_label) X(form_class) X(has_note) X(form_note) \
	/* select.html */ \
	X(sel_label) X(sel_name) X(opt) X(opt_value) X(opt_text) X(opt_sel) \
	/* order.html: a Sensor Sweep's orders, one radio button each */ \
	X(ord) X(ord_value) X(ord_text) X(ord_checked) \
	/* settings.html (also has_notice, notice, csrf, table_url, you_*) */ \
	X(settings_url) X(settings_email) X(has_email) X(settings_feed) \
	X(notify_opt) X(notify_value) X(notify_text) X(notify_help) \
	X(notify_sel) X(hand_shown) X(show_hand) \
	/* unsub.html (also settings_url) */ \
	X(unsub_url) X(unsub_who) X(unsub_done) X(unsub_none) \
	/* block.html; settings.html has settings_blocked */ \
	X(block_url) X(block_address) X(block_done) X(block_already) \
	X(block_ask) X(settings_blocked) X(settings_noaddr) \
	/* games.html; home.html links to it */ \
	X(games_url) X(games_summary) X(has_games) X(mygame) X(mygame_url) \
	X(mygame_class) X(mygame_players) X(mygame_round) X(mygame_turn) \
	X(mygame_turn_class) X(mygame_status) X(mygame_you) \
	/* feed.xml */ \
	X(feed_id) X(feed_title) X(feed_subtitle) X(feed_updated) \
	X(feed_self) X(feed_alt) X(entry) X(entry_id) X(entry_title) \
	X(entry_updated) X(entry_author) X(entry_link) X(entry_content) \
	/* table.html: the life of a game (also settings_url, games_url, \
	 * csrf, seq) */ \
	X(at_view) X(at_text) X(watching) X(is_seat) X(hand_empty) \
	X(can_nudge) X(nudge_url) X(nudge_label) X(has_nudge_note) \
	X(can_take_back) X(take_back_url) X(take_back_note) \
	X(nudge_note) X(over_record) X(can_again) X(again_url) \
	X(again_label) X(talk) X(has_share) X(share_url) X(has_links) \
	X(history_url) X(shown_hands) \
	/* table.html: the review of a finished game (table_review.c) */ \
	X(has_review) X(review_pending) X(review_chart) X(review_table) \
	X(review_turns) \
	/* table.html: a finished game's crew (table_crew.c); games.html's \
	 * crew lines */ \
	X(has_crew) X(crew_summary) X(crew_chart) X(crew_list) \
	X(mygame_crew) \
	/* practice tables: home.html's box, table.html's note and hints */ \
	X(practice_checked) X(practice) X(has_form_hint) X(form_hint) \
	X(hints_pending) X(has_result_marks) X(result_marks) \
	/* table.html: what happened since the seat last looked \
	 * (table_since.c) with the newest talk line (table_talk.c); the \
	 * whole deal once over (table_deal.c, history.html too); which of \
	 * its crew's games it is */ \
	X(has_since) X(since_when) X(since_list) X(since_more) \
	X(since_more_text) X(has_talk_newest) X(talk_newest_who) \
	X(talk_newest_when) X(talk_newest_iso) X(talk_newest_text) X(talk_none) \
	X(has_deal) X(deal) X(has_game_noun) X(game_noun) \
	/* talk.html (also csrf, seq) */ \
	X(say_url) X(chat) X(chat_who) X(chat_when) X(chat_iso) \
	X(chat_text) X(chat_class) X(has_chat) X(chat_max) X(chat_shown) \
	/* history.html (also table_url, you_name, you_seat) */ \
	X(hist) X(hist_class) X(hist_no) X(hist_who) X(hist_text) \
	X(hist_url) X(hist_link) X(hist_when) X(hist_iso) X(has_hist) \
	X(hist_cut) X(hist_cut_text) X(hist_moves) X(start_url) \
	/* rules.html (also rules_url) */ \
	X(min_players) X(max_players) X(deck_size) X(set_aside_n) \
	X(deal_abilities) X(hand_sides) X(reprimand_at) \
	X(goal_row) X(goal_players) X(goal_value) \
	X(kind) X(kind_anchor) X(kind_name) X(kind_ids) X(kind_text) \
	X(sidecard) X(side_id) X(side_name) X(side_t) X(side_l) \
	X(asgcard) X(asg_id) X(asg_name) X(asg_t) X(asg_l) \
	X(shiftcard) X(shift_ids) X(shift_name) X(shift_icons) \
	/* signin.html; games.html and settings.html (signed-in browsers) */ \
	X(signin_url) X(signin_ask) X(signin_asked) X(signin_address) \
	X(signin_confirm) X(signin_key) X(signin_hours) X(signin_browsers) \
	X(signed_in) X(signed_in_as) X(signout_url) \
	X(browser) X(browser_id) X(browser_name) X(browser_since) \
	X(browser_seen) X(browser_this) X(has_browsers) X(browsers_none) \
	/* settings.html: turn notifications (settings_push.c) */ \
	X(push_url) X(push_key) X(push_devices) \
	X(hooks_on) X(has_hook) X(hook_words) X(hook_url) X(hook_signed) \
	X(hook_secret) X(hook_last) X(hook_tried)

#define WEB_KEY_ENUM(n) K_##n,
typedef enum web_key { WEB_KEYS(WEB_KEY_ENUM) K__MAX } web_key;
#undef WEB_KEY_ENUM

/* The key names, indexed by web_key (for tmpl_compile). */
extern const char *const web_key_names[K__MAX];

/* The templates: one file each in the templates folder. */
typedef enum web_tpl {
	TPL_LAYOUT,    /* the page around every page */
	TPL_ERROR,
	TPL_HOME,      /* the new-game form */
	TPL_CREATED,   /* every seat's link */
	TPL_TABLE,     /* a game from one seat */
	TPL_CARD,      /* one card, drawn */
	TPL_FORM,      /* one action form */
	TPL_SELECT,    /* one choice of a form */
	TPL_ORDER,     /* the orders a Sensor Sweep may leave */
	TPL_SETTINGS,  /* a seat's email setting and feed */
	TPL_UNSUB,     /* stop a seat's email (one-click) */
	TPL_GAMES,     /* every game this browser holds a seat in */
	TPL_FEED,      /* a seat's Atom feed (XML, escaped the same way) */
	TPL_TALK,      /* the table talk panel of a seat's table */
	TPL_HISTORY,   /* every action of a game in words */
	TPL_RULES,     /* how to play, from the engine's facts */
	TPL_BLOCK,     /* stop all email from this server to an address */
	TPL_CLOSED,    /* the home page where only the admin makes games */
	TPL_SIGNIN,    /* "Email me my games", and its link's button */
	TPL__MAX
} web_tpl;

/* File names, indexed by web_tpl ("layout.html"). */
extern const char *const web_tpl_files[TPL__MAX];

#endif
