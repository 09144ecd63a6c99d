// SPDX-License-Identifier: MIT
/*
 * zeroblocks DEV BS WHICH: writes random data to some blocks of BS bytes of DEV, a device that reads
 * zeros where nothing was written (a loop device over a fresh sparse file), and leaves the others, and prints the exact share of zero blocks in percent (three decimals).  WHICH is
 * hash:PCT (blocks whose hash falls in the lowest PCT %: spread in an order no sampling stride
 * lines up with), every:K (blocks K-1, 2K-1, ...) or head:N (the first N blocks).  For the tests
 * of the zero-read share.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iowl/pattern/rng.h"

int main(int argc, char **argv)
{
	uint64_t seed = 0x2545f4914f6cdd1dULL, zero = 0, n;
	unsigned long bs;
	unsigned long arg;
	char mode = 0;
	char *buf;
	off_t size;
	int fd;

	if (argc == 4 && (!strncmp(argv[3], "hash:", 5) || !strncmp(argv[3], "every:", 6) ||
			  !strncmp(argv[3], "head:", 5)))
		mode = argv[3][1];
	if (!mode || !(bs = strtoul(argv[2], NULL, 0)) || bs % 8 ||
	    !(arg = strtoul(strchr(argv[3], ':') + 1, NULL, 0))) {
		fprintf(stderr, "usage: zeroblocks DEV BS hash:PCT|every:K|head:N\n");
		return 2;
	}
	fd = open(argv[1], O_WRONLY);
	size = fd < 0 ? -1 : lseek(fd, 0, SEEK_END);
	buf = malloc(bs);
	if (size <= 0 || !buf) {
		perror(argv[1]);
		return 1;
	}
	n = (uint64_t)size / bs;
	for (uint64_t b = 0; b < n; b++) {
		bool z = mode == 'a' ? rng_mix64(b ^ 0x9e3779b97f4a7c15ULL) % 100 < arg :
			 mode == 'v' ? b % arg == arg - 1 : b < arg;

		if (z)
			memset(buf, 0, bs);
		else
			for (unsigned long i = 0; i < bs; i += 8) {
				uint64_t v = rng_splitmix64(&seed) | 1;

				memcpy(buf + i, &v, 8);
			}
		zero += z;
		if (z)	/* a fresh sparse device reads zeros already: write only the data */
			continue;
		if (pwrite(fd, buf, bs, (off_t)(b * bs)) != (ssize_t)bs) {
			perror("pwrite");
			return 1;
		}
	}
	if (fsync(fd) || close(fd)) {
		perror("fsync");
		return 1;
	}
	printf("%.3f\n", 100.0 * (double)zero / (double)n);
	free(buf);
	return 0;
}
