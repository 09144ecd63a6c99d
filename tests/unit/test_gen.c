// SPDX-License-Identifier: MIT
/* IO generation against its maths: the SNIA hot-band job over 10^6 IOs, regions, walkers, sizes, coverage. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iowl/gen.h"
#include "iowl/ini.h"
#include "iowl/jobfile.h"
#include "iowl/target.h"

#define NIOS 1000000
#define REGION (10ULL << 30)

struct fixture {
	char path[64];
	struct ini_doc doc;
	struct job *jobs;
	unsigned njobs;
	struct target_plan plan;
	struct gen *gen;
};

/* Builds the first job of file (or of text when file is NULL) against a sparse 10 GiB target. */
static void setup(struct fixture *fx, const char *file, const char *text)
{
	static char k1[] = "ioengine", v1[] = "null", k2[] = "direct", v2[] = "0";
	const struct job_set sets[] = { { k1, v1 }, { k2, v2 } };
	struct jobfile_input in = { .doc = &fx->doc, .sets = sets, .nsets = 2 };
	struct iowl_err err = { "" };
	int fd;

	memset(fx, 0, sizeof(*fx));
	snprintf(fx->path, sizeof(fx->path), "/tmp/iowl-test-gen.XXXXXX");
	fd = mkstemp(fx->path);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (off_t)REGION), 0);
	close(fd);
	setenv("IOWL_DEV", fx->path, 1);
	ini_doc_init(&fx->doc);
	if (file)
		assert_int_equal(ini_parse_file(&fx->doc, file, &err), 0);
	else
		assert_int_equal(ini_parse_buffer(&fx->doc, "t.ini", text, strlen(text), &err), 0);
	if (jobfile_build(&in, &fx->jobs, &fx->njobs, &err) ||
	    target_plan(&fx->jobs[0], 0, &fx->plan, &err))
		fail_msg("%s", err.text);
	fx->gen = gen_new(&fx->jobs[0], 0, 0, &fx->plan, &err);
	if (!fx->gen)
		fail_msg("%s", err.text);
}

static void teardown(struct fixture *fx)
{
	gen_free(fx->gen);
	target_plan_release(&fx->plan);
	jobfile_free(fx->jobs, fx->njobs);
	ini_doc_release(&fx->doc);
	unlink(fx->path);
}

static void near(double got, double want, double tol, const char *what)
{
	if (got < want - tol || got > want + tol)
		fail_msg("%s: %.3f, expected %.3f +/- %.3f", what, got, want, tol);
}

struct hb_stats {
	uint64_t ios[32], reads[32], seq[32];
	uint64_t last_end[32];
	uint64_t size_ios[2][1024];	/* [random, sequential][bs / 512] */
	uint64_t reads_all;
};

static void hb_count(struct fixture *fx, struct hb_stats *s)
{
	const struct job *job = &fx->jobs[0];
	const struct target_file *f = &fx->plan.files[0];

	for (unsigned i = 0; i < NIOS; i++) {
		struct io_u io = { 0 };
		const struct job_stream *js;
		bool sequential;

		gen_next(fx->gen, &io);
		js = &job->streams[io.stream];
		sequential = !(js->o.rw & RW_F_RANDOM);
		s->ios[io.stream]++;
		s->reads[io.stream] += io.op == 0;
		s->reads_all += io.op == 0;
		s->seq[io.stream] += io.offset == s->last_end[io.stream];
		s->last_end[io.stream] = io.offset + io.len;
		assert_true(io.len % 512 == 0 && io.len / 512 < 1024);
		s->size_ios[sequential][io.len / 512]++;
		assert_true(io.offset >= f->start && io.offset + io.len <= f->start + f->size);
		if (!strncmp(js->name, "hot", 3)) {
			uint64_t lo, len;

			target_stream_range(js, f, &lo, &len);
			if (io.offset < lo || io.offset + io.len > lo + len)
				fail_msg("stream %s: IO at %llu+%u outside its band %llu+%llu",
					 js->name, (unsigned long long)io.offset, io.len,
					 (unsigned long long)lo, (unsigned long long)len);
		}
	}
}

static void test_hotband(void **state)
{
	static const struct { const char *name; double pct, reads; } want[] = {
		{ "seq-write.0", 5, 0 }, { "seq-write.1", 5, 0 }, { "seq-write.2", 5, 0 },
		{ "seq-read.0", 5, 100 }, { "seq-read.1", 5, 100 }, { "seq-read.2", 5, 100 },
		{ "seq-read.3", 5, 100 }, { "seq-read.4", 5, 100 }, { "uniform", 6, 50 },
		{ "hot1", 28, 70 }, { "hot2", 14, 70 }, { "hot3", 7, 70 }, { "hot4", 5, 70 },
	};
	/* bs / 512 and percent, for the random streams and the sequential walkers */
	static const unsigned rnd_bs[] = { 16, 8, 128, 32, 64, 256, 2, 120, 1, 512, 96, 112 };
	static const double rnd_pct[] = { 31, 27, 20, 5, 5, 2, 2, 2, 2, 2, 1, 1 };
	static const unsigned seq_bs[] = { 16, 8, 128, 32, 64, 256, 512 };
	static const double seq_pct[] = { 33, 29, 22, 6, 5, 3, 2 };
	struct hb_stats *s = calloc(1, sizeof(*s));
	uint64_t rnd_total = 0, seq_total = 0;
	struct fixture fx;

	setup(&fx, "jobs/snia-hotband.ini", NULL);
	assert_int_equal(fx.jobs[0].nstreams, 13);
	hb_count(&fx, s);
	for (unsigned i = 0; i < 13; i++) {
		char what[64];

		assert_string_equal(fx.jobs[0].streams[i].name, want[i].name);
		snprintf(what, sizeof(what), "share of %s", want[i].name);
		near(100.0 * (double)s->ios[i] / NIOS, want[i].pct, 0.3, what);
		snprintf(what, sizeof(what), "reads of %s", want[i].name);
		near(100.0 * (double)s->reads[i] / (double)s->ios[i], want[i].reads, 1.5, what);
		if (i < 8) {
			snprintf(what, sizeof(what), "sequential IOs of walker %s", want[i].name);
			near(100.0 * (double)s->seq[i] / (double)s->ios[i], 99, 0.3, what);
		}
	}
	near(100.0 * (double)s->reads_all / NIOS, 66, 0.5, "reads");
	for (unsigned i = 0; i < 1024; i++) {
		rnd_total += s->size_ios[0][i];
		seq_total += s->size_ios[1][i];
	}
	for (unsigned i = 0; i < 12; i++)
		near(100.0 * (double)s->size_ios[0][rnd_bs[i]] / (double)rnd_total, rnd_pct[i], 0.3,
		     "random-stream block size share");
	for (unsigned i = 0; i < 7; i++)
		near(100.0 * (double)s->size_ios[1][seq_bs[i]] / (double)seq_total, seq_pct[i], 0.3,
		     "walker block size share");
	free(s);
	teardown(&fx);
}

/* With the random map, one pass of a uniform random job touches every block exactly once. */
static void test_cover(void **state)
{
	struct fixture fx;
	const unsigned n = 3000;	/* blocks: not a power of two */
	uint8_t *seen = calloc(n, 1);
	char text[256];

	snprintf(text, sizeof(text), "[c]\nfilename=${IOWL_DEV}\nsize=%u\nbs=4k\nrw=randread\n",
		 n * 4096);
	setup(&fx, NULL, text);
	for (unsigned pass = 0; pass < 2; pass++) {
		memset(seen, 0, n);
		for (unsigned i = 0; i < n; i++) {
			struct io_u io = { 0 };

			gen_next(fx.gen, &io);
			assert_int_equal(io.len, 4096);
			assert_true(io.offset / 4096 < n);
			assert_int_equal(seen[io.offset / 4096]++, 0);
		}
	}
	free(seen);
	teardown(&fx);
}

/* A zoned distribution inside a stream's range stays in the range with the zone shares asked. */
static void test_stream_zoned(void **state)
{
	struct fixture fx;
	uint64_t in_first = 0, lo, len;
	const char *text = "[z]\nfilename=${IOWL_DEV}\nstream=a\nrw=randread\noffset=50%\n"
			   "size=10%\nrandom_distribution=zoned:90/10:10/90\n"
			   "stream=b\nrw=write\nweight=3\n";
	unsigned na = 0;

	setup(&fx, NULL, text);
	target_stream_range(&fx.jobs[0].streams[0], &fx.plan.files[0], &lo, &len);
	for (unsigned i = 0; i < 400000; i++) {
		struct io_u io = { 0 };

		gen_next(fx.gen, &io);
		if (io.stream != 0) {
			assert_int_equal(io.op, 1);
			continue;
		}
		na++;
		assert_true(io.offset >= lo && io.offset + io.len <= lo + len);
		in_first += io.offset < lo + len / 10;
	}
	near(100.0 * na / 400000, 25, 0.3, "share of stream a (weight 1 of 4)");
	near(100.0 * (double)in_first / na, 90, 0.3, "zone 1 share");
	teardown(&fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hotband),
		cmocka_unit_test(test_cover),
		cmocka_unit_test(test_stream_zoned),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
