// SPDX-License-Identifier: MIT
/* Write buffer contents with fio's meaning: scrambled, refilled, zeros, pattern, compressible, dedupable. */
#include <string.h>
#include <time.h>

#include "iowl/clock.h"
#include "iowl/fill.h"
#include "iowl/job.h"

#define GOLDEN 0x9e3779b97f4a7c15ULL

/*
 * Random bytes of one content: word i is a mix of the content's key and i, so the words are
 * independent of each other (the loop pipelines) and no two contents share a word sequence.
 */
static void put_random(unsigned char *p, uint64_t len, uint64_t key, uint64_t *word)
{
	uint64_t i = *word, z;

	for (; len >= 8; len -= 8, p += 8) {
		z = rng_mix64(key + i++ * GOLDEN);
		memcpy(p, &z, 8);
	}
	if (len) {
		z = rng_mix64(key + i++ * GOLDEN);
		memcpy(p, &z, len);
	}
	*word = i;
}

/* The pattern from its first byte, repeated over len bytes (fio's cpy_pattern). */
static void put_pattern(unsigned char *p, uint64_t len, const unsigned char *pat, unsigned plen)
{
	uint64_t have = len < plen ? len : plen;

	memcpy(p, pat, have);
	while (have < len) {
		uint64_t n = len - have < have ? len - have : have;

		memcpy(p + have, p, n);
		have += n;
	}
}

/* The compressible filler: the pattern, or zeros. */
static void put_filler(const struct fill *f, unsigned char *p, uint64_t len)
{
	if (f->pattern)
		put_pattern(p, len, f->pattern, f->plen);
	else
		memset(p, 0, len);
}

/*
 * Content number c over len bytes.  With buffer_compress_percentage (or dedupe) every chunk is
 * its random share followed by the filler, as fio's fill_random_buf_percentage; at 100 % the
 * filler alone.
 */
static void put_content(const struct fill *f, unsigned char *buf, uint64_t len, uint64_t key)
{
	uint64_t word = 0;

	if (f->compress == 100) {	/* fio 3.33 writes the filler from each buffer's start */
		put_filler(f, buf, len);
	} else if (f->compress || f->dedupe) {
		for (uint64_t at = 0; at < len;) {
			uint64_t chunk = f->chunk && f->chunk < len - at ? f->chunk : len - at;
			uint64_t rnd = chunk * (100 - f->compress) / 100;

			put_random(buf + at, rnd, key, &word);
			put_filler(f, buf + at + rnd, chunk - rnd);
			at += chunk;
		}
	} else if (f->pattern || f->zero) {
		put_filler(f, buf, len);
	} else {
		put_random(buf, len, key, &word);
	}
}

/*
 * The key of content c: the worker's own, but with dedupe_global the first ws_units (the
 * worker's share of the working set) are keyed in the run's shared space, from ws_base.
 */
static uint64_t content_key(const struct fill *f, uint64_t c)
{
	if (f->ws_total && c < f->ws_units)
		return rng_mix64(f->gseed + (f->ws_base + c) * GOLDEN);
	return rng_mix64(f->seed + c * GOLDEN);
}

uint64_t fill_ws_units(const struct job *job, uint64_t region_bytes)
{
	const struct job_opts *o = &job->o;
	uint64_t min_write = job->min_bs[1] ? job->min_bs[1] : 4096;
	uint64_t n = region_bytes / 100 * o->dedupe_working_set_percentage / min_write;

	return n ? n : 1;
}

void fill_share(struct fill *f, const struct job *job, uint64_t base, uint64_t total)
{
	f->ws_base = base;
	f->ws_total = total;
	f->gseed = rng_mix64(job->o.randseed ^ 0x64656475706eULL);
}

void fill_init(struct fill *f, const struct job *job, unsigned number, uint64_t region_bytes)
{
	const struct job_opts *o = &job->o;
	uint64_t min_write = job->min_bs[1] ? job->min_bs[1] : 4096;
	bool reads = job_does_dir(job, 0);
	struct timespec now;

	memset(f, 0, sizeof(*f));
	f->pattern = o->buffer_pattern_len ? o->buffer_pattern : NULL;
	f->plen = o->buffer_pattern_len;
	f->zero = o->zero_buffers && !f->pattern;
	f->compress = o->buffer_compress_percentage;
	/* fio: a chunk of 0 is the smallest write, and no chunk is larger than it */
	f->chunk = o->buffer_compress_chunk && o->buffer_compress_chunk < min_write ?
			   o->buffer_compress_chunk : min_write;
	f->dedupe = rng_percent_threshold(o->dedupe_percentage);
	f->working_set = o->dedupe_mode == DEDUPE_WORKING_SET;
	f->ws_units = fill_ws_units(job, region_bytes);
	/*
	 * fio refills for compression (below 100 %) and dedupe; iowl also for a pattern or zeros
	 * in a job that reads, whose reads land in the same buffers (fio: for a pattern only).
	 */
	f->refill = o->refill_buffers || (f->compress && f->compress < 100) ||
		    o->dedupe_percentage || (reads && (f->pattern || f->zero));
	/* fio scrambles unless the buffers are refilled or compressible, or zero_buffers was
	 * asked for without scramble_buffers (buffer_pattern= turned it off when parsed) */
	f->scramble = o->scramble_buffers && !f->refill && !f->compress &&
		      !(o->zero_buffers && !job_opt_is_set(job, OPT_ID_scramble_buffers));
	f->seed = rng_mix64(o->randseed ^ rng_mix64(number + 1ULL));
	f->stamp = (uint64_t)number << 48;
	clock_gettime(CLOCK_REALTIME, &now);
	f->salt = rng_mix64((uint64_t)now.tv_sec * NSEC_PER_SEC + (uint64_t)now.tv_nsec);
	rng_init(&f->rng, o->randseed, rng_stream_id(number, 0x46494c4cU));
}

void fill_buffer(struct fill *f, void *buf, uint64_t len)
{
	if (f->refill) {	/* every write brings its own: keep the contents' numbering for them */
		memset(buf, 0, len);
		return;
	}
	put_content(f, buf, len, content_key(f, f->next++));
	f->last = f->next - 1;
}

void fill_refill(struct fill *f, void *buf, uint64_t len)
{
	uint64_t c;

	if (f->dedupe && rng_chance(&f->rng, f->dedupe)) {
		/* dedupe_global: any content of the shared working set, whoever writes it */
		if (f->working_set && f->ws_total) {
			put_content(f, buf, len,
				    rng_mix64(f->gseed + rng_below(&f->rng, f->ws_total) * GOLDEN));
			return;
		}
		c = f->working_set ? rng_below(&f->rng, f->ws_units) : f->last;
	} else {
		c = f->next++;
		f->last = c;
	}
	put_content(f, buf, len, content_key(f, c));
}
