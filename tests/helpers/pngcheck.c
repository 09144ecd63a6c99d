// SPDX-License-Identifier: MIT
/*
 * Test helper: says whether a screenshot shows a rendered page.  Decodes the PNG (8-bit RGB or
 * RGBA, not interlaced; zlib) and checks, in the whole image or in one rectangle of it, that it is
 * not blank (enough pixels that are not the background, enough distinct colours) and that the
 * colours the plots draw with appear; several rectangles, each with its colours, in one run.
 *   pngcheck SHOT.png [[--crop X,Y,W,H] [RRGGBB...]]...
 * Prints one "ok: ..." line a rectangle, or a "FAIL: ..." line per problem; exits 0, 1 (a check
 * failed) or 2 (the file is not a PNG it can read).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t cap = 0, n;

	if (!f)
		return NULL;
	*len = 0;
	for (;;) {
		if (*len == cap) {
			cap = cap ? 2 * cap : 1 << 20;
			unsigned char *nb = realloc(buf, cap);
			if (!nb)
				break;
			buf = nb;
		}
		n = fread(buf + *len, 1, cap - *len, f);
		if (!n)
			break;
		*len += n;
	}
	fclose(f);
	return buf;
}

/* The image's pixels, 8-bit, bpp bytes each, rows unfiltered; NULL (with a message) on failure. */
static unsigned char *decode(const char *path, uint32_t *w, uint32_t *h, int *bpp)
{
	static const unsigned char sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	size_t len, pos = 8, ilen = 0;
	unsigned char *data = slurp(path, &len), *idat = NULL, *raw = NULL, *img = NULL;

	*w = *h = 0;
	if (!data || len < 8 || memcmp(data, sig, 8)) {
		fprintf(stderr, "pngcheck: %s: not a PNG\n", path);
		goto out;
	}
	idat = malloc(len);
	if (!idat)
		goto out;
	while (pos + 12 <= len) {
		uint32_t n = be32(data + pos);
		const unsigned char *kind = data + pos + 4, *body = data + pos + 8;

		if (n > len - pos - 12)
			break;
		if (!memcmp(kind, "IHDR", 4) && n >= 13) {
			*w = be32(body);
			*h = be32(body + 4);
			if (body[8] != 8 || (body[9] != 2 && body[9] != 6) || body[12]) {
				fprintf(stderr,
					"pngcheck: %s: PNG of depth %d colour type %d interlace %d\n",
					path, body[8], body[9], body[12]);
				goto out;
			}
			*bpp = body[9] == 2 ? 3 : 4;
		} else if (!memcmp(kind, "IDAT", 4)) {
			memcpy(idat + ilen, body, n);
			ilen += n;
		}
		pos += 12 + (size_t)n;
	}
	if (!*w || !*h || *w > 1 << 15 || *h > 1 << 15) {
		fprintf(stderr, "pngcheck: %s: no usable IHDR\n", path);
		goto out;
	}
	size_t stride = (size_t)*w * *bpp;
	uLongf rlen = (uLongf)(stride + 1) * *h;
	raw = malloc(rlen);
	img = calloc(stride, (size_t)*h + 1); /* row 0 stays zero: the row above the first */
	if (!raw || !img || uncompress(raw, &rlen, idat, ilen) != Z_OK ||
	    rlen != (uLongf)(stride + 1) * *h) {
		fprintf(stderr, "pngcheck: %s: the image data does not inflate\n", path);
		free(img);
		img = NULL;
		goto out;
	}
	for (uint32_t y = 0; y < *h; y++) {
		const unsigned char *f = raw + y * (stride + 1) + 1;
		unsigned char *line = img + (y + 1) * stride, *prev = line - stride;
		int type = f[-1], d = *bpp;

		for (size_t i = 0; i < stride; i++) {
			int a = i >= (size_t)d ? line[i - d] : 0, b = prev[i];
			int c = i >= (size_t)d ? prev[i - d] : 0, p, pa, pb, pc;

			switch (type) {
			case 0: line[i] = f[i]; break;
			case 1: line[i] = f[i] + a; break;
			case 2: line[i] = f[i] + b; break;
			case 3: line[i] = f[i] + (a + b) / 2; break;
			case 4:
				p = a + b - c;
				pa = abs(p - a);
				pb = abs(p - b);
				pc = abs(p - c);
				line[i] = f[i] + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
				break;
			default:
				fprintf(stderr, "pngcheck: %s: row %u has filter %d\n", path, y,
					type);
				free(img);
				img = NULL;
				goto out;
			}
		}
	}
	memmove(img, img + stride, stride * *h);
out:
	free(raw);
	free(idat);
	free(data);
	return img;
}

/* The checks of one rectangle and its colours (argv[0..nc-1]); prints its line(s), returns the
 * number of failed checks. */
static int check(const char *path, const unsigned char *img, uint32_t w, int bpp, uint32_t x0,
		 uint32_t y0, uint32_t cw, uint32_t ch, char **colour, int nc)
{
	int errors = 0;

	/* every second pixel of every second row, as 0xRRGGBB */
	size_t n = 0, cap = ((size_t)cw / 2 + 1) * (ch / 2 + 1);
	uint32_t *px = malloc(cap * sizeof(*px)), *sorted = malloc(cap * sizeof(*px));
	if (!px || !sorted) {
		printf("FAIL: %s: out of memory\n", path);
		free(px);
		free(sorted);
		return 1;
	}
	for (uint32_t y = y0; y < y0 + ch; y += 2)
		for (uint32_t x = x0; x < x0 + cw; x += 2) {
			const unsigned char *p = img + ((size_t)y * w + x) * bpp;
			px[n++] = (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
		}
	memcpy(sorted, px, n * sizeof(*px));
	qsort(sorted, n, sizeof(*sorted), cmp_u32);
	size_t colours = 0, bg = 0;
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i; j < n && sorted[j] == sorted[i]; j++)
			;
		colours++;
		if (j - i > bg)
			bg = j - i;
	}
	double other = n ? 1.0 - (double)bg / n : 0;
	if (colours < 20) {
		printf("FAIL: %s at %u,%u: only %zu colours\n", path, x0, y0, colours);
		errors++;
	}
	if (other < 0.02) {
		printf("FAIL: %s at %u,%u: %.2f %% of the pixels differ from the background\n",
		       path, x0, y0, 100 * other);
		errors++;
	}
	for (int a = 0; a < nc; a++) {
		unsigned long want = strtoul(colour[a], NULL, 16);
		size_t near = 0;

		for (size_t i = 0; i < n; i++) {
			int ok = 1;
			for (int s = 0; s < 24; s += 8)
				ok &= abs((int)(px[i] >> s & 255) - (int)(want >> s & 255)) <= 24;
			near += ok;
		}
		if (near < 10) {
			printf("FAIL: %s at %u,%u: colour #%s is not drawn (%zu pixels near it)\n",
			       path, x0, y0, colour[a], near);
			errors++;
		}
	}
	if (!errors)
		printf("ok: %s: %ux%u at %u,%u, %zu colours, %.1f %% not background\n", path, cw,
		       ch, x0, y0, colours, 100 * other);
	free(px);
	free(sorted);
	return errors;
}

int main(int argc, char **argv)
{
	uint32_t w, h;
	int bpp = 3, errors = 0, a = 2;
	unsigned char *img;

	if (argc < 2) {
		fprintf(stderr, "usage: pngcheck SHOT.png [[--crop X,Y,W,H] [RRGGBB...]]...\n");
		return 2;
	}
	img = decode(argv[1], &w, &h, &bpp);
	if (!img)
		return 2;
	/* the whole image, or each --crop with the colours after it (the image decoded once) */
	do {
		uint32_t x0 = 0, y0 = 0, cw = w, ch = h;
		int c;

		if (a + 1 < argc && !strcmp(argv[a], "--crop")) {
			if (sscanf(argv[a + 1], "%u,%u,%u,%u", &x0, &y0, &cw, &ch) != 4 ||
			    x0 >= w || y0 >= h || !cw || !ch) {
				fprintf(stderr, "pngcheck: --crop %s: not X,Y,W,H inside %ux%u\n",
					argv[a + 1], w, h);
				free(img);
				return 2;
			}
			if (cw > w - x0)
				cw = w - x0;
			if (ch > h - y0)
				ch = h - y0;
			a += 2;
		}
		for (c = a; c < argc && strcmp(argv[c], "--crop"); c++)
			;
		errors += check(argv[1], img, w, bpp, x0, y0, cw, ch, argv + a, c - a);
		a = c;
	} while (a < argc);
	free(img);
	return errors ? 1 : 0;
}
