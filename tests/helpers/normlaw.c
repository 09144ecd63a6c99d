// SPDX-License-Identifier: MIT
/*
 * normlaw N DEV MAP BS LOG: the blocks of the reads and writes in the iolog LOG (fio's v2 or v3
 * format, or iowl's) against the exact law of fio's normal:DEV rank over N blocks of BS bytes
 * (dist_normal_law()), by Pearson's chi-square, cells expecting fewer than 5 IOs pooled.
 * MAP says where rank k lands: "plain" (block k, iowl with random_scatter=0) or "fio" (block
 * (k * 0x61C8864680B583EB mod 2^64) mod N, fio's __hash_u64 scatter).  Prints the statistic
 * and exits 0 when it is under the 0.1 % point, 1 when it is not, 2 on bad input.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iowl/pattern/dist.h"

#define FIO_GOLDEN_64 0x61C8864680B583EBULL

/* Upper 0.1 % point of chi-square with df degrees of freedom (Wilson-Hilferty). */
static double chi2_crit(double df)
{
	double a = 2.0 / (9.0 * df);

	return df * pow(1.0 - a + 3.090232 * sqrt(a), 3);
}

/* Counts the block of every read and write line: "... NAME OP OFFSET LENGTH". */
static int count(FILE *f, uint64_t n, uint64_t bs, uint64_t *cnt, uint64_t *total)
{
	char line[4096];

	while (fgets(line, sizeof(line), f)) {
		char *op = strstr(line, " read ") ? strstr(line, " read ") : strstr(line, " write ");
		unsigned long long off, len;

		if (!op || sscanf(strchr(op + 1, ' '), "%llu %llu", &off, &len) != 2)
			continue;
		if (off / bs >= n) {
			fprintf(stderr, "normlaw: offset %llu is past %llu blocks\n", off,
				(unsigned long long)n);
			return -1;
		}
		cnt[off / bs]++;
		(*total)++;
	}
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t n, bs, total = 0, *cnt, rest = 0;
	double dev, *law, *p, x2 = 0, rest_p = 0;
	size_t cells = 0;
	bool fio;
	FILE *f;

	if (argc != 6 || (strcmp(argv[3], "plain") && strcmp(argv[3], "fio"))) {
		fprintf(stderr, "usage: normlaw N DEV plain|fio BS LOG\n");
		return 2;
	}
	n = strtoull(argv[1], NULL, 0);
	dev = strtod(argv[2], NULL);
	fio = !strcmp(argv[3], "fio");
	bs = strtoull(argv[4], NULL, 0);
	law = calloc(n ? n : 1, sizeof(*law));
	p = calloc(n ? n : 1, sizeof(*p));
	cnt = calloc(n ? n : 1, sizeof(*cnt));
	f = fopen(argv[5], "r");
	if (!n || !bs || !law || !p || !cnt || !f || dist_normal_law(n, dev, law)) {
		fprintf(stderr, "normlaw: bad arguments or %s unreadable\n", argv[5]);
		return 2;
	}
	if (count(f, n, bs, cnt, &total) || !total)
		return 2;
	fclose(f);
	for (uint64_t k = 0; k < n; k++)
		p[fio ? (k * FIO_GOLDEN_64) % n : k] += law[k];
	for (uint64_t b = 0; b < n; b++) {
		double e = p[b] * (double)total;

		if (e < 5) {
			rest_p += p[b];
			rest += cnt[b];
			continue;
		}
		x2 += ((double)cnt[b] - e) * ((double)cnt[b] - e) / e;
		cells++;
	}
	if (rest_p * (double)total >= 5 || rest) {
		double e = rest_p * (double)total;

		x2 += e > 0 ? ((double)rest - e) * ((double)rest - e) / e : INFINITY;
		cells++;
	}
	printf("normal:%g over %llu blocks (%s): %llu IOs, chi2 %.1f over %zu cells, limit %.1f\n",
	       dev, (unsigned long long)n, argv[3], (unsigned long long)total, x2, cells,
	       chi2_crit((double)cells - 1));
	free(law);
	free(p);
	free(cnt);
	return cells > 1 && x2 < chi2_crit((double)cells - 1) ? 0 : 1;
}
