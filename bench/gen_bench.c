// SPDX-License-Identifier: MIT
/* Micro-benchmark: nanoseconds to generate one IO (stream, direction, size, file, offset) for a few jobs. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "iowl/gen.h"
#include "iowl/ini.h"
#include "iowl/jobfile.h"
#include "iowl/target.h"

#define NIOS 50000000ULL

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Generates NIOS IOs of the first job of file or text; prints ns per IO. */
static int bench(const char *label, const char *file, const char *text)
{
	static char k1[] = "ioengine", v1[] = "null", k2[] = "direct", v2[] = "0";
	const struct job_set sets[] = { { k1, v1 }, { k2, v2 } };
	struct ini_doc doc;
	struct jobfile_input in = { .doc = &doc, .sets = sets, .nsets = 2 };
	struct iowl_err err = { "" };
	struct target_plan plan;
	struct job *jobs;
	unsigned njobs;
	struct gen *g;
	uint64_t sum = 0;
	double t0, t1;

	ini_doc_init(&doc);
	if ((file ? ini_parse_file(&doc, file, &err) :
		    ini_parse_buffer(&doc, label, text, strlen(text), &err)) ||
	    jobfile_build(&in, &jobs, &njobs, &err) || target_plan(&jobs[0], 0, &plan, &err) ||
	    !(g = gen_new(&jobs[0], 0, 0, &plan, &err))) {
		fprintf(stderr, "gen_bench: %s: %s\n", label, err.text);
		return 1;
	}
	t0 = now();
	for (uint64_t i = 0; i < NIOS; i++) {
		struct io_u io;

		gen_next(g, &io);
		sum += io.offset + io.len;
	}
	t1 = now();
	printf("%-34s %6.2f ns/IO  (checksum %llx)\n", label, (t1 - t0) * 1e9 / NIOS,
	       (unsigned long long)sum);
	gen_free(g);
	target_plan_release(&plan);
	jobfile_free(jobs, njobs);
	ini_doc_release(&doc);
	return 0;
}

int main(int argc, char **argv)
{
	char path[] = "/tmp/iowl-gen-bench.XXXXXX";
	const char *hotband = argc > 1 ? argv[1] : "jobs/snia-hotband.ini";
	int fd = mkstemp(path), ret = 0;

	if (fd < 0 || ftruncate(fd, 1LL << 40)) {
		perror("gen_bench: scratch file");
		return 1;
	}
	close(fd);
	setenv("IOWL_DEV", path, 1);
	ret |= bench("randread 4k, random map", NULL,
		     "[a]\nfilename=${IOWL_DEV}\nrw=randread\nbs=4k\n");
	ret |= bench("randread 4k, norandommap", NULL,
		     "[a]\nfilename=${IOWL_DEV}\nrw=randread\nbs=4k\nnorandommap\n");
	ret |= bench("randread 4k, zipf:1.2", NULL,
		     "[a]\nfilename=${IOWL_DEV}\nrw=randread\nbs=4k\nrandom_distribution=zipf:1.2\n");
	ret |= bench("randrw 70/30, bssplit, pareto:0.8", NULL,
		     "[a]\nfilename=${IOWL_DEV}\nrw=randrw\nrwmixread=70\n"
		     "bssplit=4k/30:8k/30:64k/40\nrandom_distribution=pareto:0.8\n");
	ret |= bench("SNIA hot band (13 streams)", hotband, NULL);
	unlink(path);
	return ret;
}
