/* replay.c - runs a libFuzzer target's corpus without libFuzzer, as a TAP
 * test: every file in the corpus directories (default: the committed one,
 * FUZZ_CORPUS below) is one input, in name order.  A crash or a sanitizer
 * report ends the run; reaching the end is a pass.
 *
 *   replay_extract [DIR|FILE]...
 */
#include "config.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecg/util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
void fuzz_fini(void);

static int tap_n;

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_file(const char *path)
{
	FILE *fp = fopen(path, "rb");
	buf_t b;
	char chunk[65536];
	size_t n;

	if (!fp) {
		printf("not ok %d - %s: cannot open\n", ++tap_n, path);
		return 1;
	}
	buf_init(&b);
	while ((n = fread(chunk, 1, sizeof chunk, fp)) > 0)
		buf_add(&b, chunk, n);
	fclose(fp);
	LLVMFuzzerTestOneInput((const uint8_t *)(b.buf ? b.buf : ""), b.len);
	buf_free(&b);
	printf("ok %d - %s\n", ++tap_n, path);
	fflush(stdout);
	return 0;
}

static int run_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, alloc = 0, i;
	int bad = 0;

	if (!d)
		return run_file(dir);
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		xgrow((void **)&names, &alloc, n + 1, sizeof *names);
		names[n++] = xasprintf("%s/%s", dir, de->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof *names, cmp_str);
	for (i = 0; i < n; i++) {
		bad |= run_file(names[i]);
		free(names[i]);
	}
	free(names);
	return bad;
}

int main(int argc, char **argv)
{
	int i, bad = 0;

	LLVMFuzzerInitialize(&argc, &argv);
	if (argc < 2)
		bad |= run_dir(FUZZ_CORPUS);
	for (i = 1; i < argc; i++)
		bad |= run_dir(argv[i]);
	fuzz_fini();
	printf("1..%d\n", tap_n);
	return bad;
}
