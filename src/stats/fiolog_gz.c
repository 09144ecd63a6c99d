// SPDX-License-Identifier: MIT
/* fio 3.33's compressed logs: binary samples deflated by zlib, and --inflate-log (fiolog_gz.h). */
#include <errno.h>
#include <linux/ioprio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "iowl/debug.h"
#include "iowl/fiolog_gz.h"
#include "iowl/outfile.h"

/* Where fio's struct io_sample keeps its fields (x86-64 and the other LP64 ABIs). */
enum { S_TIME = 0, S_VALUE = 8, S_DDIR = 16, S_PRIO = 20, S_BS = 24, S_OFFSET = 32 };

/* deflate's fastest level: a chunk costs about a third of the default level's CPU, in the worker. */
#define GZ_LEVEL Z_BEST_SPEED

size_t fiolog_gz_sample(void *buf, const struct fiolog_entry *e, bool log_offset, bool log_prio)
{
	unsigned char *p = buf;
	uint32_t ddir = e->ddir | (log_offset ? FIOLOG_GZ_OFFSET_BIT : 0) |
			(log_prio ? FIOLOG_GZ_PRIO_BIT : 0);
	uint16_t prio = (uint16_t)e->prio, pad = 0;

	memcpy(p + S_TIME, &e->time_ms, 8);
	memcpy(p + S_VALUE, &e->value, 8);
	memcpy(p + S_DDIR, &ddir, 4);
	memcpy(p + S_PRIO, &prio, 2);
	memcpy(p + S_PRIO + 2, &pad, 2);
	memcpy(p + S_BS, &e->bs, 8);
	if (!log_offset)
		return FIOLOG_GZ_SAMPLE;
	memcpy(p + S_OFFSET, &e->offset, 8);
	return FIOLOG_GZ_SAMPLE_OFFSET;
}

struct fiolog_gz {
	z_stream s;
	unsigned char *out;
	size_t cap;
};

struct fiolog_gz *fiolog_gz_new(size_t chunk)
{
	struct fiolog_gz *z = calloc(1, sizeof(*z));

	if (!z)
		return NULL;
	if (deflateInit(&z->s, GZ_LEVEL) != Z_OK) {
		free(z);
		return NULL;
	}
	z->cap = deflateBound(&z->s, (uLong)chunk);
	z->out = malloc(z->cap);
	if (!z->out) {
		fiolog_gz_free(z);
		return NULL;
	}
	return z;
}

int fiolog_gz_write(struct fiolog_gz *z, int fd, const void *buf, size_t len)
{
	if (deflateReset(&z->s) != Z_OK)
		return EIO;
	z->s.next_in = (Bytef *)(uintptr_t)buf;
	z->s.avail_in = (uInt)len;
	z->s.next_out = z->out;
	z->s.avail_out = (uInt)z->cap;
	if (deflate(&z->s, Z_FINISH) != Z_STREAM_END)
		return EIO;
	dprint(DBG_COMPRESS, "log chunk of %zu bytes (%zu samples) deflated to %zu bytes", len,
	       len / (((const uint32_t *)buf)[4] & FIOLOG_GZ_OFFSET_BIT ? FIOLOG_GZ_SAMPLE_OFFSET :
									  FIOLOG_GZ_SAMPLE),
	       (size_t)(z->cap - z->s.avail_out));
	return fd_write_all(fd, z->out, z->cap - z->s.avail_out);
}

void fiolog_gz_free(struct fiolog_gz *z)
{
	if (!z)
		return;
	deflateEnd(&z->s);
	free(z->out);
	free(z);
}

/* One sample as fio's flush_samples() prints it. */
static void print_sample(FILE *out, const unsigned char *p, bool log_offset, bool log_prio)
{
	struct fiolog_entry e = { 0 };
	char line[FIOLOG_LINE_MAX];
	uint32_t ddir;
	uint16_t prio;

	memcpy(&e.time_ms, p + S_TIME, 8);
	memcpy(&e.value, p + S_VALUE, 8);
	memcpy(&ddir, p + S_DDIR, 4);
	memcpy(&prio, p + S_PRIO, 2);
	memcpy(&e.bs, p + S_BS, 8);
	if (log_offset)
		memcpy(&e.offset, p + S_OFFSET, 8);
	e.ddir = ddir & ~(FIOLOG_GZ_OFFSET_BIT | FIOLOG_GZ_PRIO_BIT);
	e.prio = log_prio ? prio : IOPRIO_PRIO_CLASS(prio) == IOPRIO_CLASS_RT;
	fwrite(line, 1,
	       log_prio ? fiolog_format_prio(line, &e, log_offset) :
			  fiolog_format(line, &e, log_offset),
	       out);
}

#define INFL_BUF (64 * 1024)

/* The inflater's state: the stream, and the samples of the current zlib stream so far. */
struct infl {
	z_stream s;
	unsigned char in[INFL_BUF];
	unsigned char out[INFL_BUF + FIOLOG_GZ_SAMPLE_OFFSET];
	size_t have;	/* bytes in out[] not printed yet */
	size_t rec;	/* the stream's sample size; 0 until its first sample is seen */
	bool log_offset, log_prio;
};

/* Prints the whole samples in out[], keeping a partial one for the next round. */
static void infl_print(struct infl *z, FILE *out)
{
	size_t n = 0;

	if (!z->rec &&
	    z->have >= S_PRIO) { /* as fio: the first sample says what the stream holds */
		uint32_t ddir;

		memcpy(&ddir, z->out + S_DDIR, 4);
		z->log_offset = ddir & FIOLOG_GZ_OFFSET_BIT;
		z->log_prio = ddir & FIOLOG_GZ_PRIO_BIT;
		z->rec = z->log_offset ? FIOLOG_GZ_SAMPLE_OFFSET : FIOLOG_GZ_SAMPLE;
	}
	if (!z->rec)
		return;
	for (; n + z->rec <= z->have; n += z->rec)
		print_sample(out, z->out + n, z->log_offset, z->log_prio);
	memmove(z->out, z->out + n, z->have - n);
	z->have -= n;
}

int fiolog_inflate(const char *path, FILE *out, struct iowl_err *err)
{
	FILE *f = fopen(path, "rb");
	int open_errno = errno;
	struct infl *z = f ? calloc(1, sizeof(*z)) : NULL;
	bool in_stream = false;
	unsigned streams = 0;
	int ret = 0, zr = Z_OK;

	if (!f)
		return err_errno(err, open_errno, "--inflate-log=%s", path);
	if (!z || inflateInit(&z->s) != Z_OK) {
		free(z);
		fclose(f);
		return err_nomem(err, "--inflate-log: out of memory");
	}
	while (!ret) {
		if (!z->s.avail_in) {
			size_t n = fread(z->in, 1, sizeof(z->in), f);

			if (!n)
				break;
			z->s.next_in = z->in;
			z->s.avail_in = (uInt)n;
		}
		if (!in_stream) {
			inflateReset(&z->s);
			in_stream = true;
			z->rec = 0;
			streams++;
		}
		z->s.next_out = z->out + z->have;
		z->s.avail_out = (uInt)(sizeof(z->out) - z->have);
		zr = inflate(&z->s, Z_NO_FLUSH);
		if (zr != Z_OK && zr != Z_STREAM_END) {
			ret = err_set(err,
				      "--inflate-log=%s: %s in zlib stream %u: not a compressed fio log (log_store_compressed writes NAME_KIND.N.log.fz), or a damaged one",
				      path, z->s.msg ? z->s.msg : zError(zr), streams);
			break;
		}
		z->have = (size_t)(z->s.next_out - z->out);
		infl_print(z, out);
		if (zr == Z_STREAM_END) {
			if (z->have)
				ret = err_set(err,
					      "--inflate-log=%s: zlib stream %u ends inside a sample (%zu bytes left over)",
					      path, streams, z->have);
			in_stream = false;
			z->have = 0;
		}
	}
	if (!ret && ferror(f))
		ret = err_errno(err, EIO, "--inflate-log=%s", path);
	else if (!ret && in_stream)
		ret = err_set(err,
			      "--inflate-log=%s: the file ends inside zlib stream %u (cut short)",
			      path, streams);
	if (!ret && (fflush(out) || ferror(out)))
		ret = err_errno(err, errno, "--inflate-log: writing the log");
	inflateEnd(&z->s);
	free(z);
	fclose(f);
	return ret;
}
