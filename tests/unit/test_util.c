/* test_util.c - buf_t, x* allocation helpers, err state. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ecg/err.h"
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

	ok(err_set(ECG_EXIT_INPUT, "bad %s", "thing") == -1, "err_set returns -1");
	ok(err_prefix("reading %s", "x.py") == -1, "err_prefix returns -1");
	ok(!strcmp(err_last(), "reading x.py: bad thing"), "context goes in front: '%s'", err_last());
	ok(err_code() == ECG_EXIT_INPUT, "the exit class is kept");
	err_clear();
	ok(err_last()[0] == 0 && err_code() == ECG_EXIT_INTERNAL, "err_clear");
	return done();
}
