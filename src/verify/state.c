// SPDX-License-Identifier: MIT
/* One worker's verification: the last write of every unit, the claims of IOs in flight, the checks of reads, the verify_backlog and the read-back after the writes, the failures kept. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iowl/pattern/rng.h"
#include "verify/verify_int.h"

static int verify_alloc(struct verify *v, const struct verify_params *p, unsigned depth,
			struct iowl_err *err)
{
	uint64_t units = v->base[v->nfiles];

	v->scratch = malloc(v->cfg.interval);
	v->io_seq = calloc(depth, sizeof(*v->io_seq));
	v->io_src = calloc(depth, sizeof(*v->io_src));
	if (!v->scratch || !v->io_seq || !v->io_src)
		return err_nomem(err, "job '%s': out of memory for verification", p->name);
	if (p->writes && !(v->state = calloc(units ? units : 1, sizeof(*v->state))))
		return err_nomem(err,
				 "job '%s': out of memory for the verify state of %" PRIu64
				 " units (%" PRIu64 " MiB: 4 bytes per verify_interval)",
				 p->name, units, (units * 4) >> 20);
	/* As fio: do_verify=0 turns every verification read off, the backlog's too. */
	if (p->backlog && p->do_verify && p->writes) {
		v->backlog = p->backlog;
		v->batch = p->backlog_batch ? p->backlog_batch : p->backlog;
		v->ring_cap = p->backlog + depth;
		v->ring = calloc(v->ring_cap, sizeof(*v->ring));
		if (!v->ring)
			return err_nomem(err, "job '%s': out of memory for verify_backlog=%u",
					 p->name, p->backlog);
	}
	if (verify_trim_init(v, p, depth))
		return err_nomem(err, "job '%s': out of memory for trim_percentage", p->name);
	return 0;
}

struct verify *verify_new(const struct verify_params *p, const struct target_file *files,
			  unsigned nfiles, unsigned depth, uint64_t buf_size, uint64_t seed,
			  struct iowl_err *err)
{
	uint32_t iv = p->interval;
	struct verify *v = calloc(1, sizeof(*v));

	if (!v || !(v->base = calloc(nfiles + 1, sizeof(*v->base))) ||
	    verify_cfg_init(&v->cfg, p->mode, iv, p->pattern, p->pattern_len, true)) {
		err_nomem(err, "job '%s': out of memory for verification", p->name);
		goto out_free;
	}
	v->cfg.job = p->job;
	v->cfg.clone = p->clone;
	v->files = files;
	v->nfiles = nfiles;
	for (unsigned f = 0; f < nfiles; f++)
		v->base[f + 1] = v->base[f] + files[f].size / iv;
	v->seed = rng_mix64(seed);
	v->max_units = (uint32_t)(buf_size / iv);
	v->do_verify = p->do_verify;
	v->fatal = p->fatal;
	v->dump = p->dump;
	v->only = p->only;
	v->dry = p->only;
	v->writes = p->writes;
	v->cfg.swap = p->offset;
	pthread_mutex_init(&v->log_lock, NULL);
	v->trim_zero = p->trim_zero;
	if (verify_alloc(v, p, depth, err) ||
	    (p->async && verify_async_start(v, p->async, p->async_cpus, depth, buf_size, err)))
		goto out_free;
	return v;
out_free:
	verify_free(v);
	return NULL;
}

void verify_free(struct verify *v)
{
	if (!v)
		return;
	if (v->async)
		verify_async_stop(v);
	pthread_mutex_destroy(&v->log_lock);
	verify_cfg_release(&v->cfg);
	free(v->base);
	free(v->state);
	free(v->io_seq);
	free(v->io_src);
	free(v->scratch);
	free(v->ring);
	free(v->trims);
	free(v);
}

/* The seed of a unit written at offset by write seq: reproducible within the run, not across randseeds. */
static uint64_t unit_seed(const struct verify *v, uint32_t seq, uint64_t offset)
{
	return rng_mix64(rng_mix64(v->seed + seq * 0x9e3779b97f4a7c15ULL) ^ offset);
}

/* The state of the units io covers (*n of them), or NULL when the job keeps none. */
static uint32_t *unit_state(const struct verify *v, const struct io_u *io, uint32_t *n)
{
	const struct target_file *f = &v->files[io->file];
	uint64_t idx;

	*n = io->len / v->cfg.interval;
	if (!v->state || io->op > DDIR_TRIM || io->offset < f->start)
		return NULL;
	idx = v->base[io->file] + (io->offset - f->start) / v->cfg.interval;
	return idx + *n <= v->base[io->file + 1] ? v->state + idx : NULL;
}

/* verify_offset: the header and its checksum trade places with the bytes there (its own inverse). */
static void unit_swap(const struct verify_cfg *cfg, unsigned char *u)
{
	unsigned char t[VERIFY_HDR_LEN + VERIFY_AREA_MAX];

	memcpy(t, u, cfg->hdr_len);
	memcpy(u, u + cfg->swap, cfg->hdr_len);
	memcpy(u + cfg->swap, t, cfg->hdr_len);
}

void verify_fill(struct verify *v, struct io_u *io)
{
	unsigned char *p = io->buf;
	uint32_t iv = v->cfg.interval, n = io->len / iv;

	/* 0 means "never written" in the state; the counter skips it when it wraps. */
	v->seq = (v->seq + 1) & VERIFY_SEQ_MASK;
	if (!v->seq || v->seq == VERIFY_TRIMMED)
		v->seq = 1;
	v->io_seq[io->index] = v->seq;
	for (uint32_t k = 0; k < n; k++) {
		uint64_t off = io->offset + (uint64_t)k * iv;

		verify_unit_fill(&v->cfg, p + (size_t)k * iv, off, v->seq,
				 unit_seed(v, v->seq, off));
		if (v->cfg.swap)
			unit_swap(&v->cfg, p + (size_t)k * iv);
	}
}

bool verify_claim(struct verify *v, const struct io_u *io)
{
	uint32_t n, *s = unit_state(v, io, &n);

	if (!s)
		return true;
	for (uint32_t k = 0; k < n; k++)
		if (s[k] & VERIFY_BUSY)
			return false;
	for (uint32_t k = 0; k < n; k++)
		s[k] |= VERIFY_BUSY;
	return true;
}

static void backlog_add(struct verify *v, const struct io_u *io)
{
	struct verify_extent *e;

	if (v->ring_n == v->ring_cap)
		return;		/* cannot happen: at most depth writes complete while a batch drains */
	e = &v->ring[(v->ring_head + v->ring_n++) % v->ring_cap];
	*e = (struct verify_extent){ .offset = io->offset, .len = io->len, .file = io->file };
	if (v->ring_n >= v->backlog && !v->backlog_on) {
		v->backlog_on = true;
		v->batch_left = v->batch;
	}
}

/* Writes n bytes at p to NAME.OFFSET.what in the current directory, as fio's verify_dump; says where. */
static void dump_buf(const char *path, uint64_t offset, const char *what, const void *p, size_t n)
{
	const char *base = strrchr(path, '/');
	char name[PATH_MAX];
	FILE *f;

	snprintf(name, sizeof(name), "%s.%" PRIu64 ".%s", base ? base + 1 : path, offset, what);
	f = fopen(name, "w");
	if (!f || fwrite(p, 1, n, f) != n) {
		iowl_warn("verify_dump: cannot write '%s': %s", name, strerror(errno));
	} else {
		iowl_warn("verify_dump: %s data of offset %" PRIu64 " written to '%s'", what,
			  offset, name);
	}
	if (f)
		fclose(f);
}

/* Keeps f among the failures shown (the first VERIFY_LOG_MAX); verify_fatal stops all checking. */
static void keep_failure(struct verify *v, const struct verify_failure *f)
{
	if (v->async) /* the threads of verify_async keep theirs here too */
		pthread_mutex_lock(&v->log_lock);
	if (v->nlog < VERIFY_LOG_MAX)
		v->log[v->nlog++] = *f;
	if (v->async)
		pthread_mutex_unlock(&v->log_lock);
	if (v->fatal)
		__atomic_store_n(&v->halted, true, __ATOMIC_RELEASE);
}

/* Keeps the failure of unit at offset (want: its last write) and, with verify_dump, writes it out. */
static void failed_unit(struct verify *v, const struct verify_read *r, const unsigned char *unit,
			uint64_t offset, uint32_t want, unsigned char *scratch)
{
	struct verify_failure f;
	const char *path = v->files[r->file].path;

	verify_unit_explain(&v->cfg, unit, offset, want, unit_seed(v, want, offset), scratch, &f);
	f.file = r->file;
	keep_failure(v, &f);
	if (!v->dump)
		return;
	dump_buf(path, offset, "received", unit, v->cfg.interval);
	dump_buf(path, offset, "expected", scratch, v->cfg.interval);
}

/* A unit trimmed with trim_verify_zero: true when it reads back as zeros, else kept as a failure. */
static bool trimmed_ok(struct verify *v, const struct verify_read *r, const unsigned char *u,
		       uint64_t offset, struct verify_counts *c)
{
	struct verify_failure f = {
		.kind = VERIFY_NOT_ZERO, .file = r->file, .offset = offset, .len = v->cfg.interval
	};
	size_t at;

	if (verify_is_zero(u, v->cfg.interval, &at))
		return true;
	c->errors++;
	f.byte = (int64_t)at;
	f.byte_got = u[at];
	keep_failure(v, &f);
	return false;
}

unsigned verify_check_read(struct verify *v, const struct verify_read *r, struct verify_counts *c,
			   unsigned char *scratch)
{
	uint32_t iv = v->cfg.interval, n = r->len / iv;
	unsigned bad = 0;

	if (v->cfg.mode == VERIFY_NULL)
		return 0; /* fio's null: pretend, count nothing */
	for (uint32_t k = 0; k < n && !verify_halted(v); k++) {
		unsigned char *u = r->buf + (size_t)k * iv;
		uint32_t want = r->want ? r->want[k] & VERIFY_SEQ_MASK : 0;
		uint64_t off = r->offset + (uint64_t)k * iv;

		if (r->want && !want)
			continue; /* not written by this job, or its write failed */
		if (v->only)
			want = 0; /* written by an earlier run: checked on its own (fio's verify_only) */
		c->units++;
		c->by_src[r->src]++;
		if (want == VERIFY_TRIMMED) { /* trim_verify_zero */
			if (trimmed_ok(v, r, u, off, c))
				continue;
			bad++;
			continue;
		}
		if (v->cfg.swap)
			unit_swap(&v->cfg, u);
		if (verify_unit_check(&v->cfg, u, off, want, unit_seed(v, want, off)) == VERIFY_OK)
			continue;
		bad++;
		c->errors++;
		failed_unit(v, r, u, off, want, scratch);
	}
	return bad;
}

unsigned verify_complete(struct verify *v, const struct io_u *io, bool ok)
{
	uint32_t n, *s = unit_state(v, io, &n);
	unsigned src = v->io_src[io->index], bad = 0;
	struct verify_read r = { .buf = io->buf,
				 .offset = io->offset,
				 .len = io->len,
				 .file = io->file,
				 .want = s,
				 .src = src };

	v->io_src[io->index] = SRC_READ;
	if (io->op == DDIR_WRITE && v->dry && v->loaded) {
		/* verify_only over a loaded state: the dry writes leave the units as loaded */
		for (uint32_t k = 0; s && k < n; k++)
			s[k] &= ~VERIFY_BUSY;
		return 0;
	}
	if (io->op == DDIR_WRITE) {
		/* A failed write leaves the units unknown: nothing is expected of them. */
		for (uint32_t k = 0; s && k < n; k++)
			s[k] = ok ? v->io_seq[io->index] : 0;
		if (ok && v->ring)
			backlog_add(v, io);
		if (ok)
			verify_trim_note(v, io);
		return 0;
	}
	if (io->op == DDIR_TRIM) {
		/* trim_verify_zero: zeros are expected of a trimmed unit; else nothing. */
		for (uint32_t k = 0; s && k < n; k++)
			s[k] = ok && v->trim_zero ? VERIFY_TRIMMED : 0;
		return 0;
	}
	if (io->op == DDIR_READ && ok && !verify_halted(v)) {
		if (v->async)
			verify_async_push(v, &r); /* copies the data and the last writes */
		else
			bad = verify_check_read(v, &r, &v->cnt, v->scratch);
	}
	for (uint32_t k = 0; s && k < n; k++)
		s[k] &= ~VERIFY_BUSY;
	return v->async ? verify_async_reap(v) : bad;
}

/* Moves the read-back cursor to the next unit with a known last write.  True if there is one. */
static bool readback_more(struct verify *v)
{
	uint64_t end = v->base[v->nfiles];

	while (v->rb_unit < end && !(v->state[v->rb_unit] & VERIFY_SEQ_MASK))
		v->rb_unit++;
	while (v->rb_file + 1 < v->nfiles && v->rb_unit >= v->base[v->rb_file + 1])
		v->rb_file++;
	return v->rb_unit < end;
}

bool verify_pending(struct verify *v)
{
	if (verify_halted(v))
		return false;
	if (verify_trim_due(v))
		return true;
	if (v->readback)
		return readback_more(v);
	return v->backlog_on && v->ring_n;
}

/*
 * The next read of the read-back: the units of one write, as fio reads back each write as it
 * was made (its offset and length): the run of units that carry the same write's sequence
 * number (what a later write left of it, where one overlapped it).
 */
static void readback_next(struct verify *v, struct io_u *io)
{
	unsigned f = v->rb_file;
	uint64_t first = v->rb_unit, end = v->base[f + 1];
	uint32_t n = 1, seq = v->state[first] & VERIFY_SEQ_MASK;

	while (n < v->max_units && first + n < end &&
	       (v->state[first + n] & VERIFY_SEQ_MASK) == seq)
		n++;
	io->file = f;
	io->offset = v->files[f].start + (first - v->base[f]) * v->cfg.interval;
	io->len = n * v->cfg.interval;
	v->rb_unit = first + n;
	v->io_src[io->index] = SRC_READBACK;
}

void verify_next(struct verify *v, struct io_u *io)
{
	if (verify_trim_due(v)) {
		verify_trim_next(v, io);
		return;
	}
	io->op = DDIR_READ;
	io->stream = 0;
	if (v->readback) {
		readback_next(v, io);
		return;
	}
	{
		const struct verify_extent *e = &v->ring[v->ring_head];

		io->file = e->file;
		io->offset = e->offset;
		io->len = e->len;
	}
	v->io_src[io->index] = v->flushing ? SRC_READBACK : SRC_BACKLOG;
	/*
	 * A round reads verify_backlog_batch writes, oldest first, and the rest wait for the next
	 * round or the end.  A batch larger than the writes waiting stops when they are read: fio's
	 * manual says some are read twice, fio 3.33 reads each once (256 reads for 256 writes with
	 * verify_backlog=64, verify_backlog_batch=100).
	 */
	v->batch_left--;
	v->ring_head = (v->ring_head + 1) % v->ring_cap;
	if (!--v->ring_n || !v->batch_left)
		v->backlog_on = false;
}

bool verify_finish_writes(struct verify *v)
{
	if (verify_halted(v))
		return false;
	verify_trim_flush(v); /* what is queued is trimmed before the read-back */
	/* With a backlog the earlier batches were read: only the last, partial one is left. */
	if (!v->ring && v->state && v->do_verify && v->writes) {
		v->readback = true;
		v->rb_unit = 0;
		v->rb_file = 0;
		return readback_more(v);
	}
	v->flushing = v->backlog_on = v->ring_n > 0;
	v->batch_left = v->ring_n;
	return v->flushing;
}

const struct verify_failure *verify_failure_at(struct verify *v, unsigned i)
{
	const struct verify_failure *f;

	if (v->async) /* the threads may be adding one */
		pthread_mutex_lock(&v->log_lock);
	f = i < v->nlog ? &v->log[i] : NULL;
	if (v->async)
		pthread_mutex_unlock(&v->log_lock);
	return f;
}

unsigned verify_drain(struct verify *v)
{
	unsigned bad;

	if (!v->async)
		return 0;
	verify_async_stop(v);
	bad = v->bad_left;
	v->bad_left = 0;
	return bad;
}

static void print_one(const struct verify *v, const char *name, const struct verify_failure *f)
{
	const struct verify_hdr *w = &f->want, *g = &f->got;
	char seq[16] = "?", seed[24] = "?", job[16] = "?", clone[16] = "?";
	char byte[96] = "no differing byte found";

	if (f->seq_known) {
		snprintf(seq, sizeof(seq), "%" PRIu32, w->seq);
		snprintf(seed, sizeof(seed), "0x%" PRIx64, w->seed);
		snprintf(job, sizeof(job), "%" PRIu32, w->job);
		snprintf(clone, sizeof(clone), "%" PRIu32, w->clone);
	}
	if (f->byte >= 0)
		snprintf(byte, sizeof(byte),
			 "first differing byte at +%" PRId64 " (offset %" PRIu64
			 "): expected 0x%02x, found 0x%02x",
			 f->byte, f->offset + (uint64_t)f->byte, f->byte_want, f->byte_got);
	iowl_warn("job '%s': verify failed on '%s' at offset=%" PRIu64 ", length=%" PRIu32
		  ": %s; %s",
		  name, v->files[f->file].path, f->offset, f->len, verify_kind_name(f->kind), byte);
	if (!v->cfg.hdr_len || f->kind == VERIFY_NOT_ZERO)
		return; /* pattern, or a trimmed unit: no header to show */
	iowl_warn("job '%s':   header expected/found: magic 0x%04x/0x%04x, type %s/%s, length %" PRIu32
		  "/%" PRIu32 ", offset %" PRIu64 "/%" PRIu64 ", seq %s/%" PRIu32
		  ", seed %s/0x%" PRIx64 ", job %s/%" PRIu32 ", clone %s/%" PRIu32
		  ", checksum 0x%016" PRIx64 "/0x%016" PRIx64 " (computed 0x%016" PRIx64
		  "), header crc 0x%08" PRIx32 "/0x%08" PRIx32 " (computed 0x%08" PRIx32 ")",
		  name, w->magic, g->magic, verify_type_name(w->type), verify_type_name(g->type),
		  w->len, g->len, w->offset, g->offset, seq, g->seq, seed, g->seed, job, g->job,
		  clone, g->clone, w->sum, g->sum, f->sum_calc, w->hdr_crc, g->hdr_crc,
		  f->hdr_crc_calc);
}

void verify_print(const struct verify *v, const char *name)
{
	for (unsigned i = 0; i < v->nlog; i++)
		print_one(v, name, &v->log[i]);
	if (v->cnt.errors > v->nlog)
		iowl_warn("job '%s': verify: %" PRIu64 " more failed units not shown", name,
			  v->cnt.errors - v->nlog);
}

void verify_publish(const struct verify *v, struct verify_totals *t)
{
	if (!t->mode) {
		t->mode = v->cfg.mode;
		t->interval = v->cfg.interval;
	}
	t->units += v->cnt.units;
	t->errors += v->cnt.errors;
	t->read_units += v->cnt.by_src[SRC_READ];
	t->backlog_units += v->cnt.by_src[SRC_BACKLOG];
	t->readback_units += v->cnt.by_src[SRC_READBACK];
	if (!v->nlog || t->has_failure)
		return;
	t->first = v->log[0];
	snprintf(t->path, sizeof(t->path), "%s", v->files[v->log[0].file].path);
	t->has_failure = true;
}
