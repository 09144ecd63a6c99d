// SPDX-License-Identifier: MIT
/*
 * trim_percentage, trim_backlog, trim_backlog_batch and trim_verify_zero (fio's meaning): a share
 * of the extents written is queued to be trimmed again; after every trim_backlog completed writes
 * a batch of them is trimmed, oldest first, and the rest at the end of the writes, before the
 * read-back; a trimmed unit must then read back as zeros (or, without trim_verify_zero, is not
 * read back).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "verify/verify_int.h"

#define TRIM_QUEUE_MAX                                                                             \
	(1U << 16) /* extents waiting; more are not trimmed (never in fio's ratios) */

int verify_trim_init(struct verify *v, const struct verify_params *p, unsigned depth)
{
	uint64_t units = v->base[v->nfiles];

	if (!p->trim_pct || !p->trim_backlog || !p->writes)
		return 0;
	v->trim_thresh = rng_percent_threshold(p->trim_pct);
	v->trim_backlog = p->trim_backlog;
	v->trim_batch = p->trim_batch ? p->trim_batch : p->trim_backlog;
	v->trim_zero = p->trim_zero;
	v->trim_cap = (units < TRIM_QUEUE_MAX ? (unsigned)units : TRIM_QUEUE_MAX) + depth;
	v->trims = calloc(v->trim_cap, sizeof(*v->trims));
	rng_init(&v->trim_rng, v->seed, 0x7472696dU); /* "trim" */
	return v->trims ? 0 : -ENOMEM;
}

void verify_trim_note(struct verify *v, const struct io_u *io)
{
	if (!v->trims)
		return;
	if (rng_chance(&v->trim_rng, v->trim_thresh) && v->trim_n < v->trim_cap)
		v->trims[(v->trim_head + v->trim_n++) % v->trim_cap] = (struct verify_extent){
			.offset = io->offset, .len = io->len, .file = io->file
		};
	if (++v->trim_writes % v->trim_backlog == 0)
		v->trim_left = v->trim_batch;
}

void verify_trim_next(struct verify *v, struct io_u *io)
{
	const struct verify_extent *e = &v->trims[v->trim_head];

	io->op = DDIR_TRIM;
	io->stream = 0;
	io->file = e->file;
	io->offset = e->offset;
	io->len = e->len;
	v->trim_head = (v->trim_head + 1) % v->trim_cap;
	v->trim_n--;
	v->trim_left--;
}

void verify_trim_flush(struct verify *v)
{
	v->trim_left = v->trim_n;
}

bool verify_is_zero(const unsigned char *p, size_t n, size_t *at)
{
	static const unsigned char zeros[256];
	size_t i = 0;

	for (; i + sizeof(zeros) <= n; i += sizeof(zeros))
		if (memcmp(p + i, zeros, sizeof(zeros)))
			break;
	for (; i < n; i++)
		if (p[i]) {
			*at = i;
			return false;
		}
	return true;
}
