/* test_util.c - buf_t, x* allocation helpers, err state, the string map. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecg/err.h"
#include "ecg/strmap.h"
#include "ecg/util.h"
#include "tap.h"

int main(void)
{
	buf_t b;
	char *s;
	int i, *arr = NULL;
	size_t alloc = 0;

	buf_init(&b);
	ok(b.buf && b.len == 0 && b.buf[0] == 0, "a new buffer is an empty C string");
	for (i = 0; i < 1000; i++)
		buf_addf(&b, "%d,", i);
	ok(b.len == strlen(b.buf), "len follows the text through growth");
	ok(!strncmp(b.buf, "0,1,2,", 6) && !strcmp(b.buf + b.len - 4, "999,"), "formatted appends keep order");
	buf_reset(&b);
	ok(b.len == 0 && b.buf[0] == 0, "reset empties");
	buf_add(&b, "a\0b", 3);
	ok(b.len == 3 && b.buf[1] == 0 && b.buf[3] == 0, "binary data is kept, still NUL-terminated");
	s = buf_detach(&b);
	ok(s[0] == 'a' && b.len == 0 && b.buf == NULL, "detach hands the string over and releases the buffer");
	free(s);
	buf_free(&b);
	buf_init(&b);
	buf_addstr(&b, "again");
	ok(!strcmp(b.buf, "again"), "a detached buffer can be initialised again");
	buf_free(&b);

	s = xasprintf("%s-%03d", "x", 7);
	ok(!strcmp(s, "x-007"), "xasprintf");
	free(s);
	s = xstrndup("abcdef", 3);
	ok(!strcmp(s, "abc"), "xstrndup cuts");
	free(s);

	xgrow((void **)&arr, &alloc, 100, sizeof *arr);
	ok(alloc >= 100, "xgrow reaches the size asked for");
	arr[99] = 1;
	free(arr);

	/* vis(): controls visible, UTF-8 kept */
	{
		const char *plain = "model.py:Block.forward:3 \xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80 a\\b";
		const char *cases[][2] = {
			{ "\x1b]0;t\x07", "\\x1b]0;t\\x07" },
			{ "a\nb\rc\td", "a\\nb\\rc\\td" },
			{ "\x7f\x01", "\\x7f\\x01" },
			{ "\xc2\x9b" "2J", "\\xc2\\x9b" "2J" },      /* C1 CSI in UTF-8 */
			{ "\xc2\xa0", "\xc2\xa0" },              /* U+00A0 is text */
			{ "\x9b\xff\xc3", "\\x9b\\xff\\xc3" },  /* not UTF-8 */
			{ "\xc0\xaf\xed\xa0\x80", "\\xc0\\xaf\\xed\\xa0\\x80" },  /* overlong, surrogate */
			{ "\xe2\x82", "\\xe2\\x82" },          /* cut short */
		};
		size_t k;

		ok(vis(plain) == plain, "vis: plain text and UTF-8 come back as they are");
		ok(vis(NULL) == NULL, "vis: NULL stays NULL");
		for (k = 0; k < sizeof cases / sizeof cases[0]; k++)
			ok(!strcmp(vis(cases[k][0]), cases[k][1]), "vis: case %zu gives '%s'", k, vis(cases[k][0]));
		buf_init(&b);
		buf_addvis(&b, "x\x1b");
		buf_addvis(&b, "\n");
		ok(!strcmp(b.buf, "x\\x1b\\n"), "buf_addvis appends");
		buf_free(&b);
	}

	ok(err_set(ECG_EXIT_INPUT, "bad %s", "thing") == -1, "err_set returns -1");
	ok(err_prefix("reading %s", "x.py") == -1, "err_prefix returns -1");
	ok(!strcmp(err_last(), "reading x.py: bad thing"), "context goes in front: '%s'", err_last());
	ok(err_code() == ECG_EXIT_INPUT, "the exit class is kept");
	err_clear();
	ok(err_last()[0] == 0 && err_code() == ECG_EXIT_INTERNAL, "err_clear");
	{
		/* strmap: keys by content, n-byte keys (strpool's interning) */
		struct strmap m = { 0 };
		static char keys[200][8];
		struct strmap_slot *k;
		int added, all = 1;

		for (i = 0; i < 200; i++) {
			snprintf(keys[i], sizeof keys[i], "k%d", i);
			k = strmap_put(&m, keys[i], &added);
			k->a = i;
			if (!added)
				all = 0;
		}
		for (i = 0; i < 200; i++) {
			char other[8];

			snprintf(other, sizeof other, "k%d", i);
			k = strmap_get(&m, other);
			if (!k || k->key != keys[i] || k->a != i)
				all = 0;
		}
		ok(all && m.n == 200 && !strmap_get(&m, "k200"), "strmap: 200 keys put and found again by content");
		k = strmap_getn(&m, "k12-and-more", 3);
		ok(k && k->key == keys[12], "strmap_getn: the first n bytes are the key");
		ok(!strmap_getn(&m, "k1", 1) && strmap_getn(&m, "k1", 2)->key == keys[1], "strmap_getn: a prefix of a key is another key");
		k = strmap_putn(&m, "k7xyz", 2, &added);
		ok(!added && k->key == keys[7], "strmap_putn: an n-byte key already there");
		k = strmap_putn(&m, "zzz-tail", 3, &added);
		ok(added && k->key && !strncmp(k->key, "zzz", 3), "strmap_putn: a new slot points at the caller's bytes");
		k->key = "zzz";
		ok(strmap_get(&m, "zzz") && !strmap_getn(&m, "zzzz", 4), "strmap_putn: found by the copy the caller set");
		strmap_free(&m);
		ok(m.n == 0 && !strmap_get(&m, "k1"), "strmap_free empties");
	}
	{
		/* ptrmap: keys by address only */
		struct ptrmap m = { 0 };
		static int objs[300];
		static char same_text[2][4] = { "abc", "abc" };
		struct ptrmap_slot *k;
		int added, all = 1;

		for (i = 0; i < 300; i++) {
			k = ptrmap_put(&m, &objs[i], &added);
			if (!added || k->ptr || k->a)
				all = 0;
			k->a = i;
		}
		for (i = 0; i < 300; i++)
			if (!(k = ptrmap_get(&m, &objs[i])) || k->a != i || k->key != &objs[i])
				all = 0;
		k = ptrmap_put(&m, &objs[5], &added);
		ok(all && m.n == 300 && !added && k->a == 5, "ptrmap: 300 addresses put, found again, put again");
		ptrmap_put(&m, same_text[0], NULL)->a = 1;
		ok(!ptrmap_get(&m, same_text[1]) && ptrmap_get(&m, same_text[0])->a == 1,
		   "ptrmap: the same bytes at another address are another key");
		ptrmap_free(&m);
		ok(m.n == 0 && !ptrmap_get(&m, &objs[0]), "ptrmap_free empties");
	}
	return done();
}
