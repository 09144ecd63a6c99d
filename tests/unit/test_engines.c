// SPDX-License-Identifier: MIT
/* Every IO engine driven end to end on a scratch file by a small stand-in for the worker. */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <setjmp.h>
#include <cmocka.h>

#include "iowl/engine.h"

#define BLK 4096u
#define FILE_SIZE (1u << 20) /* 256 blocks: depth 16 shuffled over them as over 1024 */
#define NBLK (FILE_SIZE / BLK)
#define MAX_DEPTH 32u
#define SCRATCH_DIR "/var/tmp"	/* IOWL_SCRATCH_DIR overrides; tmpfs may refuse O_DIRECT */

/* What one test case runs: an engine and its settings. */
struct engine_case {
	const char *engine;
	bool direct;
	bool fixedbufs;
	bool registerfiles;
	bool sqpoll;
	bool hipri;
};

enum expect {
	EXPECT_NONE,
	EXPECT_PATTERN,	/* the block holds the pattern for its offset and the seed */
	EXPECT_ZERO,	/* the block was punched */
};

/* One IO the driver issues, and what came back. */
struct req {
	uint8_t op;
	uint8_t expect;
	uint32_t file;
	uint64_t offset;
	uint32_t len;
	int32_t res;
	bool bad_data;
	bool done;
};

/* The engine with everything the worker would normally give it, on an unlinked scratch file. */
struct rig {
	const struct engine_case *c;
	struct engine e;
	struct target_file files[2];
	struct io_u ios[MAX_DEPTH];
	void *bufs;
	int fd;			/* what the engine uses: buffered or O_DIRECT */
	int plain_fd;		/* buffered, to check the file behind the engine's back */
	int wronly_fd;		/* for the error path */
	uint64_t seed;
	unsigned busy;		/* ENGINE_BUSY answers seen */
	bool ready;		/* init() succeeded and cleanup() is due */
};

/* ---- scratch file and engine set-up ---- */

static const char *scratch_dir(void)
{
	const char *dir = getenv("IOWL_SCRATCH_DIR");

	return dir && *dir ? dir : SCRATCH_DIR;
}

static int rig_open_scratch(struct rig *r)
{
	char path[4096];
	int ret;

	snprintf(path, sizeof(path), "%s/iowl-test-engines-XXXXXX", scratch_dir());
	r->plain_fd = mkstemp(path);
	if (r->plain_fd < 0)
		return -errno;
	if (ftruncate(r->plain_fd, FILE_SIZE) < 0)
		goto out_unlink;
	r->wronly_fd = open(path, O_WRONLY);
	if (r->wronly_fd < 0)
		goto out_unlink;
	r->fd = r->c->direct ? open(path, O_RDWR | O_DIRECT) : dup(r->plain_fd);
	if (r->fd < 0)
		goto out_unlink;
	/* unlinked at once: nothing is left behind, whatever happens to the test */
	unlink(path);
	return 0;

out_unlink:
	ret = -errno;
	unlink(path);
	return ret;
}

static int rig_setup(void **state)
{
	struct rig *r = calloc(1, sizeof(*r));
	int ret;

	assert_non_null(r);
	r->c = *state;
	r->plain_fd = r->wronly_fd = r->fd = -1;
	*state = r;
	ret = rig_open_scratch(r);
	if (ret == -EINVAL && r->c->direct) {
		print_message("skipping: %s does not support O_DIRECT\n", scratch_dir());
		return 0;
	}
	assert_int_equal(ret, 0);
	assert_int_equal(posix_memalign(&r->bufs, 4096, (size_t)MAX_DEPTH * BLK), 0);
	return 0;
}

static int rig_teardown(void **state)
{
	struct rig *r = *state;

	if (r->ready)
		r->e.ops->cleanup(&r->e);
	if (r->fd >= 0)
		close(r->fd);
	if (r->wronly_fd >= 0)
		close(r->wronly_fd);
	if (r->plain_fd >= 0)
		close(r->plain_fd);
	free(r->bufs);
	free(r);
	return 0;
}

static void rig_skip_if_unusable(struct rig *r)
{
	if (r->fd < 0)
		skip();
}

static void rig_params(struct rig *r)
{
	struct engine_params *p = &r->e.params;

	memset(p, 0, sizeof(*p));
	p->direct = r->c->direct;
	p->fixedbufs = r->c->fixedbufs;
	p->registerfiles = r->c->registerfiles;
	p->sqthread_poll = r->c->sqpoll;
	p->hipri = r->c->hipri;
	p->sqthread_poll_cpu = -1;
	p->batch_submit = 1;
	p->batch_complete_min = 1;
	p->batch_complete_max = 1;
}

/* Lays out ios, buffers and files as the worker does; file 1 is write-only. */
static void rig_layout(struct rig *r, unsigned depth)
{
	unsigned i;

	memset(&r->e, 0, sizeof(r->e));
	r->e.ops = engine_find(r->c->engine);
	assert_non_null(r->e.ops);
	rig_params(r);
	for (i = 0; i < 2; i++) {
		r->files[i] = (struct target_file){ .path = "scratch", .lbs = 512,
						    .real_size = FILE_SIZE, .size = FILE_SIZE };
		r->files[i].fd = i ? r->wronly_fd : r->fd;
	}
	memset(r->ios, 0, sizeof(r->ios));
	for (i = 0; i < depth; i++) {
		r->ios[i].index = (uint16_t)i;
		r->ios[i].buf = (char *)r->bufs + (size_t)i * BLK;
	}
	r->e.ios = r->ios;
	r->e.depth = depth;
	r->e.buf_base = r->bufs;
	r->e.buf_size = BLK;
	r->e.files = r->files;
	r->e.nfiles = 2;
}

static void rig_start(struct rig *r, unsigned depth)
{
	struct iowl_err err = { .text = "" };
	int ret;

	assert_true(depth <= MAX_DEPTH);
	rig_layout(r, depth);
	ret = r->e.ops->init(&r->e, &err);
	if (ret < 0)
		fail_msg("%s init: %s", r->c->engine, err.text);
	r->ready = true;
}

static void rig_stop(struct rig *r)
{
	r->e.ops->cleanup(&r->e);
	r->ready = false;
	assert_null(r->e.priv);
}

/* ---- data pattern ---- */

static uint64_t pattern_word(uint64_t seed, uint64_t offset, unsigned i)
{
	uint64_t x = (offset + i * 8u) ^ (seed * 0x9e3779b97f4a7c15ull);

	x ^= x >> 31;
	return x * 0xbf58476d1ce4e5b9ull;
}

static void pattern_fill(void *buf, uint64_t seed, uint64_t offset, uint32_t len)
{
	uint64_t *w = buf;
	unsigned i;

	for (i = 0; i < len / 8; i++)
		w[i] = pattern_word(seed, offset, i);
}

static bool pattern_check(const void *buf, uint64_t seed, uint64_t offset, uint32_t len,
			  enum expect ex)
{
	const uint64_t *w = buf;
	unsigned i;

	for (i = 0; i < len / 8; i++)
		if (w[i] != (ex == EXPECT_ZERO ? 0 : pattern_word(seed, offset, i)))
			return false;
	return true;
}

/* ---- the driver: a minimal worker loop ---- */

static void drv_complete(struct rig *r, struct req *reqs, struct io_u *io)
{
	struct req *q = &reqs[io->seq];

	assert_false(q->done);
	q->done = true;
	q->res = io->res;
	if (q->op == DDIR_READ && io->res == (int32_t)io->len && q->expect != EXPECT_NONE)
		q->bad_data = !pattern_check(io->buf, r->seed, q->offset, q->len, q->expect);
}

static void drv_prepare(struct rig *r, struct io_u *io, const struct req *q, unsigned seq)
{
	io->op = q->op;
	io->file = q->file;
	io->offset = q->offset;
	io->len = q->len;
	io->res = INT32_MIN;
	io->seq = seq;
	if (q->op == DDIR_WRITE)
		pattern_fill(io->buf, r->seed, q->offset, q->len);
	else if (q->op == DDIR_READ)
		memset(io->buf, 0xa5, q->len);
}

/* Queues until the engine is busy or the list ends; returns how many it queued. */
static unsigned drv_fill(struct rig *r, struct req *reqs, unsigned n, unsigned *next,
			 unsigned *freelist, unsigned *nfree)
{
	const struct engine_ops *ops = r->e.ops;
	struct io_u *io;
	unsigned queued = 0;
	int ret;

	while (*next < n && *nfree) {
		io = &r->ios[freelist[--*nfree]];
		drv_prepare(r, io, &reqs[*next], *next);
		ret = ops->queue(&r->e, io);
		if (ret == ENGINE_BUSY) {
			freelist[(*nfree)++] = io->index;
			r->busy++;
			break;
		}
		assert_true(ret == ENGINE_COMPLETED || ret == ENGINE_QUEUED);
		(*next)++;
		if (ret == ENGINE_QUEUED) {
			queued++;
			continue;
		}
		drv_complete(r, reqs, io);
		freelist[(*nfree)++] = io->index;
	}
	return queued;
}

/* Runs every request through the engine with up to e.depth in flight, as the worker would. */
static void drv_run(struct rig *r, struct req *reqs, unsigned n)
{
	const struct engine_ops *ops = r->e.ops;
	unsigned freelist[MAX_DEPTH], nfree = r->e.depth, next = 0, inflight = 0;
	struct io_u *io;
	int i, got;

	for (i = 0; i < (int)nfree; i++)
		freelist[i] = (unsigned)i;
	while (next < n || inflight) {
		inflight += drv_fill(r, reqs, n, &next, freelist, &nfree);
		if (ops->flags & ENGINE_F_SYNC) {
			assert_int_equal(inflight, 0);
			continue;
		}
		assert_int_equal(ops->commit(&r->e), 0);
		if (!inflight)
			continue;
		got = ops->getevents(&r->e, 1, r->e.depth, ENGINE_WAIT_FOREVER);
		assert_true(got >= 1 && got <= (int)inflight);
		for (i = 0; i < got; i++) {
			io = ops->event(&r->e, (unsigned)i);
			drv_complete(r, reqs, io);
			freelist[nfree++] = io->index;
		}
		inflight -= (unsigned)got;
	}
}

static void req_set(struct req *q, uint8_t op, uint64_t offset, uint32_t len, enum expect ex)
{
	memset(q, 0, sizeof(*q));
	q->op = op;
	q->offset = offset;
	q->len = len;
	q->expect = (uint8_t)ex;
	q->res = INT32_MIN;
}

/* Every block once, in order or shuffled (a fixed xorshift so failures repeat). */
static void req_all_blocks(struct req *reqs, uint8_t op, bool shuffle)
{
	uint64_t x = 0x2545f4914f6cdd1dull;
	unsigned i, j;
	struct req t;

	for (i = 0; i < NBLK; i++)
		req_set(&reqs[i], op, (uint64_t)i * BLK, BLK, EXPECT_PATTERN);
	for (i = NBLK - 1; shuffle && i > 0; i--) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		j = (unsigned)(x % (i + 1));
		t = reqs[i];
		reqs[i] = reqs[j];
		reqs[j] = t;
	}
}

static void check_results(const struct req *reqs, unsigned n, const char *what)
{
	unsigned i;
	int32_t want;

	for (i = 0; i < n; i++) {
		/* bytes for reads, writes and trims; 0 for a sync */
		want = reqs[i].op <= DDIR_TRIM ? (int32_t)reqs[i].len : 0;
		if (!reqs[i].done || reqs[i].res != want)
			fail_msg("%s: request %u (op %u, offset %llu): res %d, want %d", what, i,
				 reqs[i].op, (unsigned long long)reqs[i].offset, reqs[i].res, want);
		if (reqs[i].bad_data)
			fail_msg("%s: request %u (offset %llu): wrong data read back", what, i,
				 (unsigned long long)reqs[i].offset);
	}
}

static void run_one(struct rig *r, uint8_t op, uint32_t file, const char *what)
{
	struct req q;

	req_set(&q, op, 0, 0, EXPECT_NONE);
	q.file = file;
	drv_run(r, &q, 1);
	check_results(&q, 1, what);
}

/* Reads the file with plain pread, to catch an engine that reads back its own mistakes. */
static void check_file_directly(struct rig *r)
{
	static char buf[BLK];
	unsigned b;

	for (b = 0; b < NBLK; b++) {
		assert_int_equal(pread(r->plain_fd, buf, BLK, (off_t)b * BLK), BLK);
		if (!pattern_check(buf, r->seed, (uint64_t)b * BLK, BLK, EXPECT_PATTERN))
			fail_msg("block %u on disk does not hold what the engine wrote", b);
	}
}

/* ---- tests ---- */

/* Writes every block, syncs, reads everything back, at one depth and order. */
static void roundtrip_pass(struct rig *r, unsigned depth, bool shuffle, uint8_t sync_op)
{
	static struct req reqs[NBLK];

	rig_start(r, depth);
	r->seed++;
	req_all_blocks(reqs, DDIR_WRITE, shuffle);
	drv_run(r, reqs, NBLK);
	check_results(reqs, NBLK, "write");
	run_one(r, sync_op, 0, sync_op == DDIR_FSYNC ? "fsync" : "fdatasync");
	req_all_blocks(reqs, DDIR_READ, !shuffle);
	drv_run(r, reqs, NBLK);
	check_results(reqs, NBLK, "read back");
	check_file_directly(r);
	/* with fewer than depth IOs outstanding an engine must always accept one more */
	assert_int_equal(r->busy, 0);
	rig_stop(r);
}

static void test_roundtrip(void **state)
{
	struct rig *r = *state;

	rig_skip_if_unusable(r);
	roundtrip_pass(r, 1, false, DDIR_FSYNC);
	roundtrip_pass(r, 16, true, DDIR_FDATASYNC);
}

/* Punches blocks 4..11 through the engine: they read back as zeros, their neighbours do not. */
static void test_trim(void **state)
{
	struct rig *r = *state;
	struct req reqs[16];
	unsigned i;

	rig_skip_if_unusable(r);
	rig_start(r, 8);
	r->seed = 77;
	for (i = 0; i < 16; i++)
		req_set(&reqs[i], DDIR_WRITE, (uint64_t)i * BLK, BLK, EXPECT_NONE);
	drv_run(r, reqs, 16);
	check_results(reqs, 16, "write before trim");
	req_set(&reqs[0], DDIR_TRIM, 4 * BLK, 8 * BLK, EXPECT_NONE);
	drv_run(r, reqs, 1);
	check_results(reqs, 1, "trim");
	for (i = 0; i < 16; i++)
		req_set(&reqs[i], DDIR_READ, (uint64_t)i * BLK, BLK,
			i >= 4 && i < 12 ? EXPECT_ZERO : EXPECT_PATTERN);
	drv_run(r, reqs, 16);
	check_results(reqs, 16, "read after trim");
	rig_stop(r);
}

/* A read through a write-only descriptor, a write through one nothing has open: -EBADF. */
static void test_io_error(void **state)
{
	struct rig *r = *state;
	struct req reqs[3];
	unsigned i;

	rig_skip_if_unusable(r);
	rig_start(r, 4);
	for (i = 0; i < 3; i++)
		req_set(&reqs[i], DDIR_READ, (uint64_t)i * BLK, BLK, EXPECT_NONE);
	reqs[1].file = 1;
	drv_run(r, reqs, 3);
	assert_int_equal(reqs[0].res, BLK);
	assert_int_equal(reqs[1].res, -EBADF);
	assert_int_equal(reqs[2].res, BLK);
	rig_stop(r);
	if (r->c->registerfiles)
		return;
	/* a descriptor number nothing has open */
	rig_layout(r, 4);
	r->files[1].fd = 1000000;
	assert_int_equal(r->e.ops->init(&r->e, &(struct iowl_err){ .text = "" }), 0);
	r->ready = true;
	req_set(&reqs[0], DDIR_WRITE, 0, BLK, EXPECT_NONE);
	reqs[0].file = 1;
	drv_run(r, reqs, 1);
	assert_int_equal(reqs[0].res, -EBADF);
	rig_stop(r);
}

/* With depth IOs queued and none reaped, one more is refused until the engine makes room. */
static void test_busy(void **state)
{
	struct rig *r = *state;
	const struct engine_ops *ops;
	struct io_u *io;
	unsigned i;
	int got = 0, n;

	rig_skip_if_unusable(r);
	rig_start(r, 4);
	ops = r->e.ops;
	for (i = 0; i < 4; i++) {
		io = &r->ios[i];
		*io = (struct io_u){ .op = DDIR_READ,
				     .offset = i * BLK,
				     .len = BLK,
				     .buf = io->buf,
				     .index = (uint16_t)i };
		assert_int_equal(ops->queue(&r->e, io), ENGINE_QUEUED);
	}
	/* the engine must refuse before it touches any per-index state */
	assert_int_equal(ops->queue(&r->e, &r->ios[0]), ENGINE_BUSY);
	assert_int_equal(ops->commit(&r->e), 0);
	assert_int_equal(ops->queue(&r->e, &r->ios[0]), ENGINE_BUSY);
	while (got < 4) {
		n = ops->getevents(&r->e, 1, 4, ENGINE_WAIT_FOREVER);
		assert_true(n >= 1);
		for (i = 0; i < (unsigned)n; i++)
			assert_int_equal(ops->event(&r->e, i)->res, BLK);
		got += n;
	}
	assert_int_equal(got, 4);
	assert_int_equal(ops->queue(&r->e, &r->ios[0]), ENGINE_QUEUED);
	assert_int_equal(ops->commit(&r->e), 0);
	assert_int_equal(ops->getevents(&r->e, 1, 4, ENGINE_WAIT_FOREVER), 1);
	assert_ptr_equal(ops->event(&r->e, 0), &r->ios[0]);
	rig_stop(r);
}

/* Fills the first blocks with data, so direct reads reach the device instead of a hole. */
static void fill_blocks(struct rig *r, unsigned nblk)
{
	static char buf[BLK];
	unsigned b;

	memset(buf, 0x5a, sizeof(buf));
	for (b = 0; b < nblk; b++)
		assert_int_equal(pwrite(r->plain_fd, buf, BLK, (off_t)b * BLK), BLK);
	assert_int_equal(fsync(r->plain_fd), 0);
}

/*
 * Polling with min = 0 never blocks and still sees completions that need the kernel's help to
 * appear (deferred task work in io_uring, the mapped ring in libaio).
 */
static void test_poll(void **state)
{
	struct rig *r = *state;
	const struct engine_ops *ops;
	unsigned i, total = 0, polls;
	int n;

	rig_skip_if_unusable(r);
	fill_blocks(r, 8);
	rig_start(r, 8);
	ops = r->e.ops;
	for (i = 0; i < 8; i++) {
		r->ios[i].op = DDIR_READ;
		r->ios[i].offset = (uint64_t)i * BLK;
		r->ios[i].len = BLK;
		assert_int_equal(ops->queue(&r->e, &r->ios[i]), ENGINE_QUEUED);
	}
	assert_int_equal(ops->commit(&r->e), 0);
	for (polls = 0; total < 8 && polls < 5000; polls++) {
		n = ops->getevents(&r->e, 0, 8, ENGINE_WAIT_FOREVER);
		assert_true(n >= 0);
		for (i = 0; i < (unsigned)n; i++)
			assert_int_equal(ops->event(&r->e, i)->res, BLK);
		total += (unsigned)n;
		if (total < 8)
			usleep(1000);
	}
	assert_int_equal(total, 8);
	rig_stop(r);
}

/* hipri (IOPOLL) sets up; without poll queues the device answers -EOPNOTSUPP, and nothing hangs. */
static void test_hipri(void **state)
{
	struct rig *r = *state;
	struct req reqs[8];
	unsigned i;

	rig_skip_if_unusable(r);
	fill_blocks(r, 8);
	rig_start(r, 8);
	for (i = 0; i < 8; i++)
		req_set(&reqs[i], DDIR_READ, (uint64_t)i * BLK, BLK, EXPECT_NONE);
	drv_run(r, reqs, 8);
	for (i = 0; i < 8; i++)
		if (reqs[i].res != BLK && reqs[i].res != -EOPNOTSUPP)
			fail_msg("hipri read %u: res %d", i, reqs[i].res);
	if (reqs[0].res == -EOPNOTSUPP)
		print_message("note: no polled queues here (reads gave -EOPNOTSUPP)\n");
	rig_stop(r);
}

/* Queues reads and commits all but the last, leaving them for cleanup() to deal with. */
static void leave_in_flight(struct rig *r, unsigned n)
{
	const struct engine_ops *ops = r->e.ops;
	unsigned i;

	fill_blocks(r, n);
	for (i = 0; i < n; i++) {
		r->ios[i].op = DDIR_READ;
		r->ios[i].offset = (uint64_t)i * BLK;
		r->ios[i].len = BLK;
		assert_true(ops->queue(&r->e, &r->ios[i]) >= 0);
		if (i == n - 2 && ops->commit)
			assert_int_equal(ops->commit(&r->e), 0);
	}
}

/*
 * cleanup() copes with IOs still in flight, is harmless a second time, and after a failed
 * init(), which leaves nothing behind.
 */
static void test_cleanup_safe(void **state)
{
	struct rig *r = *state;
	struct iowl_err err = { .text = "" };
	bool uring = !strcmp(r->c->engine, "io_uring");

	rig_skip_if_unusable(r);
	rig_start(r, 4);
	leave_in_flight(r, 4);
	r->e.ops->cleanup(&r->e);
	r->e.ops->cleanup(&r->e);
	r->ready = false;
	if (r->e.ops->flags & ENGINE_F_SYNC)
		return;
	rig_layout(r, uring ? 4 : 0);
	if (uring) {
		r->e.params.registerfiles = true;
		r->files[1].fd = 1000000;
	}
	assert_true(r->e.ops->init(&r->e, &err) < 0);
	assert_true(err.text[0] != '\0');
	print_message("expected failure: %s\n", err.text);
	assert_null(r->e.priv);
	r->e.ops->cleanup(&r->e);
	r->e.ops->cleanup(&r->e);
}

/* null completes everything with res = len: inline at depth 1, through getevents() above it. */
static void null_pass(struct rig *r, unsigned depth)
{
	static struct req reqs[1000];
	unsigned i;

	rig_start(r, depth);
	for (i = 0; i < 1000; i++)
		req_set(&reqs[i], (uint8_t)(i % 2), (uint64_t)i * BLK, BLK - (i % 3) * 512,
			EXPECT_NONE);
	drv_run(r, reqs, 1000);
	for (i = 0; i < 1000; i++)
		assert_int_equal(reqs[i].res, (int32_t)reqs[i].len);
	rig_stop(r);
}

static void test_null(void **state)
{
	struct rig *r = *state;
	const struct engine_ops *ops;
	unsigned i;

	rig_skip_if_unusable(r);
	null_pass(r, 1);
	null_pass(r, 32);
	/* getevents() honours max and hands out the rest in order on the next call */
	rig_start(r, 32);
	ops = r->e.ops;
	for (i = 0; i < 32; i++) {
		r->ios[i].len = i + 1;
		assert_int_equal(ops->queue(&r->e, &r->ios[i]), ENGINE_QUEUED);
	}
	assert_int_equal(ops->getevents(&r->e, 0, 32, ENGINE_WAIT_FOREVER), 0);
	assert_int_equal(ops->commit(&r->e), 0);
	assert_int_equal(ops->getevents(&r->e, 1, 5, ENGINE_WAIT_FOREVER), 5);
	assert_ptr_equal(ops->event(&r->e, 4), &r->ios[4]);
	assert_int_equal(ops->getevents(&r->e, 1, 32, ENGINE_WAIT_FOREVER), 27);
	for (i = 0; i < 27; i++)
		assert_int_equal(ops->event(&r->e, i)->res, (int32_t)(i + 6));
	rig_stop(r);
}

/* Drops CAP_IPC_LOCK so the locked-memory limit applies to this (child) process as to a user. */
static void drop_ipc_lock(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &hdr, data) < 0)
		return;
	data[0].effective &= ~(1u << CAP_IPC_LOCK);
	data[0].permitted &= ~(1u << CAP_IPC_LOCK);
	syscall(SYS_capset, &hdr, data);
}

/* In a child: registering 32 MiB of buffers under a 64 KiB memlock limit.  Exits 0, 1 or 77. */
static int memlock_child(struct rig *r)
{
	struct rlimit rl = { 64 << 10, 64 << 10 };
	struct iowl_err err = { .text = "" };
	void *big;
	int ret;

	drop_ipc_lock();
	if (setrlimit(RLIMIT_MEMLOCK, &rl) < 0 || posix_memalign(&big, 4096, 32u << 20))
		return 77;
	rig_layout(r, 32);
	r->e.buf_base = big;
	r->e.buf_size = 1u << 20;
	r->e.params.fixedbufs = true;
	ret = r->e.ops->init(&r->e, &err);
	if (ret == 0) {
		r->e.ops->cleanup(&r->e);
		fprintf(stderr, "registering succeeded: no memlock accounting here\n");
		return 77;
	}
	/*
	 * The message names what was locked: the buffers, or the ring itself where this kernel
	 * counts rings against the user's locked memory, which every root process's rings share
	 * (other tests' rings can use up the 64 KiB before this one is set up).
	 */
	if ((ret != -ENOMEM && ret != -EPERM) ||
	    (!strstr(err.text, "32 buffers of 1 MiB") && !strstr(err.text, "32-entry ring")) ||
	    !strstr(err.text, "ulimit -l unlimited")) {
		fprintf(stderr, "init: %d: %s\n", ret, err.text);
		return 1;
	}
	return 0;
}

/* A locked-memory failure names the limit and how to raise it. */
static void test_memlock_message(void **state)
{
	struct rig *r = *state;
	int status;
	pid_t pid;

	rig_skip_if_unusable(r);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(memlock_child(r));
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 77) {
		print_message("skipping: locked memory is not limited here\n");
		skip();
	}
	assert_int_equal(WEXITSTATUS(status), 0);
}

static void test_list(void **state)
{
	static const char *const want[] = { "sync", "psync", "libaio", "io_uring", "pvsync",
					    "pvsync2", "vsync", "mmap", "posixaio", "null" };
	const struct engine_ops *const *list;
	unsigned i, n = 0;

	list = engine_list(&n);
	assert_int_equal(n, 10);
	for (i = 0; i < n; i++) {
		assert_string_equal(list[i]->name, want[i]);
		assert_ptr_equal(engine_find(want[i]), list[i]);
		assert_non_null(list[i]->help);
		assert_non_null(list[i]->init);
		assert_non_null(list[i]->queue);
		assert_non_null(list[i]->cleanup);
		if (!(list[i]->flags & ENGINE_F_SYNC))
			assert_true(list[i]->commit && list[i]->getevents && list[i]->event);
	}
	assert_true(engine_find("psync")->flags & ENGINE_F_SYNC);
	assert_true(engine_find("null")->flags & ENGINE_F_NODATA);
	assert_null(engine_find("splice"));
	assert_null(engine_find(NULL));
}

#define CASE(eng, dir, fb, rf) (&(struct engine_case){ eng, dir, fb, rf, false, false })
#define CASE_URING(dir, sqpoll, hipri) \
	(&(struct engine_case){ "io_uring", dir, true, false, sqpoll, hipri })
#define T(name, fn, c) { name, fn, rig_setup, rig_teardown, c }

int main(void)
{
	const struct CMUnitTest tests[] = {
		{ "list", test_list, NULL, NULL, NULL },
		T("null", test_null, CASE("null", false, false, false)),
		T("sync_buffered", test_roundtrip, CASE("sync", false, false, false)),
		T("sync_direct", test_roundtrip, CASE("sync", true, false, false)),
		T("psync_buffered", test_roundtrip, CASE("psync", false, false, false)),
		T("psync_direct", test_roundtrip, CASE("psync", true, false, false)),
		T("libaio_buffered", test_roundtrip, CASE("libaio", false, false, false)),
		T("libaio_direct", test_roundtrip, CASE("libaio", true, false, false)),
		T("io_uring_buffered", test_roundtrip, CASE("io_uring", false, false, false)),
		T("io_uring_direct", test_roundtrip, CASE("io_uring", true, false, false)),
		T("io_uring_fixedbufs_buffered", test_roundtrip,
		  CASE("io_uring", false, true, false)),
		T("io_uring_fixedbufs_direct", test_roundtrip, CASE("io_uring", true, true, false)),
		T("io_uring_registerfiles_direct", test_roundtrip,
		  CASE("io_uring", true, false, true)),
		T("io_uring_both_buffered", test_roundtrip, CASE("io_uring", false, true, true)),
		T("io_uring_both_direct", test_roundtrip, CASE("io_uring", true, true, true)),
		T("io_uring_sqpoll_buffered", test_roundtrip, CASE_URING(false, true, false)),
		T("io_uring_sqpoll_direct", test_roundtrip, CASE_URING(true, true, false)),
		T("io_uring_hipri_direct", test_hipri, CASE_URING(true, false, true)),
		T("libaio_poll_direct", test_poll, CASE("libaio", true, false, false)),
		T("io_uring_poll_direct", test_poll, CASE("io_uring", true, false, false)),
		T("io_uring_poll_sqpoll", test_poll, CASE_URING(true, true, false)),
		T("sync_trim", test_trim, CASE("sync", false, false, false)),
		T("psync_trim_direct", test_trim, CASE("psync", true, false, false)),
		T("libaio_trim_direct", test_trim, CASE("libaio", true, false, false)),
		T("io_uring_trim", test_trim, CASE("io_uring", false, false, false)),
		T("io_uring_trim_both_direct", test_trim, CASE("io_uring", true, true, true)),
		T("sync_error", test_io_error, CASE("sync", false, false, false)),
		T("psync_error", test_io_error, CASE("psync", false, false, false)),
		T("libaio_error", test_io_error, CASE("libaio", false, false, false)),
		T("libaio_error_direct", test_io_error, CASE("libaio", true, false, false)),
		T("io_uring_error", test_io_error, CASE("io_uring", false, false, false)),
		T("io_uring_error_registerfiles", test_io_error,
		  CASE("io_uring", true, true, true)),
		T("null_busy", test_busy, CASE("null", false, false, false)),
		T("libaio_busy", test_busy, CASE("libaio", true, false, false)),
		T("io_uring_busy", test_busy, CASE("io_uring", true, false, false)),
		T("io_uring_busy_both", test_busy, CASE("io_uring", false, true, true)),
		T("sync_cleanup", test_cleanup_safe, CASE("sync", false, false, false)),
		T("psync_cleanup", test_cleanup_safe, CASE("psync", false, false, false)),
		T("libaio_cleanup", test_cleanup_safe, CASE("libaio", false, false, false)),
		T("libaio_cleanup_direct", test_cleanup_safe, CASE("libaio", true, false, false)),
		T("io_uring_cleanup", test_cleanup_safe, CASE("io_uring", false, false, false)),
		T("io_uring_cleanup_direct", test_cleanup_safe,
		  CASE("io_uring", true, false, false)),
		T("io_uring_cleanup_sqpoll", test_cleanup_safe, CASE_URING(true, true, false)),
		T("null_cleanup", test_cleanup_safe, CASE("null", false, false, false)),
		T("io_uring_memlock_message", test_memlock_message,
		  CASE("io_uring", false, true, false)),
	};

	/* TEST_FILTER=io_uring_* runs a subset */
	if (getenv("TEST_FILTER"))
		cmocka_set_test_filter(getenv("TEST_FILTER"));
	return _cmocka_run_group_tests("engines", tests, sizeof(tests) / sizeof(tests[0]), NULL,
				       NULL);
}
