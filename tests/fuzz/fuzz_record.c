/*
 * fuzz_record.c - libFuzzer harness for the record reader (rules/record.h).
 *
 * The input is record text.  It is replayed whole; every line is also
 * parsed alone as an action and as a stack line.  What parses must write
 * back to text that parses to the same text again, and a record that
 * replays must write out as text that replays to the same record: the
 * reader and the writer agree.  Work per input is bounded by the
 * reader's own limits (BT_RECORD_MAX_ITEMS, BT_RECORD_LINE_MAX).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"

enum { WRITE_MAX = 256 * 1024 };

static bt_replay first, second;
static char text1[WRITE_MAX], text2[WRITE_MAX];

/* An action line that parses formats to text that parses and formats the
 * same. */
static void action_round_trip(const char *s, size_t len)
{
	bt_action a, b;
	bt_error err;
	char t1[BT_ACTION_TEXT_MAX], t2[BT_ACTION_TEXT_MAX];
	int n1, n2;

	if (bt_action_parse(s, len, &a, &err))
		return;
	n1 = bt_action_format(&a, t1, sizeof t1);
	if (n1 < 0 || (size_t)n1 >= sizeof t1)
		abort();
	if (bt_action_parse(t1, (size_t)n1, &b, &err))
		abort();
	n2 = bt_action_format(&b, t2, sizeof t2);
	if (n2 != n1 || memcmp(t1, t2, (size_t)n1) != 0)
		abort();
}

static void stack_round_trip(const char *s, size_t len)
{
	bt_stack_line a, b;
	bt_error err;
	char t1[BT_RECORD_LINE_MAX + 1], t2[BT_RECORD_LINE_MAX + 1];
	int n1, n2;

	if (bt_stack_parse(s, len, &a, &err))
		return;
	n1 = bt_stack_format(&a, t1, sizeof t1);
	if (n1 < 0 || (size_t)n1 >= sizeof t1)
		abort();
	if (bt_stack_parse(t1, (size_t)n1, &b, &err))
		abort();
	n2 = bt_stack_format(&b, t2, sizeof t2);
	if (n2 != n1 || memcmp(t1, t2, (size_t)n1) != 0)
		abort();
}

static void each_line(const char *s, size_t len)
{
	size_t start = 0, i;

	for (i = 0; i <= len; i++) {
		if (i < len && s[i] != '\n')
			continue;
		if (i - start <= BT_RECORD_LINE_MAX) {
			action_round_trip(s + start, i - start);
			stack_round_trip(s + start, i - start);
		}
		start = i + 1;
	}
}

/* A replayed record written out replays again and writes the same. */
static void write_round_trip(void)
{
	bt_error err;
	size_t n1, n2;

	n1 = bt_record_write_buf(&first.rec, text1, sizeof text1);
	if (n1 == (size_t)-1 || n1 >= sizeof text1)
		abort();
	bt_replay_init(&second);
	if (bt_replay_text(&second, text1, n1, &err))
		abort();
	n2 = bt_record_write_buf(&second.rec, text2, sizeof text2);
	if (n2 != n1 || memcmp(text1, text2, n1) != 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	bt_error err;

	if (size > 512 * 1024)
		return 0;
	each_line(s, size);
	bt_replay_init(&first);
	if (bt_replay_text(&first, s, size, &err) == 0)
		write_round_trip();
	return 0;
}
