/* fuzz_records.c - a libFuzzer target: arbitrary records fed to the
 * commands that read records, `ecg show` (tree, --top, --schedule,
 * --depth/--width), `ecg check` (text and --json, against a small
 * repository made once at start-up) and `ecg attribute` (text and --json).
 *
 * An input is the computation graph's JSON, then optionally a line
 * "#%% schedule" and the execution schedule's JSON, then optionally a line
 * "#%% trace" and a profiler trace (default: a small one, below, whose
 * frames point at the start-up repository's model.py).  They are written
 * to a scratch directory (the commands read files); the output goes to
 * /dev/null.  Any crash, sanitizer report or leak is a finding; an input
 * the commands refuse (not JSON, no records) is not.
 */
#include "config.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <git2.h>
#include <Python.h>

#include "ecg/ast.h"
#include "ecg/cmd.h"
#include "ecg/emit.h"
#include "ecg/err.h"
#include "ecg/helpers.h"
#include "ecg/pyrt.h"
#include "ecg/util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
void fuzz_fini(void);

static char scratch[256];      /* holds repo/ and rec/ */
static char repo_dir[300], rec_dir[300];
static int ready;

/* A repository with one commit of model.py (fixed author and date). */
static int make_repo(void)
{
	static const char model[] = "import torch.nn as nn\n\n\nclass Block(nn.Module):\n"
	                            "    def forward(self, x):\n        return x\n";
	git_repository *repo = NULL;
	git_index *idx = NULL;
	git_oid blob, tree_id, commit;
	git_tree *tree = NULL;
	git_signature *sig = NULL;
	git_index_entry e;
	int rc = -1;

	if (git_repository_init(&repo, repo_dir, 0) < 0 || git_repository_index(&idx, repo) < 0 ||
	    git_blob_create_from_buffer(&blob, repo, model, sizeof model - 1) < 0)
		goto out;
	memset(&e, 0, sizeof e);
	e.path = "model.py";
	e.mode = GIT_FILEMODE_BLOB;
	e.id = blob;
	if (git_index_add(idx, &e) < 0 || git_index_write_tree(&tree_id, idx) < 0 ||
	    git_tree_lookup(&tree, repo, &tree_id) < 0 ||
	    git_signature_new(&sig, "fuzz", "fuzz@ecg.invalid", 1704067200, 0) < 0 ||
	    git_commit_create_v(&commit, repo, "HEAD", sig, sig, NULL, "fuzz", tree, 0) < 0)
		goto out;
	rc = 0;
out:
	git_signature_free(sig);
	git_tree_free(tree);
	git_index_free(idx);
	git_repository_free(repo);
	return rc;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char *helpers;
	const char *tmp = getenv("TMPDIR");

	(void)argc;
	(void)argv;
	emit_init();
	snprintf(scratch, sizeof scratch, "%s/ecg-fuzz-records-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(scratch)) {
		perror("fuzz_records: mkdtemp");
		abort();
	}
	snprintf(repo_dir, sizeof repo_dir, "%s/repo", scratch);
	snprintf(rec_dir, sizeof rec_dir, "%s/rec", scratch);
	git_libgit2_init();
	helpers = helpers_find(ECG_SRCDIR "/pyhelpers");
	if (!helpers || make_repo() < 0 || mkdir(rec_dir, 0700) < 0 || pyrt_init(helpers) < 0) {
		fprintf(stderr, "fuzz_records: cannot start: %s\n", err_last());
		abort();
	}
	free(helpers);
	ready = 1;
	return 0;
}

static void rm_rf(const char *path)
{
	char *cmd = xasprintf("rm -rf '%s'", path);

	if (system(cmd) != 0)
		fprintf(stderr, "fuzz_records: could not remove %s\n", path);
	free(cmd);
}

void fuzz_fini(void)
{
	if (!ready)
		return;
	astconv_fini();
	pyrt_fini();
	git_libgit2_shutdown();
	rm_rf(scratch);
	ready = 0;
}

/* A trace with a forward frame, a module, ops with kernels, a backward op
 * linked by sequence number, a sync and an idle gap. */
static const char default_trace[] =
	"{\"traceEvents\":[\n"
	"{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#0\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":500},\n"
	"{\"ph\":\"X\",\"cat\":\"python_function\",\"name\":\"nn.Module: Block_0\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":100},\n"
	"{\"ph\":\"X\",\"cat\":\"python_function\",\"name\":\"/a/b/model.py(5): forward\",\"pid\":1,\"tid\":1,\"ts\":2,\"dur\":98},\n"
	"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::linear\",\"pid\":1,\"tid\":1,\"ts\":3,\"dur\":20,"
	"\"args\":{\"External id\":1,\"Sequence number\":7}},\n"
	"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":4,\"dur\":5,"
	"\"args\":{\"External id\":1,\"correlation\":11}},\n"
	"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"gemm\",\"pid\":0,\"tid\":7,\"ts\":10,\"dur\":30,"
	"\"args\":{\"External id\":1,\"correlation\":11,\"stream\":7}},\n"
	"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::item\",\"pid\":1,\"tid\":1,\"ts\":120,\"dur\":60},\n"
	"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaStreamSynchronize\",\"pid\":1,\"tid\":1,\"ts\":125,\"dur\":50},\n"
	"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"autograd::engine::evaluate_function: AddmmBackward0\",\"pid\":1,"
	"\"tid\":2,\"ts\":200,\"dur\":50,\"args\":{\"Sequence number\":7,\"Fwd thread id\":1}},\n"
	"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":2,\"ts\":210,\"dur\":5,"
	"\"args\":{\"correlation\":12}},\n"
	"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"gemm_bwd\",\"pid\":0,\"tid\":7,\"ts\":300,\"dur\":30,"
	"\"args\":{\"correlation\":12}},\n"
	"{\"ph\":\"s\",\"cat\":\"ac2g\",\"name\":\"ac2g\",\"id\":12,\"pid\":1,\"tid\":2,\"ts\":210}\n"
	"]}\n";

static void write_file(const char *dir, const char *name, const char *data, size_t n)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *fp = fopen(path, "wb");

	if (!fp) {
		perror(path);
		abort();
	}
	if (n && fwrite(data, 1, n, fp) != n)
		abort();
	fclose(fp);
	free(path);
}

static void run(int (*cmd)(int, char **), const char *const *args)
{
	char *argv[16];
	int argc = 0;

	while (args[argc] && argc < 15) {
		argv[argc] = (char *)args[argc];
		argc++;
	}
	argv[argc] = NULL;
	(void)cmd(argc, argv);
	err_clear();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *d = (const char *)data, *sep = NULL, *tsep = NULL, *end = d + size;
	size_t i;
	int saved, devnull;
	char *trace_path;

	if (!ready)
		LLVMFuzzerInitialize(NULL, NULL);
	for (i = 0; i + 10 <= size; i++) {
		if (i && d[i - 1] != '\n')
			continue;
		if (!sep && !tsep && i + 13 <= size && !memcmp(d + i, "#%% schedule\n", 13))
			sep = d + i;
		else if (!tsep && !memcmp(d + i, "#%% trace\n", 10))
			tsep = d + i;
	}
	write_file(rec_dir, "computation_graph.json", d, (size_t)((sep ? sep : tsep ? tsep : end) - d));
	if (sep)
		write_file(rec_dir, "execution_schedule.json", sep + 13, (size_t)((tsep ? tsep : end) - sep - 13));
	else
		write_file(rec_dir, "execution_schedule.json", "{}", 2);
	if (tsep)
		write_file(rec_dir, "trace.json", tsep + 10, (size_t)(end - tsep - 10));
	else
		write_file(rec_dir, "trace.json", default_trace, sizeof default_trace - 1);
	trace_path = xasprintf("%s/trace.json", rec_dir);

	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	devnull = open("/dev/null", O_WRONLY);
	if (saved < 0 || devnull < 0 || dup2(devnull, STDOUT_FILENO) < 0)
		abort();
	{
		const char *const show1[] = { "show", "--records", rec_dir, NULL };
		const char *const show2[] = { "show", "--records", rec_dir, "--top", "7", NULL };
		const char *const show3[] = { "show", "--records", rec_dir, "--schedule", NULL };
		const char *const show4[] = { "show", "--records", rec_dir, "--depth", "1", "--width", "40", NULL };
		const char *const check1[] = { "check", "--repo", repo_dir, "--out", rec_dir,
		                               "--helpers-dir", ECG_SRCDIR "/pyhelpers", NULL };
		const char *const check2[] = { "check", "--repo", repo_dir, "--out", rec_dir, "--json",
		                               "--helpers-dir", ECG_SRCDIR "/pyhelpers", NULL };

		run(cmd_show, show1);
		run(cmd_show, show2);
		run(cmd_show, show3);
		run(cmd_show, show4);
		const char *const attr1[] = { "attribute", "--records", rec_dir, trace_path, NULL };
		const char *const attr2[] = { "attribute", "--records", rec_dir, "--json", "--min-gap", "0",
		                              trace_path, NULL };

		run(cmd_check, check1);
		run(cmd_check, check2);
		run(cmd_attribute, attr1);
		run(cmd_attribute, attr2);
	}
	free(trace_path);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	close(devnull);
	if (PyErr_Occurred()) {
		PyErr_Print();
		abort();
	}
	return 0;
}
