// SPDX-License-Identifier: MIT
/* blktrace binary traces: byte order, and merge_blktrace_file's merge of several traces into one. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iowl/blktrace.h"
#include "iowl/job.h"
#include "iowl/value.h"

bool bt_magic(uint32_t m, bool *swap)
{
	if ((m & 0xffffff00U) == BLK_IO_TRACE_MAGIC) {
		*swap = false;
		return true;
	}
	m = __builtin_bswap32(m);
	*swap = (m & 0xffffff00U) == BLK_IO_TRACE_MAGIC;
	return *swap;
}

void bt_swap(struct blk_io_trace *t)
{
	t->magic = __builtin_bswap32(t->magic);
	t->sequence = __builtin_bswap32(t->sequence);
	t->time = __builtin_bswap64(t->time);
	t->sector = __builtin_bswap64(t->sector);
	t->bytes = __builtin_bswap32(t->bytes);
	t->action = __builtin_bswap32(t->action);
	t->pid = __builtin_bswap32(t->pid);
	t->device = __builtin_bswap32(t->device);
	t->cpu = __builtin_bswap32(t->cpu);
	t->error = __builtin_bswap16(t->error);
	t->pdu_len = __builtin_bswap16(t->pdu_len);
}

/* One trace being merged: the whole file, where it is read, and its current event. */
struct bt_cursor {
	const char *path;
	char *data;
	size_t size, pos;
	bool swap;
	unsigned events;	 /* events read, for messages */
	struct blk_io_trace t;	 /* the next event to merge, its time scaled */
	uint64_t last;		 /* the time of the last event read (any event) */
	uint64_t length;	 /* the trace's length: its last event's time, 0 until known */
	unsigned iter, nr_iter;	 /* merge_blktrace_iters */
	unsigned scalar;	 /* merge_blktrace_scalars, percent */
};

static int bt_read_file(struct bt_cursor *c, struct iowl_err *err)
{
	FILE *f = fopen(c->path, "r");
	size_t cap = 0, got;
	char *grown;

	if (!f)
		return err_errno(err, errno, "read_iolog '%s'", c->path);
	do {
		if (c->size == cap) {
			cap = cap ? 2 * cap : 65536;
			if (!(grown = realloc(c->data, cap))) {
				fclose(f);
				return err_nomem(err, "read_iolog '%s': out of memory", c->path);
			}
			c->data = grown;
		}
		got = fread(c->data + c->size, 1, cap - c->size, f);
		c->size += got;
	} while (got);
	if (ferror(f)) {
		int e = errno;

		fclose(f);
		return err_errno(err, e, "read_iolog '%s'", c->path);
	}
	fclose(f);
	return 0;
}

/*
 * The cursor's next queue event of a read, write or discard (fio's read_trace()), its time
 * (t + iter x length) x scalar / 100.  Returns 1, 0 at the end of the trace (its length then
 * known), or -EINVAL with err set for a damaged trace.
 */
static int bt_next(struct bt_cursor *c, struct iowl_err *err)
{
	const uint32_t rwd = BLK_TC_ACT(BLK_TC_READ | BLK_TC_WRITE | BLK_TC_DISCARD);

	for (;;) {
		struct blk_io_trace t;
		unsigned __int128 time;

		if (c->pos == c->size) {
			if (!c->length)
				c->length = c->last;
			return 0;
		}
		c->events++;
		if (c->size - c->pos < sizeof(t))
			return err_set(err,
				       "read_iolog '%s': event %u is cut short (%zu of %zu bytes)",
				       c->path, c->events, c->size - c->pos, sizeof(t));
		memcpy(&t, c->data + c->pos, sizeof(t));
		c->pos += sizeof(t);
		if (c->swap)
			bt_swap(&t);
		if ((t.magic & 0xffffff00U) != BLK_IO_TRACE_MAGIC ||
		    (t.magic & 0xff) != BLK_IO_TRACE_VERSION)
			return err_set(err,
				       "read_iolog '%s': event %u: bad magic or version in the blktrace event (version 7 expected)",
				       c->path, c->events);
		if (c->size - c->pos < t.pdu_len)
			return err_set(err, "read_iolog '%s': event %u: its payload is cut short",
				       c->path, c->events);
		c->pos += t.pdu_len;
		c->last = t.time;
		if ((t.action & 0xffff) != BLK_TA_QUEUE || !(t.action & rwd))
			continue;
		time = ((unsigned __int128)t.time + (unsigned __int128)c->iter * c->length) *
		       c->scalar / 100;
		t.time = time > UINT64_MAX ? UINT64_MAX : (uint64_t)time;
		t.pdu_len = 0;
		c->t = t;
		return 1;
	}
}

/*
 * merge_blktrace_scalars / merge_blktrace_iters: ':' separated numbers, one per trace (fio
 * takes each as a whole number), or def for every trace when unset.
 */
static int bt_list(const struct job *job, enum opt_id opt, const char *list, unsigned n,
		   struct bt_cursor *c, size_t off, unsigned def, struct iowl_err *err)
{
	unsigned k = 0;
	const char *p = list;

	for (unsigned i = 0; i < n; i++)
		*(unsigned *)((char *)&c[i] + off) = def;
	if (!list)
		return 0;
	while (*p) {
		char *end;
		double v = strtod(p, &end);

		if (end == p || (*end && *end != ':') || !isfinite(v) || v < 1 || v > 1e6)
			return job_opt_err(job, opt, err,
					   "'%s' is not a list of numbers from 1 to 1000000 separated by ':' (one per trace of read_iolog)",
					   list);
		if (k < n)
			*(unsigned *)((char *)&c[k] + off) = (unsigned)v;
		k++;
		p = *end ? end + 1 : end;
	}
	if (k != n)
		return job_opt_err(job, opt, err,
				   "%u value%s for the %u trace%s of read_iolog (give one per trace)",
				   k, k == 1 ? "" : "s", n, n == 1 ? "" : "s");
	return 0;
}

/* Cursor i is done: the last live one (at last) takes its place, i goes after the live ones. */
static void bt_drop(struct bt_cursor *c, unsigned i, unsigned last)
{
	struct bt_cursor t = c[i];

	c[i] = c[last];
	c[last] = t;
}

int bt_merge(const struct job *job, char **logs, unsigned n, char **buf, size_t *len,
	     struct iowl_err *err)
{
	const struct job_opts *o = &job->o;
	struct bt_cursor *c = calloc(n, sizeof(*c));
	struct blk_io_trace *out = NULL;
	size_t nout = 0, cap = 0;
	unsigned live = n;
	int ret = 0;

	if (!c)
		return err_nomem(err, "out of memory");
	ret = bt_list(job, OPT_ID_merge_blktrace_scalars, o->merge_blktrace_scalars, n, c,
		      offsetof(struct bt_cursor, scalar), 100, err);
	if (!ret)
		ret = bt_list(job, OPT_ID_merge_blktrace_iters, o->merge_blktrace_iters, n, c,
			      offsetof(struct bt_cursor, nr_iter), 1, err);
	for (unsigned i = 0; !ret && i < n; i++) {
		uint32_t magic;

		c[i].path = logs[i];
		ret = bt_read_file(&c[i], err);
		if (ret)
			break;
		if (c[i].size < sizeof(magic) ||
		    (memcpy(&magic, c[i].data, sizeof(magic)), !bt_magic(magic, &c[i].swap)))
			ret = job_opt_err(job, OPT_ID_merge_blktrace_file, err,
					  "read_iolog '%s' is not a blktrace binary trace (only blktraces are merged)",
					  logs[i]);
	}
	/* Each cursor at its first event; one without any runs no iteration and is dropped. */
	for (unsigned i = 0; !ret && i < live;) {
		int r = bt_next(&c[i], err);

		if (r < 0)
			ret = r;
		else if (r)
			i++;
		else
			bt_drop(c, i, --live);
	}
	while (!ret && live) {
		unsigned i = 0;
		int r;

		/* the earliest event, the first cursor of equal ones (as fio's find_earliest_io) */
		for (unsigned k = 1; k < live; k++)
			if (c[k].t.time < c[i].t.time)
				i = k;
		if (nout == cap) {
			struct blk_io_trace *grown;

			cap = cap ? 2 * cap : 1024;
			if (!(grown = realloc(out, cap * sizeof(*out)))) {
				ret = err_nomem(err, "merge_blktrace_file: out of memory");
				break;
			}
			out = grown;
		}
		out[nout++] = c[i].t;
		r = bt_next(&c[i], err);
		while (!r && ++c[i].iter < c[i].nr_iter) { /* the trace again, after its length */
			c[i].pos = 0;
			r = bt_next(&c[i], err);
		}
		if (r < 0)
			ret = r;
		else if (!r) /* done: the last cursor takes its place, as in fio */
			bt_drop(c, i, --live);
	}
	for (unsigned i = 0; i < n; i++)
		free(c[i].data);
	free(c);
	if (ret) {
		free(out);
		return ret;
	}
	*buf = (char *)out;
	*len = nout * sizeof(*out);
	return 0;
}

int bt_merge_write(const struct job *job, struct iowl_err *err)
{
	const char *path = job->o.merge_blktrace_file;
	FILE *f = fopen(path, "w");

	if (!f)
		return err_errno(err, errno, "job '%s': merge_blktrace_file '%s'", job->o.name,
				 path);
	if (fwrite(job->merged, 1, job->merged_len, f) != job->merged_len) {
		int e = errno;

		fclose(f);
		return err_errno(err, e, "job '%s': merge_blktrace_file '%s'", job->o.name, path);
	}
	if (fclose(f))
		return err_errno(err, errno, "job '%s': merge_blktrace_file '%s'", job->o.name,
				 path);
	return 0;
}
