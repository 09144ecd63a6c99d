/* SPDX-License-Identifier: MIT */
/*
 * What write buffers hold, with fio's meaning: random data filled once and scrambled on every
 * write (scramble_buffers, the default: every 512-byte sector gets a stamp of its own, so no two
 * written blocks are the same), refilled on every write (refill_buffers, and whatever
 * implies it), zeros, buffer_pattern, buffer_compress_percentage and dedupe_percentage.
 * verify writes its own data (unique per block) and takes precedence over all of this.
 */
#ifndef IOWL_FILL_H
#define IOWL_FILL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "iowl/engine.h"
#include "iowl/err.h"
#include "iowl/job_opts.h"
#include "iowl/pattern/rng.h"

struct job;

/* One worker's buffer filler: set up once, then used per write without allocating. */
struct fill {
	const unsigned char *pattern;	/* buffer_pattern (the job's), NULL: none */
	unsigned plen;
	bool zero;			/* zero_buffers */
	bool refill;			/* new contents for every write */
	bool scramble;			/* stamp every sector of every write */
	unsigned compress;		/* buffer_compress_percentage */
	uint64_t chunk;			/* its chunk: 0 means the write's size */
	uint64_t dedupe;		/* rng_chance() threshold of a dedupable write, 0: none */
	bool working_set;		/* dedupe_mode=working_set */
	uint64_t ws_units;		/* its size in contents (buffers of the smallest write) */
	uint64_t gseed;			/* dedupe_global: keys the run's shared working set */
	uint64_t ws_base, ws_total;	/* ... this worker's share starts there, of ws_total; 0: own */
	uint64_t seed;			/* keys every content of this worker */
	uint64_t next;			/* the next unique content */
	uint64_t last;			/* the last unique content (dedupe_mode=repeat) */
	uint64_t stamp;			/* worker number << 48: workers' stamps never meet */
	uint64_t salt;			/* from the clock at setup: each run stamps differently */
	uint64_t sectors;		/* sectors scrambled so far */
	struct rng rng;			/* dedupe choices */
};

/*
 * Derives and checks the buffer options of job (after its other options are validated): fio's
 * implications (compress or dedupe imply refill_buffers, and so on) and what contradicts
 * verify.  Returns 0, or -EINVAL with err set at the option's FILE:LINE.
 */
int fill_check(const struct job *job, struct iowl_err *err);

/*
 * Sets f up for worker number (seeds) of job, whose region holds region_bytes (the working
 * set of dedupe_mode=working_set is a share of it).
 */
void fill_init(struct fill *f, const struct job *job, unsigned number, uint64_t region_bytes);

/* The working set of dedupe_mode=working_set of a worker of job over region_bytes, in contents. */
uint64_t fill_ws_units(const struct job *job, uint64_t region_bytes);

/*
 * dedupe_global: the worker's working set is its share of the run's, from content base of
 * total (the sum over the workers of the phase that set dedupe_global); a dedupable write
 * repeats any content of the whole.  After fill_init().
 */
void fill_share(struct fill *f, const struct job *job, uint64_t base, uint64_t total);

/* Fills a buffer of len bytes as the job asks, once at setup (contents of their own). */
void fill_buffer(struct fill *f, void *buf, uint64_t len);

/* New contents for one write (refill): unique, or a repeat of an earlier one (dedupe). */
void fill_refill(struct fill *f, void *buf, uint64_t len);

/*
 * fio's small_content_scramble, in one store per 512-byte sector: bytes 56..63 of each sector
 * get a stamp no other sector of the run gets, the worker's number in the top 16 bits and its
 * count of scrambled sectors (xor a salt from the clock at setup, so that another run's stamps
 * differ) in the low 48.  fio stores the sector's offset and the time there (three stores).
 */
static inline void fill_scramble(struct fill *f, struct io_u *io)
{
	unsigned char *p = (unsigned char *)io->buf + 56;
	uint64_t n = f->sectors, hi = f->stamp, salt = f->salt, len = io->len;

	for (uint64_t s = 0; s + 512 <= len; s += 512, n++) {
		uint64_t w = hi | ((n ^ salt) & 0xffffffffffffULL);

		memcpy(p + s, &w, 8);
	}
	f->sectors = n;
}

/* The per-write hook: refill, scramble, or nothing (the buffer is written as it is). */
static inline void fill_write(struct fill *f, struct io_u *io)
{
	if (f->refill)
		fill_refill(f, io->buf, io->len);
	else if (f->scramble)
		fill_scramble(f, io);
}

#endif
