// SPDX-License-Identifier: MIT
/*
 * IO generation for one worker: a weighted choice of stream, then the stream's direction
 * (rwmix), size (bs, bsrange or bssplit), file (file_service_type) and offset (sequential
 * cursor, full-coverage random map, or a distribution).  A job without streams is one stream.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "iowl/gen.h"
#include "iowl/pattern/alias.h"
#include "iowl/pattern/dist.h"
#include "iowl/pattern/perm.h"
#include "iowl/pattern/rng.h"

enum gen_rng {
	RNG_DDIR = 1,
	RNG_BS = 2,
	RNG_OFF = 3,
	RNG_FILE = 4,
	RNG_COVER = 5,
	RNG_STREAM = 6,
	RNG_SEQ = 7,
	RNG_DIST = 8,
};

/* Bookkeeping after an IO's offset, in one word so that the common case tests it once. */
enum gen_tail {
	GEN_TAIL_FILE_BYTES = 1U << 0, /* sequential file service counts the bytes per file */
	GEN_TAIL_MAP_END = 1U << 1,    /* the IO is the last of its file's random-map pass */
	GEN_TAIL_IDENT = 1U << 2,      /* rw_sequencer=identical: keep each IO's start */
};

/* A bssplit column of the alias table, with the sizes themselves instead of their indexes. */
struct gen_bs {
	uint32_t thresh;		/* keep the column's size when the fraction is below */
	uint32_t keep, other;		/* the column's size, its alias's size */
};

/*
 * Kept small (the bssplit table is out of line): a job of many streams touches each one's
 * struct on every IO it picks it, and 13 streams of 2 KiB alias tables were 90 KiB, more
 * than the L1 cache, where the hot fields of all of them fit in a few lines.
 */
struct gen_dir {
	uint32_t bs;			/* the size when there is one */
	uint32_t lo, step, nmult;	/* bsrange: lo + step * rng_below(nmult) */
	uint32_t align;
	unsigned nsizes;		/* bssplit entries */
	bool all_random;		/* percentage_random is 100: no draw needed */
	uint64_t random_chance;		/* percentage_random as an rng_chance threshold */
	struct gen_bs *split;		/* bssplit: nsizes columns */
};

/*
 * One stream's range in one file.  The fields every IO reads come first, in one cache line,
 * and the random map's next blocks in the line after.
 */
struct gen_range {
	uint64_t start;			/* absolute offset of the range */
	uint64_t size;			/* rounded down to whole slots */
	uint64_t pos[DDIR_NR];		/* sequential cursors, relative to start */
	struct dist *dist[DDIR_NR];		/* non-uniform random_distribution, NULL: uniform */
	unsigned cpos;
	uint64_t left;			/* random-map draws left in this pass (beside cpos: same line) */
	uint64_t cbuf[COVER_BATCH];	/* the map's next blocks, computed a batch at a time */
	struct cover cover;		/* full-coverage random map */
	uint64_t nslots;
	uint64_t home;			/* where the cursors start (walkers spread out) */
	unsigned dpos[DDIR_NR];
	uint64_t dbuf[DDIR_NR][DIST_BATCH];	/* each distribution's next blocks, a batch at a time */
	uint64_t last[DDIR_NR];		/* rw_sequencer=identical: the start the IOs repeat */
	uint64_t zstart, zbytes;	/* zonemode=strided: the zone, and the bytes done in it */
};

struct gen_stream {
	uint8_t rw;			/* RW_F_READ | RW_F_WRITE | RW_F_TRIM (a byte: the flags below share its word) */
	bool mixed;			/* reads and writes: draw the direction */
	uint8_t fixed_dir;		/* the direction when not mixed */
	bool random, randommap;
	bool ends;			/* its pass over a file ends (no stream walkers, which wrap) */
	bool special;			/* its sequential offsets come from seq_special() */
	bool ident, back;		/* rw_sequencer=identical; a negative skip (rw=read:-8k) */
	uint32_t back_by; /* back: the bytes each IO starts before the last one's end */
	bool seq_rand;	  /* bs_is_seq_rand: sizes from sr[0] sequential, sr[1] random */
	bool strided;	  /* zonemode=strided: offsets from strided_offset() */
	uint64_t zsize, zrange, zskip;
	uint64_t read_chance;
	unsigned rw_nr, nr_left;	/* random: IOs per new random offset */
	uint32_t skip;			/* sequential: bytes skipped after each IO */
	uint32_t slot;			/* random-map granularity */
	struct gen_dir dir[DDIR_NR];
	struct gen_range *range;	/* one per file */
	struct gen_dir sr[2];		/* bs_is_seq_rand: the sizes of sequential, random IOs */
};

#define GEN_STREAM_BATCH 16
_Static_assert(JOB_MAX_STREAMS <= 256, "gen.c keeps stream numbers in bytes");

struct gen {
	struct rng rng_ddir, rng_bs, rng_off, rng_file, rng_stream, rng_seq;
	unsigned nstreams;
	bool randommap;			/* a stream keeps a random map: gen_rewind() repeats passes */
	struct rng first[6];		/* the six generators as gen_new() left them, for gen_rewind() */
	unsigned spos;			/* next of sbuf */
	uint8_t sbuf[GEN_STREAM_BATCH];	/* the next IOs' streams (JOB_MAX_STREAMS is 256) */
	struct alias pick;		/* stream weights */
	unsigned fs_type, fs_nr, fs_left, cur;
	unsigned nfiles, ndone;
	unsigned tail;			/* enum gen_tail: what gen_next() does after the offset */
	struct dist *fdist; /* file_service_type=zipf, pareto or normal: over the files */
	uint64_t *file_bytes;		/* issued per file in this loop (sequential file service) */
	uint64_t *file_size;
	bool *done;			/* the file's pass is over: the next IO goes elsewhere */
	unsigned omax;			/* openfiles below nfiles, else 0 */
	unsigned nlive;			/* omax: files open whose pass is not over */
	bool *open;			/* omax: the file counts as open */
	struct gen_stream streams[];
};

static uint64_t job_seed(const struct job *job)
{
	uint64_t seed;

	if (job->o.randrepeat || job_opt_is_set(job, OPT_ID_randseed))
		return job->o.randseed;
	if (getrandom(&seed, sizeof(seed), 0) != sizeof(seed))
		seed = (uint64_t)(uintptr_t)&seed ^ 0x5bd1e995;
	return seed;
}

static uint32_t round_up_to(uint32_t bs, unsigned lbs, bool roundup)
{
	return roundup && lbs > bs ? lbs : bs;
}

/* The bssplit alias table, its entries turned into sizes.  Returns 0 or -errno. */
static int split_init(struct gen_dir *gd, const struct val_bssplit *bss, unsigned lbs, bool up)
{
	uint32_t sizes[VAL_BSSPLIT_MAX];
	double w[VAL_BSSPLIT_MAX];
	struct alias a;
	int ret;

	for (unsigned i = 0; i < bss->n; i++) {
		sizes[i] = round_up_to((uint32_t)bss->e[i].bs, lbs, up);
		w[i] = bss->e[i].pct;
	}
	ret = alias_init(&a, w, bss->n);
	if (ret)
		return ret;
	gd->split = calloc(bss->n, sizeof(*gd->split));
	if (!gd->split)
		return -ENOMEM;
	for (unsigned i = 0; i < bss->n; i++) {
		gd->split[i].thresh = a.e[i].thresh;
		gd->split[i].keep = sizes[i];
		gd->split[i].other = sizes[a.e[i].alias];
	}
	gd->nsizes = bss->n;
	return 0;
}

static int dir_init(struct gen_dir *gd, const struct job_opts *o, const unsigned min_bs[DDIR_NR],
		    const unsigned max_bs[DDIR_NR], unsigned d, unsigned lbs, bool random)
{
	bool up = o->direct && o->bs_roundup;
	double pct = o->pct_random_set & (1U << d) ? o->pct_random[d] : (random ? 100 : 0);

	gd->bs = round_up_to(min_bs[d], lbs, up);
	gd->align = o->blockalign[d] ? (uint32_t)o->blockalign[d] : gd->bs;
	gd->all_random = pct >= 100;
	gd->random_chance = rng_percent_threshold(pct);
	if (o->bssplit[d].n)
		return split_init(gd, &o->bssplit[d], lbs, up);
	if (o->bsrange[d].hi) {
		gd->lo = min_bs[d];
		gd->step = o->bs_unaligned ? 1 : min_bs[d];
		gd->nmult = o->bs_unaligned ? max_bs[d] - min_bs[d] + 1 : max_bs[d] / min_bs[d];
	}
	return 0;
}

/*
 * bs_is_seq_rand: the sizes of sequential (k 0) and random (k 1) IOs, from the read and write
 * settings as fio takes them, kept apart from the direction's own (offsets, alignment).
 */
static int seq_rand_init(struct gen_dir *gd, const struct job_opts *o, unsigned k, unsigned lbs)
{
	unsigned lo[DDIR_NR], hi[DDIR_NR];

	lo[k] = (unsigned)(o->bsrange[k].hi ? o->bsrange[k].lo : o->bs[k]);
	hi[k] = (unsigned)(o->bsrange[k].hi ? o->bsrange[k].hi : o->bs[k]);
	if (o->bssplit[k].n) {
		lo[k] = UINT32_MAX;
		hi[k] = 0;
		for (unsigned i = 0; i < o->bssplit[k].n; i++)
			if (o->bssplit[k].e[i].pct > 0) {
				lo[k] = (unsigned)o->bssplit[k].e[i].bs < lo[k] ?
						(unsigned)o->bssplit[k].e[i].bs :
						lo[k];
				hi[k] = (unsigned)o->bssplit[k].e[i].bs > hi[k] ?
						(unsigned)o->bssplit[k].e[i].bs :
						hi[k];
			}
	}
	return dir_init(gd, o, lo, hi, k, lbs, k == 1);
}

static bool is_uniform(const struct dist_spec *spec)
{
	return spec->type == DIST_UNIFORM;
}

/* True when two directions' distributions are the same law (then they share one struct dist). */
static bool spec_same(const struct dist_spec *a, const struct dist_spec *b)
{
	return a->type == b->type && a->param == b->param && a->has_center == b->has_center &&
	       (!a->has_center || a->center == b->center) && a->nzones == b->nzones &&
	       !memcmp(a->zones, b->zones, a->nzones * sizeof(a->zones[0]));
}

/*
 * hseed keys the hot set: the job's (every stream and direction of a clone draws its hot blocks
 * through one permutation, fio's meaning of one job, one hot set) or, with random_hotset, the
 * stream's own or one per direction.
 */
static int range_init(struct gen_stream *st, const struct job_stream *js, const struct job_opts *o,
		      struct gen_range *r, const struct target_file *tf, uint64_t seed,
		      uint64_t hseed, char *why)
{
	uint64_t size;
	int ret = 0;

	target_stream_range(js, tf, &r->start, &size);
	r->nslots = size / st->slot;
	r->size = r->nslots * st->slot;
	if (js && js->nwalkers > 1) {
		uint64_t first = js->o.walker_start.is_pct ?
					 (uint64_t)((long double)r->size * js->o.walker_start.pct / 100) :
					 js->o.walker_start.bytes;

		/* In 128 bits: with 1-byte slots nslots times the walker number passes 2^64. */
		r->home = r->nslots ? (uint64_t)(((unsigned __int128)first / st->slot +
						  (unsigned __int128)r->nslots * js->walker /
							  js->nwalkers) %
						 r->nslots) * st->slot : 0;
	}
	for (unsigned d = 0; d < DDIR_NR; d++) {
		r->pos[d] = r->home;
		r->dpos[d] = DIST_BATCH;
	}
	for (unsigned d = 0; d < DDIR_NR && !ret; d++) {
		uint64_t n;

		if (!(st->rw & (1U << d)) || is_uniform(&o->rdist[d]))
			continue;
		n = r->size / st->dir[d].align;
		for (unsigned e = 0; e < d && o->random_hotset != 2; e++)
			if (r->dist[e] && st->dir[e].align == st->dir[d].align &&
			    spec_same(&o->rdist[e], &o->rdist[d]))
				r->dist[d] = r->dist[e];
		if (r->dist[d])
			continue;
		r->dist[d] = malloc(sizeof(*r->dist[d]));
		if (!r->dist[d])
			return -ENOMEM;
		{
			struct dist_spec spec = o->rdist[d];

			spec.contiguous = !o->random_scatter;
			ret = dist_init(r->dist[d], &spec, n ? n : 1, st->dir[d].align,
					rng_mix64(hseed + (o->random_hotset == 2 ? d : 0)), why);
		}
	}
	r->cpos = COVER_BATCH;
	if (!ret && st->randommap)
		ret = cover_init(&r->cover, r->nslots ? r->nslots : 1, seed);
	return ret;
}

/* True when some direction of a sequential stream draws random offsets (percentage_random). */
static bool seeks(const struct gen_stream *st)
{
	for (unsigned d = 0; d < DDIR_NR; d++)
		if ((st->rw & (1U << d)) && (st->dir[d].all_random || st->dir[d].random_chance))
			return true;
	return false;
}

static int stream_init(struct gen *g, unsigned i, const struct job *job,
		       const struct job_stream *js, const struct target_plan *plan, uint64_t seed,
		       struct iowl_err *err)
{
	const struct job_opts *o = js ? &js->o : &job->o;
	const unsigned *min_bs = js ? js->min_bs : job->min_bs;
	const unsigned *max_bs = js ? js->max_bs : job->max_bs;
	struct gen_stream *st = &g->streams[i];
	char why[DIST_WHY_LEN] = "";
	bool nonuniform = false;

	st->rw = (uint8_t)(o->rw & (RW_F_READ | RW_F_WRITE | RW_F_TRIM));
	st->mixed = (st->rw & (RW_F_READ | RW_F_WRITE)) == (RW_F_READ | RW_F_WRITE);
	st->fixed_dir = st->rw & RW_F_READ ? 0 : st->rw & RW_F_WRITE ? 1 : 2;
	if (o->rw & RW_F_TRIMWRITE)
		st->fixed_dir = 2;	/* the trims: the worker writes each trimmed block after */
	st->random = o->rw & RW_F_RANDOM;
	st->read_chance = rng_percent_threshold(o->rwmixread);
	st->rw_nr = st->random ? o->rw_nr : 0;
	st->skip = st->random || o->rw_back ? 0 : o->rw_nr;
	st->back = !st->random && o->rw_back;
	st->back_by = st->back ? o->rw_nr : 0;
	st->ident = st->random && o->rw_nr > 1 && o->rw_sequencer == 1;
	st->special = st->back || st->ident;
	st->strided = o->zonemode == ZONEMODE_STRIDED;
	st->zsize = o->zonesize;
	st->zrange = o->zonerange ? o->zonerange : o->zonesize;
	st->zskip = o->zoneskip;
	if (st->ident)
		g->tail |= GEN_TAIL_IDENT;
	st->slot = UINT32_MAX;
	for (unsigned d = 0; d < DDIR_NR; d++) {
		int ret;

		if (!(st->rw & (1U << d)))
			continue;
		ret = dir_init(&st->dir[d], o, min_bs, max_bs, d, plan->lbs,
			       st->random || (o->pct_random_set & (1U << d)));
		if (ret == -ENOMEM)
			return err_nomem(err, "out of memory");
		if (ret)
			return err_at(err, job->file, job->line, "job '%s': bad bssplit weights",
				      job->o.name);
		st->slot = st->dir[d].align < st->slot ? st->dir[d].align : st->slot;
		nonuniform = nonuniform || !is_uniform(&o->rdist[d]);
	}
	st->seq_rand = o->bs_is_seq_rand;
	for (unsigned k = 0; k < 2 && st->seq_rand; k++)
		if (seq_rand_init(&st->sr[k], o, k, plan->lbs))
			return err_at(err, job->file, job->line, "job '%s': bad bssplit weights",
				      job->o.name);
	/* As in fio, a non-uniform distribution turns the random map off; the seeks of a
	 * sequential stream (percentage_random) are plain uniform draws.  fio's lfsr never repeats a
	 * block within a pass, norandommap or not: iowl's random map is that permutation. */
	st->randommap = st->random && (!o->norandommap || o->random_generator == RANDGEN_LFSR) &&
			!nonuniform;
	/*
	 * As in fio, a pass over a file ends where a purely sequential stream reaches the end of
	 * its range, or once the random map has given every slot; a job of streams keeps its
	 * walkers wrapping, and other patterns end their pass by its bytes (backwards ones too).
	 * With a non-uniform file service the random map of a file starts again when it is full,
	 * as fio resets it, so the hot files keep their share.
	 */
	st->ends = !js &&
		   ((st->randommap && g->fs_type != FS_DIST) ||
		    (!st->random && !seeks(st) && !st->back)) &&
		   !st->strided;
	st->range = calloc(plan->nfiles, sizeof(*st->range));
	if (!st->range)
		return err_nomem(err, "out of memory");
	for (unsigned f = 0; f < plan->nfiles; f++) {
		uint64_t rseed = rng_mix64(seed ^ ((uint64_t)i << 40) ^ ((uint64_t)f << 20));
		uint64_t hseed = o->random_hotset ? rseed : rng_mix64(seed ^ ((uint64_t)f << 20));
		int ret = range_init(st, js, o, &st->range[f], &plan->files[f], rseed, hseed, why);

		if (ret)
			return err_at(err, js ? js->file : job->file, js ? js->line : job->line,
				      "job '%s'%s%s: %s", job->o.name, js ? ", stream " : "",
				      js ? js->name : "", why[0] ? why : strerror(-ret));
	}
	return 0;
}

/* file_service_type=zipf, pareto or normal: the law over the files, scattered as random_scatter says. */
static int file_dist_init(struct gen *g, const struct job *job, uint64_t seed, struct iowl_err *err)
{
	struct dist_spec spec = { .type = job->o.file_service_dist,
				  .param = job->o.file_service_param,
				  .contiguous = !job->o.random_scatter };
	char why[DIST_WHY_LEN] = "";

	g->fdist = malloc(sizeof(*g->fdist));
	if (!g->fdist)
		return err_set(err, "out of memory");
	if (dist_init(g->fdist, &spec, g->nfiles, 1, rng_mix64(seed ^ RNG_FILE), why))
		return err_at(err, job->file, job->line, "job '%s': file_service_type: %s",
			      job->o.name, why);
	return 0;
}

static int pick_init(struct gen *g, const struct job *job)
{
	double w[JOB_MAX_STREAMS];

	if (g->nstreams < 2)
		return 0;
	for (unsigned i = 0; i < g->nstreams; i++)
		w[i] = job->streams[i].weight;
	return alias_init(&g->pick, w, g->nstreams);
}

struct gen *gen_new(const struct job *job, unsigned clone, unsigned thread_number,
		    const struct target_plan *plan, struct iowl_err *err)
{
	unsigned ns = job->nstreams ? job->nstreams : 1;
	struct gen *g = calloc(1, sizeof(*g) + ns * sizeof(struct gen_stream));
	uint64_t seed = job_seed(job);

	if (!g) {
		err_nomem(err, "out of memory");
		return NULL;
	}
	g->nstreams = ns;
	g->spos = GEN_STREAM_BATCH;
	rng_init(&g->rng_ddir, seed, rng_stream_id(thread_number, RNG_DDIR));
	rng_init(&g->rng_bs, seed, rng_stream_id(thread_number, RNG_BS));
	rng_init(&g->rng_off, seed, rng_stream_id(thread_number, RNG_OFF));
	rng_init(&g->rng_file, seed, rng_stream_id(thread_number, RNG_FILE));
	rng_init(&g->rng_stream, seed, rng_stream_id(thread_number, RNG_STREAM));
	rng_init(&g->rng_seq, seed, rng_stream_id(thread_number, RNG_SEQ));
	g->fs_type = job->o.file_service;
	g->tail = g->fs_type == FS_SEQUENTIAL ? GEN_TAIL_FILE_BYTES : 0;
	g->fs_nr = job->o.file_service_nr ? job->o.file_service_nr : 1;
	g->nfiles = plan->nfiles;
	g->file_bytes = calloc(plan->nfiles, sizeof(*g->file_bytes));
	g->file_size = calloc(plan->nfiles, sizeof(*g->file_size));
	g->done = calloc(plan->nfiles, sizeof(*g->done));
	if (plan->lazy) {
		g->omax = job->o.openfiles;
		g->open = calloc(plan->nfiles, sizeof(*g->open));
	}
	if (!g->file_bytes || !g->file_size || !g->done || (g->omax && !g->open)) {
		err_nomem(err, "out of memory");
		goto out_free;
	}
	for (unsigned f = 0; f < plan->nfiles; f++)
		g->file_size[f] = plan->files[f].size;
	if (g->fs_type == FS_DIST && file_dist_init(g, job, seed, err))
		goto out_free;
	for (unsigned i = 0; i < ns; i++)
		if (stream_init(g, i, job, job->nstreams ? &job->streams[i] : NULL, plan,
				rng_mix64(seed + rng_stream_id(thread_number, RNG_COVER)), err))
			goto out_free;
	if (pick_init(g, job)) {
		err_at(err, job->file, job->line, "job '%s': bad stream weights", job->o.name);
		goto out_free;
	}
	g->first[0] = g->rng_ddir;
	g->first[1] = g->rng_bs;
	g->first[2] = g->rng_off;
	g->first[3] = g->rng_file;
	g->first[4] = g->rng_stream;
	g->first[5] = g->rng_seq;
	for (unsigned i = 0; i < ns; i++)
		g->randommap = g->randommap || g->streams[i].randommap;
	gen_restart(g);
	(void)clone;
	return g;
out_free:
	gen_free(g);
	return NULL;
}

void gen_free(struct gen *g)
{
	if (!g)
		return;
	for (unsigned i = 0; i < g->nstreams; i++) {
		for (unsigned d = 0; d < DDIR_NR; d++)
			free(g->streams[i].dir[d].split);
		for (unsigned k = 0; k < 2; k++)
			free(g->streams[i].sr[k].split);
		for (unsigned f = 0; g->streams[i].range && f < g->nfiles; f++)
			for (unsigned d = 0; d < DDIR_NR; d++) {
				struct dist **dist = g->streams[i].range[f].dist;

				/* directions of one law share it */
				if (!(d > 0 && dist[d] == dist[d - 1]) && !(d > 1 && dist[d] == dist[0]))
					free(dist[d]);
			}
		free(g->streams[i].range);
	}
	free(g->fdist);
	free(g->file_bytes);
	free(g->file_size);
	free(g->done);
	free(g->open);
	free(g);
}

void gen_restart(struct gen *g)
{
	for (unsigned i = 0; i < g->nstreams; i++)
		for (unsigned f = 0; f < g->nfiles; f++) {
			struct gen_range *r = &g->streams[i].range[f];

			for (unsigned d = 0; d < DDIR_NR; d++)
				r->pos[d] = r->home;
			r->left = r->nslots;
		}
	memset(g->file_bytes, 0, g->nfiles * sizeof(*g->file_bytes));
	memset(g->done, 0, g->nfiles * sizeof(*g->done));
	g->ndone = 0;
	g->nlive = 0;
	for (unsigned f = 0; g->omax && f < g->nfiles; f++)
		g->nlive += g->open[f];
	/* The first IO goes to file 0, or with file_service_type=random to a file drawn. */
	g->cur = 0;
	g->fs_left = g->fs_type >= FS_RANDOM ? 0 : g->fs_nr;
}

void gen_rewind(struct gen *g)
{
	if (g->randommap) {
		g->rng_ddir = g->first[0];
		g->rng_bs = g->first[1];
		g->rng_off = g->first[2];
		g->rng_file = g->first[3];
		g->rng_stream = g->first[4];
		g->rng_seq = g->first[5];
		g->spos = GEN_STREAM_BATCH;
		for (unsigned i = 0; i < g->nstreams; i++) {
			struct gen_stream *st = &g->streams[i];

			st->nr_left = 0;
			for (unsigned f = 0; f < g->nfiles; f++) {
				struct gen_range *r = &st->range[f];

				r->cpos = COVER_BATCH;
				for (unsigned d = 0; d < DDIR_NR; d++)
					r->dpos[d] = DIST_BATCH;
				if (st->randommap)
					cover_init(&r->cover, r->cover.n, r->cover.seed);
			}
		}
	}
	gen_restart(g);
}

bool gen_pass_done(const struct gen *g)
{
	return g->ndone == g->nfiles;
}

/* The pass over file fi is over: later IOs of the pass go to the other files. */
static __attribute__((noinline, cold)) void file_done(struct gen *g, unsigned fi)
{
	if (!g->done[fi]) {
		g->done[fi] = true;
		g->ndone++;
		if (g->omax && g->open[fi])
			g->nlive--;
	}
}

bool gen_files_limited(const struct gen *g)
{
	return g->omax != 0;
}

bool gen_file_done(const struct gen *g, unsigned f)
{
	return g->done[f];
}

void gen_file_opened(struct gen *g, unsigned f)
{
	if (g->omax && !g->open[f]) {
		g->open[f] = true;
		g->nlive += !g->done[f];
	}
}

void gen_file_closed(struct gen *g, unsigned f)
{
	if (g->omax && g->open[f]) {
		g->open[f] = false;
		g->nlive -= !g->done[f];
	}
}

/* openfiles: f may take the next IO: its pass is not over, and it is open or one more may be. */
static bool file_usable(const struct gen *g, unsigned f)
{
	return !g->done[f] && (g->open[f] || g->nlive < g->omax);
}

/*
 * pick_file() under openfiles, as fio's file service: round robin (and sequential) goes on to
 * the next usable file, random draws again until it hits one (fio's get_next_file_rand() tries
 * another file when one would need opening with openfiles open).  The file picked counts as
 * open from here.
 */
static __attribute__((noinline)) unsigned pick_file_limited(struct gen *g, uint32_t bs)
{
	bool all_done = g->ndone == g->nfiles;

	if (g->fs_type == FS_SEQUENTIAL) {
		if (g->file_bytes[g->cur] + bs > g->file_size[g->cur] && g->cur + 1 < g->nfiles)
			g->cur++;
	} else if (g->fs_left-- == 0 || (!all_done && !file_usable(g, g->cur))) {
		g->fs_left = g->fs_nr - 1;
		if (g->fs_type == FS_RANDOM || g->fs_type == FS_DIST) {
			for (unsigned i = 0; i < 64; i++) {
				g->cur = g->fs_type == FS_RANDOM ?
						 (unsigned)rng_below(&g->rng_file, g->nfiles) :
						 (unsigned)dist_next(g->fdist, &g->rng_file);
				if (all_done || file_usable(g, g->cur))
					break;
			}
		} else {
			g->cur = g->cur + 1 == g->nfiles ? 0 : g->cur + 1;
		}
	}
	/* else the next one that is (after the pass, which wraps, the next open one) */
	for (unsigned i = 0; i < g->nfiles; i++) {
		if (all_done ? g->open[g->cur] : file_usable(g, g->cur))
			break;
		g->cur = g->cur + 1 == g->nfiles ? 0 : g->cur + 1;
	}
	if (!g->open[g->cur]) {
		g->open[g->cur] = true;
		g->nlive += !g->done[g->cur];
	}
	return g->cur;
}

static inline unsigned pick_dir(struct gen *g, const struct gen_stream *st)
{
	if (st->mixed)
		return rng_chance(&g->rng_ddir, st->read_chance) ? 0 : 1;
	return st->fixed_dir;
}

static inline uint32_t pick_bs(struct gen *g, const struct gen_dir *gd)
{
	if (gd->nsizes) {
		uint32_t frac, col = alias_column(rng_next(&g->rng_bs), gd->nsizes, &frac);
		const struct gen_bs *e = &gd->split[col];
		/* a mask, as in alias_pick(): gcc compiles ?: here to a mispredicted branch */
		uint32_t keep = -(uint32_t)(frac < e->thresh);

		return (e->keep & keep) | (e->other & ~keep);
	}
	if (gd->nmult > 1)
		return gd->lo + gd->step * (uint32_t)rng_below(&g->rng_bs, gd->nmult);
	return gd->bs;
}

static inline unsigned pick_file(struct gen *g, uint32_t bs)
{
	if (g->nfiles == 1)
		return 0;
	if (__builtin_expect(g->omax != 0, 0))
		return pick_file_limited(g, bs);
	if (g->fs_type == FS_SEQUENTIAL) {
		if (g->file_bytes[g->cur] + bs > g->file_size[g->cur] && g->cur + 1 < g->nfiles)
			g->cur++;
	} else if (g->fs_left-- == 0) {
		g->fs_left = g->fs_nr - 1;
		if (g->fs_type == FS_RANDOM)
			g->cur = (unsigned)rng_below(&g->rng_file, g->nfiles);
		else if (g->fs_type == FS_DIST)
			g->cur = (unsigned)dist_next(g->fdist, &g->rng_file);
		else
			g->cur = g->cur + 1 == g->nfiles ? 0 : g->cur + 1;
	}
	/* A file whose pass is over hands its turn to the next one that is not. */
	while (__builtin_expect(g->done[g->cur], 0) && g->ndone < g->nfiles)
		g->cur = g->cur + 1 == g->nfiles ? 0 : g->cur + 1;
	return g->cur;
}

/* What gen_tail bits ask for once the IO is made. */
static void gen_tail(struct gen *g, const struct gen_stream *st, struct gen_range *r, unsigned d,
		     unsigned fi, uint64_t off, uint32_t bs)
{
	if (st->ident)
		r->last[d] = off;
	if (g->tail & GEN_TAIL_FILE_BYTES)
		g->file_bytes[fi] += bs;
	if (g->tail & GEN_TAIL_MAP_END) {
		g->tail &= ~GEN_TAIL_MAP_END;
		file_done(g, fi);
	}
}

/*
 * A sequential IO at off near the end of its range, of *bs bytes: walkers wrap to the start
 * when it does not fit; a job's pass takes, for its last IO, another size that fits (drawn
 * as fio redraws, else the smallest) and is over in this file when no block fits after it
 * (unless its skip takes the next start past the end).  Returns the IO's offset.
 */
static __attribute__((noinline, cold)) uint64_t seq_tail(struct gen *g,
							  const struct gen_stream *st,
							  const struct gen_range *r,
							  const struct gen_dir *gd, uint64_t off,
							  uint32_t *bs)
{
	if (st->ident) /* rw_sequencer=identical: the last jump's start again */
		return r->last[gd - st->dir];
	if (st->back) {
		/*
		 * fio's backwards IO (rw=read:-8k): each IO starts N before the end of the one
		 * before, the first at the start; one that would start before the start goes round
		 * to N before the end.  (The IO after it is then the one that fits, see gen_next().)
		 */
		if (!off)
			return 0;
		if (off >= st->back_by)
			return off - st->back_by;
		return r->size >= st->back_by ? r->size - st->back_by : 0;
	}
	if (off + *bs > r->size && (!st->ends || off + gd->bs > r->size))
		return 0;	/* walkers wrap at the end of their range */
	for (unsigned i = 0; off + *bs > r->size; i++)
		*bs = i < 16 ? pick_bs(g, gd) : gd->bs;
	/* As fio, an IO that ends before the end with the next one, after its :N skip, starting
	 * at or past it goes round to the start (the job ends on its bytes): not done. */
	if (st->ends && off + *bs + st->skip + gd->bs > r->size &&
	    (off + *bs + st->skip < r->size || off + *bs >= r->size))
		file_done(g, (unsigned)(r - st->range));
	return off;
}

/*
 * zonemode=strided, as fio: the IOs fall in a zone of zrange bytes, sequential from its start
 * (round to it past its end) or uniform in it, until zsize bytes were done there; then the next
 * zone starts zrange + zskip further, round to the start of the range past its end (fio goes on
 * to the end of the file, past the region).
 */
static __attribute__((noinline, cold)) uint64_t strided_offset(struct gen *g,
							       const struct gen_stream *st,
							       struct gen_range *r, unsigned d,
							       uint32_t bs, bool jumps)
{
	const struct gen_dir *gd = &st->dir[d];
	uint64_t span;

	if (r->zbytes >= st->zsize) {
		r->zbytes = 0;
		r->zstart += st->zrange + st->zskip;
		if (r->zstart >= r->size)
			r->zstart = 0;
		r->pos[d] = r->zstart;
	}
	if (r->pos[d] >= r->zstart + st->zrange || r->pos[d] < r->zstart)
		r->pos[d] = r->zstart;
	r->zbytes += bs;
	if (!jumps)
		return r->pos[d];
	span = r->size - r->zstart < st->zrange ? r->size - r->zstart : st->zrange;
	return r->zstart +
	       rng_below(&g->rng_off, bs <= span ? (span - bs) / gd->align + 1 : 1) * gd->align;
}

/* A random start: a distribution, each slot once per pass with the random map, or uniform. */
static inline uint64_t random_offset(struct gen *g, const struct gen_stream *st,
				     struct gen_range *r, unsigned d, uint32_t bs)
{
	const struct gen_dir *gd = &st->dir[d];
	uint64_t off;

	if (r->dist[d]) {
		if (r->dpos[d] == DIST_BATCH) {
			dist_fill(r->dist[d], &g->rng_off, r->dbuf[d]);
			r->dpos[d] = 0;
		}
		return r->dbuf[d][r->dpos[d]++] * gd->align;
	}
	if (st->randommap) {
		if (r->cpos == COVER_BATCH) {
			cover_fill(&r->cover, r->cbuf);
			r->cpos = 0;
		}
		off = r->cbuf[r->cpos++] * st->slot;
		if (__builtin_expect(--r->left == 0, 0)) {
			r->left = r->nslots;
			g->tail |= st->ends ? GEN_TAIL_MAP_END : 0;
		}
		return gd->align == st->slot ? off : off - off % gd->align;
	}
	return rng_below(&g->rng_off, bs <= r->size ? (r->size - bs) / gd->align + 1 : 1) *
	       gd->align;
}

static inline bool jump(struct gen *g, struct gen_stream *st, const struct gen_dir *gd)
{
	if (__builtin_expect(st->rw_nr > 1, 0)) {
		if (st->nr_left) {
			st->nr_left--;
			return false;
		}
		st->nr_left = st->rw_nr - 1;
		return true;
	}
	return gd->all_random || (gd->random_chance && rng_chance(&g->rng_seq, gd->random_chance));
}

/*
 * The stream of the next IO, picked a batch ahead.  Everything else of an IO hangs on its
 * stream, and one pick per IO was a chain of a random number, a multiply and two table loads
 * that every branch on the stream's kind waited for (and, mispredicted, paid for twice); a
 * batch of independent picks runs at the multiplier's pace.  The order is the one single
 * picks give.  (Drawing directions and sizes ahead as well was slower: their branches on the
 * stream's kind then mispredict in the batch loop as well as in gen_next().)
 */
static inline unsigned pick_stream(struct gen *g)
{
	if (g->nstreams < 2)
		return 0;
	if (g->spos == GEN_STREAM_BATCH) {
		for (unsigned i = 0; i < GEN_STREAM_BATCH; i++)
			g->sbuf[i] = (uint8_t)alias_pick(&g->pick, &g->rng_stream);
		g->spos = 0;
	}
	return g->sbuf[g->spos++];
}

void gen_next(struct gen *g, struct io_u *io)
{
	unsigned s = pick_stream(g);
	struct gen_stream *st = &g->streams[s];
	unsigned d = pick_dir(g, st);
	const struct gen_dir *gd = &st->dir[d];
	bool jumps = jump(g, st, gd);
	uint32_t bs = pick_bs(g, __builtin_expect(st->seq_rand, 0) ? &st->sr[jumps] : gd);
	unsigned fi = pick_file(g, bs);
	struct gen_range *r = &st->range[fi];
	uint64_t off;

	if (__builtin_expect(st->strided, 0)) {
		off = strided_offset(g, st, r, d, bs, jumps);
	} else if (jumps) {
		off = random_offset(g, st, r, d, bs);
	} else {
		off = r->pos[d];
		if (__builtin_expect(st->special || off + bs + st->skip + gd->bs > r->size, 0))
			off = seq_tail(g, st, r, gd, off, &bs);
	}
	/* An IO never runs past its range: one drawn too close to the end starts earlier, so
	 * the size mix stays exactly as asked (ranges are checked to hold the largest IO). */
	if (off + bs > r->size)
		off = (r->size - bs) / gd->align * gd->align;
	r->pos[d] = off + bs + st->skip;
	if (__builtin_expect(g->tail, 0))
		gen_tail(g, st, r, d, fi, off, bs);
	io->op = (uint8_t)d;
	io->file = fi;
	io->offset = r->start + off;
	io->len = bs;
	io->stream = s;
}
