// SPDX-License-Identifier: MIT
/*
 * Test helper for tests/fio-diff: summarises what one tool did as "key value" lines that the
 * driver compares between iowl and fio.
 *   fdsum json FILE        jobs and groups of a --output-format=json file (fio's or iowl's)
 *   fdsum unique FILE BS   distinct and all-zero BS-byte blocks of a file or device
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int usage(void)
{
	fprintf(stderr, "usage: fdsum json FILE | fdsum unique FILE BS\n");
	return 2;
}

static long long jnum(json_t *o, const char *dir, const char *key)
{
	json_t *d = json_object_get(o, dir);

	return d ? json_integer_value(json_object_get(d, key)) : 0;
}

/*
 * Per job (clones of one name numbered in order: NAME, NAME.1, ...): its group, renumbered from 0
 * in order of appearance (fio and iowl both number groups in job-file order, but the numbers need
 * not start alike), and the IO counts and bytes of each direction; then the number of jobs
 * (entries) and groups, and iowl's own reads of devices (0 for fio); "job options" as opt.JOB.NAME.
 */
static int json_summary(const char *path)
{
	json_error_t jerr;
	json_t *root = NULL, *jobs, *job;
	long long groups[256];
	int ngroups = 0;
	size_t i;
	FILE *f = fopen(path, "r");
	char line[4096];
	long at = 0;

	/* fio writes some warnings into --output before the document: start at its first '{' */
	while (f && fgets(line, sizeof(line), f) && line[0] != '{')
		at = ftell(f);
	if (f && !fseek(f, at, SEEK_SET))
		root = json_loadf(f, 0, &jerr);
	if (f)
		fclose(f);
	else
		snprintf(jerr.text, sizeof(jerr.text), "%s", strerror(errno));
	if (!root) {
		fprintf(stderr, "fdsum: %s:%d: %s\n", path, jerr.line, jerr.text);
		return 1;
	}
	jobs = json_object_get(root, "jobs");
	json_array_foreach(jobs, i, job) {
		const char *name = json_string_value(json_object_get(job, "jobname"));
		long long gid = json_integer_value(json_object_get(job, "groupid"));
		static const char *const dirs[] = { "read", "write", "trim" };
		char key[300];
		int g, same = 0;
		size_t k;

		for (k = 0; k < i; k++) {
			const char *o = json_string_value(
				json_object_get(json_array_get(jobs, k), "jobname"));
			same += o && name && !strcmp(o, name);
		}
		if (same)
			snprintf(key, sizeof(key), "json.%s.%d", name ? name : "?", same);
		else
			snprintf(key, sizeof(key), "json.%s", name ? name : "?");
		for (g = 0; g < ngroups && groups[g] != gid; g++)
			;
		if (g == ngroups && ngroups < 256)
			groups[ngroups++] = gid;
		printf("%s.group %d\n", key, g);
		printf("%s.error %lld\n", key, json_integer_value(json_object_get(job, "error")));
		for (k = 0; k < 3; k++) {
			printf("%s.%s.ios %lld\n", key, dirs[k], jnum(job, dirs[k], "total_ios"));
			printf("%s.%s.bytes %lld\n", key, dirs[k], jnum(job, dirs[k], "io_bytes"));
		}
		printf("%s.sync.ios %lld\n", key, jnum(job, "sync", "total_ios"));
		{
			json_t *opts = json_object_get(job, "job options"), *v;
			const char *o;

			json_object_foreach(opts, o, v) {
				if (json_is_string(v))
					printf("opt.%s.%s %s\n", key + 5, o, json_string_value(v));
			}
		}
	}
	printf("json.jobs %zu\n", json_array_size(jobs));
	printf("json.groups %d\n", ngroups);
	{
		json_t *own = json_object_get(json_object_get(root, "iowl"), "own_io"), *o;
		long long reads = 0, bytes = 0;

		json_array_foreach(own, i, o) {
			reads += json_integer_value(json_object_get(o, "reads"));
			bytes += json_integer_value(json_object_get(o, "read_bytes"));
		}
		printf("own.reads %lld\nown.read_bytes %lld\n", reads, bytes);
	}
	json_decref(root);
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* FNV-1a over each block; distinct hashes stand for distinct blocks (collisions are 2^-64 each). */
static int unique_blocks(const char *path, const char *bsarg)
{
	size_t bs = strtoul(bsarg, NULL, 0), n = 0, cap = 1024, uniq = 0, zero = 0;
	uint64_t *h = malloc(cap * sizeof(*h));
	unsigned char *buf = malloc(bs ? bs : 1);
	int fd = open(path, O_RDONLY);
	ssize_t got;

	if (!bs || !h || !buf || fd < 0) {
		fprintf(stderr, "fdsum: %s: %s\n", path, fd < 0 ? strerror(errno) : "bad block size");
		return 1;
	}
	while ((got = read(fd, buf, bs)) > 0) {
		uint64_t x = 14695981039346656037ull;
		int allzero = 1;

		for (ssize_t k = 0; k < got; k++) {
			x = (x ^ buf[k]) * 1099511628211ull;
			allzero &= !buf[k];
		}
		zero += allzero;
		if (n == cap) {
			uint64_t *nh = realloc(h, (cap *= 2) * sizeof(*h));

			if (!nh)
				return 1;
			h = nh;
		}
		h[n++] = x;
	}
	close(fd);
	qsort(h, n, sizeof(*h), cmp_u64);
	for (size_t k = 0; k < n; k++)
		uniq += !k || h[k] != h[k - 1];
	printf("blocks %zu\ndistinct %zu\nzero %zu\n", n, uniq, zero);
	free(h);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "json"))
		return json_summary(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "unique"))
		return unique_blocks(argv[2], argv[3]);
	return usage();
}
