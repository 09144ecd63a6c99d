// SPDX-License-Identifier: MIT
/* The option-specific value parsers (OPT_FUNC rows of the option table): rw=, bssplit=, ignore_error=, patterns and the like. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "iowl/clock.h"
#include "iowl/job_opts.h"
#include "iowl/options.h"
#include "iowl/pattern/dist.h"
#include "iowl/suggest.h"
#include "iowl/value.h"

#include "options_int.h"

#define NS_S NSEC_PER_SEC

/*
 * The ":N" of rw=: for random patterns a count of IOs between new random offsets, for
 * sequential ones a number of bytes skipped after each IO (rw=write:4k), as in fio.
 */
static int parse_rw_nr(struct job_opts *o, const char *nr, const char *v, size_t len, char *why)
{
	uint64_t n;
	int ret;

	/* fio: a negative skip goes backwards (rw=read:-8k) */
	o->rw_back = !(o->rw & RW_F_RANDOM) && *nr == '-';
	nr += o->rw_back;
	if (o->rw & RW_F_RANDOM)
		ret = val_parse_u64(nr, &n, why);
	else
		ret = val_parse_size(nr, o->kb_base, &n, why);
	if (ret || n == 0 || n > UINT32_MAX) {
		snprintf(why, VAL_WHY_LEN, "'%s' has a bad ':N' suffix (%s, e.g. %.*s:%s)", v,
			 o->rw & RW_F_RANDOM ? "IOs per random offset, 1 or more" :
					       "bytes skipped after each IO, or with '-' gone back",
			 (int)len, v, o->rw & RW_F_RANDOM ? "8" : "4k");
		return -EINVAL;
	}
	o->rw_nr = (unsigned)n;
	return 0;
}

int opt_parse_rw(const struct opt_def *def, struct job_opts *o, const char *v, char *why)
{
	static const struct {
		const char *name;
		unsigned flags;
	} modes[] = {
		{ "read", RW_F_READ },
		{ "write", RW_F_WRITE },
		{ "trim", RW_F_TRIM },
		{ "randread", RW_F_READ | RW_F_RANDOM },
		{ "randwrite", RW_F_WRITE | RW_F_RANDOM },
		{ "randtrim", RW_F_TRIM | RW_F_RANDOM },
		{ "rw", RW_F_READ | RW_F_WRITE },
		{ "readwrite", RW_F_READ | RW_F_WRITE },
		{ "randrw", RW_F_READ | RW_F_WRITE | RW_F_RANDOM },
		{ "trimwrite", RW_F_TRIM | RW_F_WRITE | RW_F_TRIMWRITE },
		{ "randtrimwrite", RW_F_TRIM | RW_F_WRITE | RW_F_TRIMWRITE | RW_F_RANDOM },
	};
	const char *colon = v ? strchr(v, ':') : NULL;
	size_t len = colon ? (size_t)(colon - v) : (v ? strlen(v) : 0);

	for (size_t i = 0; v && i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (strlen(modes[i].name) != len || strncmp(modes[i].name, v, len))
			continue;
		o->rw = modes[i].flags;
		o->rw_nr = 0;
		o->rw_back = false;
		if (colon && parse_rw_nr(o, colon + 1, v, len, why))
			return -EINVAL;
		return 0;
	}
	{
		const char *names[sizeof(modes) / sizeof(modes[0])];
		const char *best;
		char word[64];

		for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
			names[i] = modes[i].name;
		snprintf(word, sizeof(word), "%.*s", (int)len, v ? v : "");
		best = suggest_closest(word, names, sizeof(names) / sizeof(names[0]));
		snprintf(why, VAL_WHY_LEN,
			 "'%s' is not an IO pattern (use read, write, trim, randread, randwrite, randtrim, rw, randrw, trimwrite or randtrimwrite%s%s%s)",
			 v ? v : "", best ? "; did you mean '" : "", best ? best : "",
			 best ? "'?" : "");
	}
	return -EINVAL;
}

int opt_parse_rwmixwrite(const struct opt_def *def, struct job_opts *o, const char *v, char *why)
{
	uint64_t n;

	if (val_parse_u64(v ? v : "", &n, why))
		return -EINVAL;
	if (n > 100) {
		snprintf(why, VAL_WHY_LEN, "%llu is out of range (0 to 100)",
			 (unsigned long long)n);
		return -ERANGE;
	}
	o->rwmixread = 100 - (unsigned)n;
	return 0;
}

static int one_dir_iops(const char *elem, unsigned dir, void *ctx, char *why)
{
	uint64_t *out = ctx;

	/* k and m are thousands here: 50k IOPS */
	return val_parse_size(elem, 1000, &out[dir], why);
}

/* An IOPS figure per direction (rate_iops, rate_iops_min) into the uint64_t[3] at def->off. */
int opt_parse_dir_iops(const struct opt_def *def, struct job_opts *o, const char *v, char *why)
{
	unsigned mask;

	return val_parse_per_dir(v ? v : "", one_dir_iops, opt_field(o, def), &mask, why);
}

int opt_parse_buffered(const struct opt_def *def, struct job_opts *o, const char *v, char *why)
{
	bool b;

	if (val_parse_bool(v, &b, why))
		return -EINVAL;
	o->direct = !b;
	return 0;
}

/* fio's gtod_cpu sets a CPU aside to keep the time in shared memory: iowl refuses it, saying why. */
int opt_parse_gtod_cpu(const struct opt_def *def, struct job_opts *o, const char *v, char *why)
{
	snprintf(why, VAL_WHY_LEN,
		 "is refused: iowl reads the CPU's time-stamp counter (a few ns, no system call), which a CPU set aside to keep the time would not beat; leave it out");
	return -EINVAL;
}

/* fio's gtod_reduce=1 sets the four disable_* options and clears the percentiles; 0 changes nothing. */
int opt_parse_gtod_reduce(const struct opt_def *def, struct job_opts *o, const char *v, char *why)
{
	bool b;

	if (val_parse_bool(v, &b, why))
		return -EINVAL;
	if (b) {
		o->disable_lat = o->disable_clat = o->disable_slat = o->disable_bw = true;
		o->clat_percentiles = o->lat_percentiles = o->slat_percentiles = false;
	}
	return 0;
}

int opt_parse_sqpoll_cpu(const struct opt_def *def, struct job_opts *o, const char *v, char *why)
{
	int64_t n;

	if (val_parse_s64(v ? v : "", &n, why))
		return -EINVAL;
	if (n < -1 || n > 65535) {
		snprintf(why, VAL_WHY_LEN, "%lld is not a CPU number (0 to 65535, or -1 for none)",
			 (long long)n);
		return -ERANGE;
	}
	o->sqthread_poll_cpu = (int)n;
	return 0;
}

/* profile= in a job file: fio 3.33 ignores it there; it makes jobs only on the command line. */
int opt_parse_profile(const struct opt_def *def, struct job_opts *o, const char *v, char *why)
{
	(void)def;
	(void)o;
	snprintf(why, VAL_WHY_LEN,
		 "a profile makes its own jobs: give it on the command line (iowl --profile=%s); in a job file fio 3.33 ignores it",
		 v && *v ? v : "tiobench");
	return -EINVAL;
}

/* log_alternate_epoch_clock_id: a clock clock_gettime() has here. */
int opt_parse_clock_id(const struct opt_def *def, struct job_opts *o, const char *v, char *why)
{
	struct timespec ts;
	uint64_t id;

	(void)def;
	if (val_parse_u64(v ? v : "", &id, why))
		return -EINVAL;
	if (id > INT_MAX || clock_gettime((clockid_t)id, &ts)) {
		snprintf(why, VAL_WHY_LEN,
			 "clock_gettime() has no clock %s here (0 CLOCK_REALTIME, 1 CLOCK_MONOTONIC, 4 CLOCK_MONOTONIC_RAW, 7 CLOCK_BOOTTIME, 11 CLOCK_TAI)",
			 v);
		return -EINVAL;
	}
	o->log_clock_id = (unsigned)id;
	return 0;
}

int opt_parse_kb_base(const struct opt_def *def, struct job_opts *o, const char *v, char *why)
{
	uint64_t n;

	if (val_parse_u64(v ? v : "", &n, why) || (n != 1000 && n != 1024)) {
		snprintf(why, VAL_WHY_LEN, "'%s' is not a kb_base (use 1024 or 1000)", v ? v : "");
		return -EINVAL;
	}
	o->kb_base = (unsigned)n;
	return 0;
}

int opt_one_dir_size(const char *elem, unsigned dir, void *ctx, char *why)
{
	struct job_opts *o = ((void **)ctx)[0];
	uint64_t *out = ((void **)ctx)[1];

	return val_parse_size(elem, o->kb_base, &out[dir], why);
}

static int one_bsrange(const char *elem, unsigned dir, void *ctx, char *why)
{
	struct job_opts *o = ctx;

	return val_parse_irange(elem, o->kb_base, &o->bsrange[dir], why);
}

int opt_parse_bsrange(const struct opt_def *def, struct job_opts *o, const char *v, char *why)
{
	unsigned mask;

	return val_parse_per_dir(v ? v : "", one_bsrange, o, &mask, why);
}

static int one_bssplit(const char *elem, unsigned dir, void *ctx, char *why)
{
	struct job_opts *o = ctx;

	return val_parse_bssplit_one(elem, o->kb_base, &o->bssplit[dir], why);
}

int opt_parse_bssplit(const struct opt_def *def, struct job_opts *o, const char *v, char *why)
{
	unsigned mask;

	return val_parse_per_dir(v ? v : "", one_bssplit, o, &mask, why);
}

/* io_uring's nonvectored: -1, 0 or 1 (fio takes any int: non-zero is READ/WRITE). */
int opt_parse_nonvectored(const struct opt_def *def, struct job_opts *o, const char *v, char *why)
{
	int64_t n;

	(void)def;
	if (val_parse_s64(v, &n, why))
		return -EINVAL;
	o->nonvectored = n < 0 ? -1 : n > 0;
	return 0;
}

/* replay_skip: fio's list of read, write, trim and sync. */
int opt_parse_replay_skip(const struct opt_def *def, struct job_opts *o, const char *v, char *why)
{
	static const char *const names[] = { "read", "write", "trim", "sync" };
	char *dup = strdup(v ? v : ""), *save = NULL;
	unsigned mask = 0, i;

	(void)def;
	if (!dup)
		return -ENOMEM;
	for (char *t = strtok_r(dup, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < 4 && strcmp(t, names[i]); i++)
			;
		if (i == 4) {
			snprintf(why, VAL_WHY_LEN, "'%.32s' is not read, write, trim or sync", t);
			free(dup);
			return -EINVAL;
		}
		mask |= 1U << i;
	}
	free(dup);
	o->replay_skip = mask;
	return 0;
}

int opt_parse_filesize(const struct opt_def *def, struct job_opts *o, const char *v, char *why)
{
	if (v && !strpbrk(v, "-:")) {
		if (val_parse_size(v, o->kb_base, &o->filesize.lo, why))
			return -EINVAL;
		o->filesize.hi = o->filesize.lo;
		return 0;
	}
	return val_parse_irange(v ? v : "", o->kb_base, &o->filesize, why);
}

int opt_parse_startdelay(const struct opt_def *def, struct job_opts *o, const char *v, char *why)
{
	const char *dash = v ? strpbrk(v, "-:") : NULL;
	char lo[64];

	if (!v)
		return val_parse_time_ns("", NS_S, &o->startdelay.lo, why);
	if (!dash) {
		if (val_parse_time_ns(v, NS_S, &o->startdelay.lo, why))
			return -EINVAL;
		o->startdelay.hi = o->startdelay.lo;
		return 0;
	}
	if ((size_t)(dash - v) >= sizeof(lo)) {
		snprintf(why, VAL_WHY_LEN, "'%s' is not a time range (use lo-hi, e.g. 1s-5s)", v);
		return -EINVAL;
	}
	memcpy(lo, v, (size_t)(dash - v));
	lo[dash - v] = '\0';
	if (val_parse_time_ns(lo, NS_S, &o->startdelay.lo, why) ||
	    val_parse_time_ns(dash + 1, NS_S, &o->startdelay.hi, why))
		return -EINVAL;
	if (o->startdelay.lo > o->startdelay.hi) {
		uint64_t t = o->startdelay.lo;

		o->startdelay.lo = o->startdelay.hi;
		o->startdelay.hi = t;
	}
	return 0;
}

int opt_parse_pct_list(const struct opt_def *def, struct job_opts *o, const char *v, char *why)
{
	return val_parse_double_list(v ? v : "", 0.0, 100.0, o->percentile_list, JOB_PCT_MAX,
				     &o->npercentiles, why);
}

/* One errno of ignore_error: a name (ENOSPC) or a number (28). */
static int one_errno(const char *s, size_t n, int *out, char *why)
{
	char name[32];
	char *end;
	long e;

	if (!n || n >= sizeof(name)) {
		snprintf(why, VAL_WHY_LEN,
			 "an empty errno in a list (use names or numbers joined by ':', e.g. EIO:ENOSPC)");
		return -EINVAL;
	}
	memcpy(name, s, n);
	name[n] = '\0';
	e = strtol(name, &end, 10);
	if (!*end && e > 0 && e < 4096) {
		*out = (int)e;
		return 0;
	}
	for (e = 1; e < 4096; e++) {
		const char *nm = strerrorname_np((int)e);

		if (nm && !strcmp(nm, name)) {
			*out = (int)e;
			return 0;
		}
	}
	snprintf(why, VAL_WHY_LEN, "'%s' is not an errno name or number (e.g. EIO, ENOSPC or 28)",
		 name);
	return -EINVAL;
}

/*
 * ignore_error=READ,WRITE,VERIFY in fio's syntax: each a list of errnos joined by ':', an empty
 * one leaving its type as it is; a list replaces the type's errnos and turns on its
 * continue_on_error bit (fio does the same).
 */
int opt_parse_ignore_error(const struct opt_def *def, struct job_opts *o, const char *v, char *why)
{
	const char *p = v ? v : "";
	unsigned type = 0;

	for (;; type++) {
		const char *end = p + strcspn(p, ",");
		unsigned n = 0;

		if (type == 3) {
			snprintf(why, VAL_WHY_LEN,
				 "at most three lists, for reads, writes and verification (e.g. EIO,ENOSPC:EIO)");
			return -EINVAL;
		}
		for (const char *q = p; q < end; n++) {
			size_t len = strcspn(q, ":,");

			if (n == JOB_IGNORE_MAX) {
				snprintf(why, VAL_WHY_LEN, "more than %d errnos in one list",
					 JOB_IGNORE_MAX);
				return -EINVAL;
			}
			if (one_errno(q, len, &o->ignore_error[type][n], why))
				return -EINVAL;
			q += len + (q[len] == ':');
		}
		if (n) {
			o->nignore_error[type] = n;
			o->continue_on_error |= 1U << type;
		}
		if (!*end)
			break;
		p = end + 1;
	}
	return 0;
}

static int one_rdist(const char *elem, unsigned dir, void *ctx, char *why)
{
	struct job_opts *o = ctx;

	return dist_spec_parse(elem, &o->rdist[dir], why);
}

int opt_parse_rdist(const struct opt_def *def, struct job_opts *o, const char *v, char *why)
{
	unsigned mask;

	return val_parse_per_dir(v ? v : "", one_rdist, o, &mask, why);
}

static int one_pct_random(const char *elem, unsigned dir, void *ctx, char *why)
{
	struct job_opts *o = ctx;
	double p;

	if (val_parse_double(elem, &p, why))
		return -EINVAL;
	if (p < 0 || p > 100) {
		snprintf(why, VAL_WHY_LEN, "'%s' is not a percentage from 0 to 100", elem);
		return -ERANGE;
	}
	o->pct_random[dir] = p;
	return 0;
}

int opt_parse_pct_random(const struct opt_def *def, struct job_opts *o, const char *v, char *why)
{
	unsigned mask = 0;
	int ret = val_parse_per_dir(v ? v : "", one_pct_random, o, &mask, why);

	o->pct_random_set |= mask;
	return ret;
}

/* stream= lines are split off by the job builder; one that gets here was in the wrong place. */
int opt_parse_stream(const struct opt_def *def, struct job_opts *o, const char *v, char *why)
{
	snprintf(why, VAL_WHY_LEN, "stream= starts a stream and belongs in a job section");
	return -EINVAL;
}

int opt_parse_verify_pattern(const struct opt_def *def, struct job_opts *o, const char *v,
			     char *why)
{
	unsigned char pat[JOB_VERIFY_PATTERN_MAX];
	unsigned len;

	if (val_parse_pattern(v, pat, sizeof(pat), &len, why))
		return -EINVAL;
	memcpy(o->verify_pattern, pat, len);
	o->verify_pattern_len = len;
	return 0;
}

/* A 'file' element of buffer_pattern: its bytes, as many as fit (fio reads no more). */
static const char *pat_file(const char *p, unsigned char *out, unsigned *n, char *why)
{
	const char *end = strchr(p + 1, '\'');
	char name[4096];
	ssize_t got;
	int fd;

	if (!end || end == p + 1 || (size_t)(end - p - 1) >= sizeof(name)) {
		snprintf(why, VAL_WHY_LEN, "%s file name in the pattern (e.g. 'pattern.bin')",
			 end && end != p + 1 ? "a too long" :
			 end		     ? "an empty" :
					       "an unterminated");
		return NULL;
	}
	memcpy(name, p + 1, (size_t)(end - p - 1));
	name[end - p - 1] = '\0';
	fd = open(name, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, VAL_WHY_LEN, "cannot open the pattern file '%.100s': %s", name,
			 strerror(errno));
		return NULL;
	}
	while (*n < JOB_VERIFY_PATTERN_MAX &&
	       (got = read(fd, out + *n, JOB_VERIFY_PATTERN_MAX - *n)) > 0)
		*n += (unsigned)got;
	close(fd);
	return end + 1;
}

/*
 * fio's buffer_pattern: verify_pattern's elements, and 'file' for a file's bytes, one after
 * another, at most 512 bytes.  As in fio it turns scramble_buffers and zero_buffers off (a
 * later scramble_buffers=1 turns scrambling on again).
 */
int opt_parse_buffer_pattern(const struct opt_def *def, struct job_opts *o, const char *v,
			     char *why)
{
	unsigned char pat[JOB_VERIFY_PATTERN_MAX];
	const char *p = v ? v : "";
	unsigned n = 0, len;

	if (strchr(p, '|')) {
		snprintf(why, VAL_WHY_LEN,
			 "'|' does not join a pattern's elements: write them one after another (e.g. 0xdeadbeef\"abc\")");
		return -EINVAL;
	}
	if (!*p) {
		val_parse_pattern(p, pat, sizeof(pat), &len, why); /* its message */
		return -EINVAL;
	}
	while (*p) {
		char part[4096];
		const char *q = p;
		bool quoted = false;

		for (; *q && (quoted || *q != '\''); q++)
			quoted ^= *q == '"';
		if (q > p) {
			if ((size_t)(q - p) >= sizeof(part) || n == sizeof(pat)) {
				snprintf(why, VAL_WHY_LEN, "the pattern is longer than %zu bytes",
					 sizeof(pat));
				return -EINVAL;
			}
			memcpy(part, p, (size_t)(q - p));
			part[q - p] = '\0';
			if (val_parse_pattern(part, pat + n, (unsigned)sizeof(pat) - n, &len, why))
				return -EINVAL;
			n += len;
		}
		p = *q ? pat_file(q, pat, &n, why) : q;
		if (!p)
			return -EINVAL;
	}
	if (!n) {
		snprintf(why, VAL_WHY_LEN, "the pattern is empty (an empty file?)");
		return -EINVAL;
	}
	memcpy(o->buffer_pattern, pat, n);
	o->buffer_pattern_len = n;
	o->scramble_buffers = false;
	o->zero_buffers = false;
	return 0;
}

int opt_parse_weight(const struct opt_def *def, struct job_opts *o, const char *v, char *why)
{
	double w;

	if (val_parse_double(v ? v : "", &w, why))
		return -EINVAL;
	if (!(w > 0) || w > 1e9) {
		snprintf(why, VAL_WHY_LEN, "'%s' is not a weight (a number above 0, e.g. 28)", v);
		return -ERANGE;
	}
	o->weight = w;
	return 0;
}

int opt_parse_file_service(const struct opt_def *def, struct job_opts *o, const char *v, char *why)
{
	static const char *const names[] = { "roundrobin", "sequential", "random" };
	const char *colon = v ? strchr(v, ':') : NULL;
	size_t len = colon ? (size_t)(colon - v) : (v ? strlen(v) : 0);

	for (unsigned i = 0; v && i < 3; i++) {
		uint64_t n = 1;

		if (strlen(names[i]) != len || strncmp(names[i], v, len))
			continue;
		if (colon && (val_parse_u64(colon + 1, &n, why) || n == 0 || n > UINT32_MAX)) {
			snprintf(why, VAL_WHY_LEN,
				 "'%s' has a bad ':N' (IOs before switching, 1 or more)", v);
			return -EINVAL;
		}
		o->file_service = i;
		o->file_service_nr = (unsigned)n;
		return 0;
	}
	/* fio's non-uniform choices, with their parameter (theta, h, deviation) after ':' */
	if (v && (!strncmp(v, "zipf", 4) || !strncmp(v, "pareto", 6) || !strncmp(v, "normal", 6) ||
		  !strncmp(v, "gauss", 5))) {
		struct dist_spec spec;

		if (strchr(colon ? colon + 1 : "", ':')) {
			snprintf(why, VAL_WHY_LEN,
				 "'%s': a file_service_type takes one ':N' (e.g. zipf:1.2)", v);
			return -EINVAL;
		}
		if (dist_spec_parse(v, &spec, why))
			return -EINVAL;
		o->file_service = FS_DIST;
		o->file_service_nr = 1;
		o->file_service_dist = spec.type;
		o->file_service_param = spec.param;
		return 0;
	}
	snprintf(why, VAL_WHY_LEN,
		 "'%s' is not a file service type (use roundrobin, sequential or random, optionally with :N, or zipf, pareto or normal with their :N)",
		 v ? v : "");
	return -EINVAL;
}

/* fio's sync_file_range=FLAG[,FLAG...][:N]: wait_before, write, wait_after; every N writes (1). */
int opt_parse_sync_file_range(const struct opt_def *def, struct job_opts *o, const char *v,
			      char *why)
{
	static const struct {
		const char *name;
		unsigned flag;
	} flags[] = {
		{ "wait_before", SYNC_FILE_RANGE_WAIT_BEFORE },
		{ "write", SYNC_FILE_RANGE_WRITE },
		{ "wait_after", SYNC_FILE_RANGE_WAIT_AFTER },
	};
	const char *p = v ? v : "", *colon = strchr(p, ':');
	size_t end = colon ? (size_t)(colon - p) : strlen(p);
	unsigned mask = 0;
	uint64_t n = 1;

	for (size_t at = 0; at < end;) {
		size_t len = strcspn(p + at, ",:");
		unsigned i;

		for (i = 0; i < 3; i++)
			if (strlen(flags[i].name) == len && !strncmp(flags[i].name, p + at, len))
				break;
		if (i == 3) {
			snprintf(why, VAL_WHY_LEN,
				 "'%.*s' is not a sync_file_range flag (use wait_before, write or wait_after, joined by ',', then :N, e.g. wait_before,write:8)",
				 (int)len, p + at);
			return -EINVAL;
		}
		mask |= flags[i].flag;
		at += len + (p[at + len] == ',');
	}
	if (!mask || (colon && (val_parse_u64(colon + 1, &n, why) || !n || n > UINT32_MAX))) {
		snprintf(why, VAL_WHY_LEN,
			 "'%s' is not FLAGS:N (flags wait_before, write, wait_after joined by ',', N writes of 1 or more, e.g. write:8)",
			 p);
		return -EINVAL;
	}
	o->sync_file_range_flags = mask;
	o->sync_file_range_nr = (unsigned)n;
	return 0;
}