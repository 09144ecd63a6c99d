// SPDX-License-Identifier: MIT
/*
 * blkuniq BS FILE...: splits the files (or block devices), one after the other, into blocks of
 * BS bytes (a last partial block is left out) and counts them exactly, by sorting and comparing
 * the bytes (no hash, so no collisions).  Prints "blocks B unique U repeated R zero Z": U
 * distinct contents, R of them seen more than once, Z all-zero blocks.  Exits 2 on bad input.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static size_t bs;

static int cmp_block(const void *a, const void *b)
{
	return memcmp(*(unsigned char *const *)a, *(unsigned char *const *)b, bs);
}

/* Appends the whole blocks of path to *data (n blocks so far, cap of them room). */
static int read_blocks(const char *path, unsigned char **data, size_t *n, size_t *cap)
{
	int fd = open(path, O_RDONLY);
	ssize_t got = 0;

	if (fd < 0) {
		perror(path);
		return -1;
	}
	for (;;) {
		size_t have = 0;

		if (*n == *cap) {
			unsigned char *p = realloc(*data, (*cap = *cap ? 2 * *cap : 1024) * bs);

			if (!p)
				return -1;
			*data = p;
		}
		while (have < bs && (got = read(fd, *data + *n * bs + have, bs - have)) > 0)
			have += (size_t)got;
		if (got < 0) {
			perror(path);
			close(fd);
			return -1;
		}
		if (have < bs)
			break;
		(*n)++;
	}
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned char *data = NULL, **v, *zero;
	size_t n = 0, cap = 0, uniq = 0, rep = 0, zeros = 0;

	if (argc < 3 || !(bs = strtoul(argv[1], NULL, 0))) {
		fprintf(stderr, "usage: blkuniq BS FILE...\n");
		return 2;
	}
	for (int i = 2; i < argc; i++)
		if (read_blocks(argv[i], &data, &n, &cap))
			return 2;
	v = malloc((n ? n : 1) * sizeof(*v));
	zero = calloc(1, bs);
	if (!v || !zero)
		return 2;
	for (size_t i = 0; i < n; i++)
		v[i] = data + i * bs;
	qsort(v, n, sizeof(*v), cmp_block);
	for (size_t i = 0; i < n; i++) {
		size_t j = i;

		while (j + 1 < n && !memcmp(v[j + 1], v[i], bs))
			j++;
		uniq++;
		rep += j > i;
		if (!memcmp(v[i], zero, bs))
			zeros += j - i + 1;
		i = j;
	}
	printf("blocks %zu unique %zu repeated %zu zero %zu\n", n, uniq, rep, zeros);
	free(v);
	free(zero);
	free(data);
	return 0;
}
