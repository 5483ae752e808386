/* test_launcher.c - launcher.c on shell launchers and Slurm scripts of the
 * forms real jobs use (arrays, defaults, arithmetic, continuations, env
 * prefixes, srun/torchrun/deepspeed/accelerate, decided and undecided
 * branches, here-documents), then on truncated and random bytes: no crash,
 * no leak (ASan, valgrind). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecg/launcher.h"
#include "ecg/util.h"
#include "tap.h"

static struct launch_list scan(const char *text)
{
	struct launch_list l = { 0 };

	launcher_scan(text, strlen(text), NULL, 0, 0, &l);
	return l;
}

/* The job's arguments joined by '|', unknown ones as {text}.  Owned. */
static char *args(const struct launch *L)
{
	buf_t b;
	size_t i;

	buf_init(&b);
	for (i = 0; i < L->argc; i++)
		buf_addf(&b, i ? (L->argv[i].known ? "|%s" : "|{%s}") : (L->argv[i].known ? "%s" : "{%s}"),
		         L->argv[i].text);
	return buf_detach(&b);
}

static int has_args(const struct launch *L, const char *want)
{
	char *a = args(L);
	int r = !strcmp(a, want);

	if (!r)
		diag("args: got '%s', want '%s'", a, want);
	free(a);
	return r;
}

static const char megatron[] =
	"#!/bin/bash\n"
	"\n"
	"# Runs the model\n"
	"export CUDA_DEVICE_MAX_CONNECTIONS=1\n"
	"GPUS_PER_NODE=8\n"
	"NUM_NODES=1\n"
	"WORLD_SIZE=$(($GPUS_PER_NODE*$NUM_NODES))\n"
	"CHECKPOINT_PATH=$1 #<Specify path>\n"
	"DISTRIBUTED_ARGS=(\n"
	"    --nproc_per_node $GPUS_PER_NODE \n"
	"    --nnodes $NUM_NODES \n"
	"    --master_addr localhost\n"
	")\n"
	"GPT_MODEL_ARGS=(\n"
	"    --num-layers 96 \n"
	"    --attention-backend auto # Can use (flash/fused/unfused/local)\n"
	"    --schedule \"0:16 2.4B:320\"\n"
	")\n"
	"EVAL=(\n"
	"\t--save $CHECKPOINT_PATH \n"
	"\t--world $WORLD_SIZE\n"
	")\n"
	"torchrun ${DISTRIBUTED_ARGS[@]} pretrain_gpt.py \\\n"
	"    ${GPT_MODEL_ARGS[@]} \\\n"
	"    ${EVAL[@]}\n";

static void test_megatron(void)
{
	struct launch_list l = scan(megatron);
	const struct launch *L = l.n == 1 ? &l.v[0] : NULL;

	ok(l.n == 1, "arrays + torchrun: one launch (%zu)", l.n);
	if (L) {
		ok(!strcmp(L->launcher, "torchrun") && L->script && !strcmp(L->script, "pretrain_gpt.py") && !L->module,
		   "  torchrun pretrain_gpt.py");
		ok(L->line == 23 && L->end_line == 25 && launch_at(&l, 24) == L && launch_at(&l, 0) == L &&
		   !launch_at(&l, 22), "  lines 23-25, found by any of them (%zu-%zu)", L->line, L->end_line);
		ok(has_args(L, "--num-layers|96|--attention-backend|auto|--schedule|0:16|2.4B:320|--save|{$CHECKPOINT_PATH}|--world|8"),
		   "  arrays expanded (unquoted: split, as bash does), comments dropped, $((A*B)) computed, $1 unknown (shown as used)");
		ok(L->world == 8 && L->nproc_per_node == 8 && L->nnodes == 1 && !L->condition,
		   "  world size 8 = 8 x 1 (%ld)", L->world);
	}
	launch_list_free(&l);
}

static const char titan[] =
	"#!/usr/bin/bash\n"
	"set -ex\n"
	"NGPU=${NGPU:-\"8\"}\n"
	"export LOG_RANK=${LOG_RANK:-0}\n"
	"MODULE=${MODULE:-\"llama3\"}\n"
	"CONFIG=${CONFIG:-\"llama3_debugmodel\"}\n"
	"COMM_MODE=${COMM_MODE:-\"\"}\n"
	"if [ -n \"$COMM_MODE\" ]; then\n"
	"    NGPU=\"${NGPU}\" LOCAL_RANK=0 python3 -m torchtitan.train --module ${MODULE} \"$@\" --comm.mode=${COMM_MODE}\n"
	"else\n"
	"    PYTORCH_ALLOC_CONF=\"expandable_segments:True\" \\\n"
	"    torchrun --nproc_per_node=${NGPU} --rdzv_backend c10d --rdzv_endpoint=\"localhost:0\" \\\n"
	"    --local-ranks-filter ${LOG_RANK} --role rank --tee 3 \\\n"
	"    -m torchtitan.train --module ${MODULE} --config ${CONFIG} \"$@\"\n"
	"fi\n";

static void test_titan(void)
{
	struct launch_list l = scan(titan);
	const struct launch *L = l.n == 1 ? &l.v[0] : NULL;
	const char *pos[] = { "--training.steps", "10" };

	ok(l.n == 1, "defaults ${V:-x} decide `if [ -n ... ]`: only the else branch launches (%zu)", l.n);
	if (L) {
		ok(!strcmp(L->launcher, "torchrun") && L->module && !strcmp(L->module, "torchtitan.train") && !L->script,
		   "  torchrun -m torchtitan.train, past unknown options with values");
		ok(has_args(L, "--module|llama3|--config|llama3_debugmodel"), "  \"$@\" is empty when nobody gave arguments");
		ok(L->world == 8 && !L->condition, "  world size 8 from --nproc_per_node=${NGPU:-8} (%ld)", L->world);
	}
	launch_list_free(&l);

	launcher_scan(titan, strlen(titan), pos, 2, 1, &l);
	ok(l.n == 1 && has_args(&l.v[0], "--module|llama3|--config|llama3_debugmodel|--training.steps|10"),
	   "  the launcher's own arguments fill \"$@\"");
	launch_list_free(&l);
}

static void test_slurm(void)
{
	struct launch_list l = scan("#!/bin/bash\n"
	                            "#SBATCH --job-name=x\n"
	                            "#SBATCH --nodes=4\n"
	                            "#SBATCH --ntasks-per-node=8\n"
	                            "head=$(scontrol show hostnames $SLURM_JOB_NODELIST | head -n1)\n"
	                            "srun torchrun --nnodes 4 --nproc_per_node 8 --rdzv_endpoint \"$head:29500\" "
	                            "-m torchtitan.train --config x\n"
	                            "srun --ntasks=16 python3 -u train.py --lr 0.1\n"
	                            "srun python3 train2.py\n"
	                            "srun -N 2 --ntasks-per-node 4 python main.py\n");

	ok(l.n == 4, "slurm: four launches (%zu)", l.n);
	if (l.n == 4) {
		ok(l.v[0].world == 32 && !strcmp(l.v[0].wrapper, "srun") && !strcmp(l.v[0].module, "torchtitan.train"),
		   "  srun torchrun --nnodes 4 --nproc_per_node 8: 32 (%ld)", l.v[0].world);
		ok(l.v[1].world == 16 && has_args(&l.v[1], "--lr|0.1") && !strcmp(l.v[1].script, "train.py"),
		   "  srun --ntasks=16 python3 -u train.py: 16, python's -u skipped (%ld)", l.v[1].world);
		ok(l.v[2].world == 32, "  srun python: #SBATCH --nodes x --ntasks-per-node = 32 (%ld)", l.v[2].world);
		ok(l.v[3].world == 8, "  srun -N 2 --ntasks-per-node 4: 8 (%ld)", l.v[3].world);
	}
	launch_list_free(&l);
}

static void test_launchers(void)
{
	struct launch_list l = scan("deepspeed train.py --deepspeed_config ds.json\n"
	                            "deepspeed --num_gpus 4 --num_nodes 2 train.py\n"
	                            "accelerate launch --multi_gpu --num_processes 4 train.py --bs 8\n"
	                            "accelerate launch train.py\n"
	                            "python -m torch.distributed.launch --nproc_per_node=2 --use_env main.py --lr 1\n"
	                            "torchrun --standalone --nproc_per_node=gpu train.py\n"
	                            "CUDA_VISIBLE_DEVICES=0 nohup python train.py --batch 4 > log.txt 2>&1 &\n"
	                            "composer -n 8 train.py\n"
	                            "python -c 'import torch'\n"
	                            "python -m pip install -r requirements.txt\n"
	                            "torchrun --nnodes=1:4 --nproc_per_node=8 train.py\n"
	                            "uv run python sample.py --n 3\n");
	const struct launch *v = l.v;

	ok(l.n == 11, "eleven launches; python -c is not one (%zu)", l.n);
	if (l.n == 11) {
		ok(v[0].world == -1 && v[0].world_reason && strstr(v[0].world_reason, "GPU"),
		   "  deepspeed without --num_gpus: not known (%s)", v[0].world_reason ? v[0].world_reason : "");
		ok(v[1].world == 8, "  deepspeed --num_gpus 4 --num_nodes 2: 8 (%ld)", v[1].world);
		ok(v[2].world == 4 && has_args(&v[2], "--bs|8") && !strcmp(v[2].launcher, "accelerate"),
		   "  accelerate launch --num_processes 4: 4, a flag before the script");
		ok(v[3].world == -1 && v[3].world_reason && strstr(v[3].world_reason, "config"),
		   "  accelerate launch alone: from its config file, not known");
		ok(!strcmp(v[4].launcher, "torch.distributed.launch") && v[4].world == 2 && has_args(&v[4], "--lr|1"),
		   "  python -m torch.distributed.launch --nproc_per_node=2 --use_env: 2");
		ok(v[5].world == -1 && v[5].world_reason && strstr(v[5].world_reason, "gpu"),
		   "  --nproc_per_node=gpu: the machine's (%s)", v[5].world_reason ? v[5].world_reason : "");
		ok(v[6].world == 1 && has_args(&v[6], "--batch|4") && !strcmp(v[6].script, "train.py"),
		   "  env prefix, nohup, redirections and & are not arguments; one process");
		ok(v[7].world == 8 && !strcmp(v[7].launcher, "composer"), "  composer -n 8: 8");
		ok(v[8].module && !strcmp(v[8].module, "pip"), "  python -m pip is a launch of a module (jobs drops it: not in the repo)");
		ok(v[9].world == -1, "  --nnodes=1:4 (elastic): not known (%ld)", v[9].world);
		ok(v[10].script && !strcmp(v[10].script, "sample.py") && has_args(&v[10], "--n|3"), "  uv run python");
	}
	launch_list_free(&l);
}

static void test_branches(void)
{
	struct launch_list l = scan("MODE=${MODE:-train}\n"
	                            "if [ \"$MODE\" = \"debug\" ]; then\n"
	                            "  python debug.py\n"
	                            "elif [[ $MODE == train ]]; then\n"
	                            "  python train.py\n"
	                            "else\n"
	                            "  python other.py\n"
	                            "fi\n"
	                            "if [ -f ckpt.pt ]; then python resume.py; fi\n"
	                            "[ -z \"$MODE\" ] && python empty.py\n"
	                            "[ -n \"$MODE\" ] && python nonempty.py\n"
	                            "for seed in 1 2 3; do\n"
	                            "  python sweep.py --seed $seed\n"
	                            "done\n"
	                            "cat > cfg.sh <<EOF\n"
	                            "python heredoc.py\n"
	                            "EOF\n"
	                            "N=2\n"
	                            "if [ $N -gt 1 ]; then torchrun --nproc_per_node $N multi.py; else python single.py; fi\n"
	                            "exit 0\n"
	                            "python after_exit.py\n");
	size_t i;
	buf_t b;

	buf_init(&b);
	for (i = 0; i < l.n; i++)
		buf_addf(&b, "%s%s%s", i ? " " : "", l.v[i].script ? l.v[i].script : "?", l.v[i].condition ? "*" : "");
	ok(!strcmp(b.buf, "train.py resume.py* nonempty.py sweep.py* multi.py"),
	   "decided branches start nothing, undecided ones keep a condition (*): %s", b.buf);
	for (i = 0; i < l.n; i++) {
		if (l.v[i].script && !strcmp(l.v[i].script, "resume.py"))
			ok(l.v[i].condition && strstr(l.v[i].condition, "-f ckpt.pt"), "  the condition is the test: %s",
			   l.v[i].condition ? l.v[i].condition : "");
		if (l.v[i].script && !strcmp(l.v[i].script, "sweep.py"))
			ok(!l.v[i].argv[1].known, "  a loop variable is not known");
		if (l.v[i].script && !strcmp(l.v[i].script, "multi.py"))
			ok(l.v[i].world == 2, "  the decided branch's torchrun: 2");
	}
	buf_free(&b);
	launch_list_free(&l);
}

/* Bytes that are not a launcher: nothing may break. */
static void test_garbage(void)
{
	static const char *const bad[] = {
		"python \"unterminated\n", "X=${Y:-${Z:-${W:-\n", "A=(a b\n", "echo $((1/0))\n", "echo $(( (((((\n",
		"if [ x ]; then\nif\nfi\nfi\nfi\nfi\n", "cat <<\n", "cat <<'E'\npython a.py\n", "}}}}))))\n",
		"torchrun\n", "torchrun --nproc_per_node\n", "srun\n", "python -m\n", "A[0]=1 python x.py\n",
		"echo ${#}\n", "echo ${!x}\n", "X=1; X+=2; python ${X}.py\n", "f() { python inner.py; }\nf\n",
		"case $x in a) python a.py;; esac\n", "echo `python b.py`\n", "$(python c.py)\n",
	};
	unsigned long seed = 12345;
	size_t i, j, k, n = 0;
	struct launch_list l = { 0 };

	for (i = 0; i < sizeof bad / sizeof *bad; i++) {
		launcher_scan(bad[i], strlen(bad[i]), NULL, 0, 0, &l);
		n++;
	}
	launch_list_free(&l);
	/* every prefix of the real-shaped scripts */
	for (k = 0; k < 3; k++) {
		const char *t = k == 0 ? megatron : titan;
		size_t len = strlen(t);

		for (j = 0; j <= len; j++) {
			launcher_scan(t, j, NULL, 0, 0, &l);
			launch_list_free(&l);
			n++;
		}
	}
	/* random bytes from the shell's alphabet */
	for (i = 0; i < 3000; i++) {
		static const char alpha[] = "$\"'`\\(){}[]<>|&;#=-:+* \n\tpythontorchrunsrun{@}0123456789ABif fi then else";
		char buf[96];
		size_t len = (size_t)(seed % sizeof buf);

		for (j = 0; j < len; j++) {
			seed = seed * 6364136223846793005UL + 1442695040888963407UL;
			buf[j] = alpha[(seed >> 33) % (sizeof alpha - 1)];
		}
		seed = seed * 6364136223846793005UL + 1442695040888963407UL;
		launcher_scan(buf, len, NULL, 0, 0, &l);
		launch_list_free(&l);
		n++;
	}
	ok(1, "%zu broken, truncated and random inputs read without a crash", n);
	/* one of them says what a function body is */
	launcher_scan(bad[17], strlen(bad[17]), NULL, 0, 0, &l);
	ok(l.n == 1 && l.v[0].condition && strstr(l.v[0].condition, "function f"),
	   "  a launch in a function body carries that condition");
	launch_list_free(&l);
}

int main(void)
{
	test_megatron();
	test_titan();
	test_slurm();
	test_launchers();
	test_branches();
	test_garbage();
	return done();
}
