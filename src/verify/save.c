// SPDX-License-Identifier: MIT
/*
 * verify_state_save / verify_state_load: a worker's write state in a file, fio's file name
 * (DIR/local-NAME-N-verify.state) with iowl's contents, so that a later verify run checks only
 * the units whose writes had completed.  The file, little-endian:
 *
 *   0  "iowlvst1"       magic and version
 *   8  u32 interval     verify_interval of the units
 *  12  u32 mode         enum verify_mode
 *  16  u64 seed         the payloads' seed
 *  24  u32 job, clone   who wrote (the headers' thread and clone)
 *  32  u32 nfiles, 0
 *  40  u64 units        of each file, nfiles of them
 *      runs of written units: u64 first unit, u32 count (0 ends), count x u32 last-write seq
 *      u32 crc32c of everything before it
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iowl/outfile.h"
#include "verify/verify_int.h"

#define VSTATE_MAGIC "iowlvst1"
#define VSTATE_HDR 40

static char aux_dir[PATH_MAX];

void verify_state_dir(const char *dir)
{
	snprintf(aux_dir, sizeof(aux_dir), "%s", dir ? dir : "");
}

int verify_state_name(char *out, size_t n, const char *name, unsigned number)
{
	char ename[256];
	size_t i;
	int len;

	/* fio turns '/' in the job's name into '.' */
	for (i = 0; name[i] && i + 1 < sizeof(ename); i++)
		ename[i] = name[i] == '/' ? '.' : name[i];
	ename[i] = 0;
	len = snprintf(out, n, "%s%slocal-%s-%u-verify.state", aux_dir, *aux_dir ? "/" : "", ename,
		       number);
	return len < 0 || (size_t)len >= n ? -ENAMETOOLONG : 0;
}

/* A growing little-endian buffer. */
struct vbuf {
	unsigned char *p;
	size_t len, cap;
	bool oom;
};

static void put(struct vbuf *b, const void *src, size_t n)
{
	if (b->oom)
		return;
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 4096;
		unsigned char *p;

		while (cap < b->len + n)
			cap *= 2;
		if (!(p = realloc(b->p, cap))) {
			b->oom = true;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, src, n);
	b->len += n;
}

static void put32(struct vbuf *b, uint32_t v)
{
	v = htole32(v);
	put(b, &v, 4);
}

static void put64(struct vbuf *b, uint64_t v)
{
	v = htole64(v);
	put(b, &v, 8);
}

/* A unit's last completed write: 0 for none, or one still in flight when the worker ended. */
static uint32_t done_seq(uint32_t s)
{
	return s & VERIFY_BUSY ? 0 : s;
}

int verify_state_save(const struct verify *v, const char *path, struct iowl_err *err)
{
	struct vbuf b = { 0 };
	uint64_t end = v->base[v->nfiles];
	char tmp[PATH_MAX + 8];
	int fd, ret = 0;

	if (!v->state)
		return 0;
	put(&b, VSTATE_MAGIC, 8);
	put32(&b, v->cfg.interval);
	put32(&b, v->cfg.mode);
	put64(&b, v->seed);
	put32(&b, v->cfg.job);
	put32(&b, v->cfg.clone);
	put32(&b, v->nfiles);
	put32(&b, 0);
	for (unsigned f = 0; f < v->nfiles; f++)
		put64(&b, v->base[f + 1] - v->base[f]);
	for (uint64_t u = 0; u < end;) {
		uint64_t first;

		while (u < end && !done_seq(v->state[u]))
			u++;
		if (u == end)
			break;
		first = u;
		while (u < end && done_seq(v->state[u]) && u - first < UINT32_MAX)
			u++;
		put64(&b, first);
		put32(&b, (uint32_t)(u - first));
		for (uint64_t k = first; k < u; k++)
			put32(&b, done_seq(v->state[k]));
	}
	put64(&b, 0);
	put32(&b, 0);
	if (!b.oom)
		put32(&b, verify_crc32c_sw(0, b.p, b.len));
	if (b.oom) {
		free(b.p);
		return err_nomem(err, "out of memory for the verify state '%s'", path);
	}
	/* written whole, then renamed over the old one: a stop while saving leaves the old state */
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || fd_write_all(fd, b.p, b.len) || fsync(fd) || rename(tmp, path))
		ret = err_set(err, "verify_state_save: cannot write '%s': %s", path,
			      strerror(errno));
	if (fd >= 0)
		close(fd);
	if (ret)
		unlink(tmp);
	free(b.p);
	return ret;
}

/* A reader over the file's bytes. */
struct vread {
	const unsigned char *p;
	size_t len, at;
};

static bool get(struct vread *r, void *dst, size_t n)
{
	if (r->len - r->at < n)
		return false;
	memcpy(dst, r->p + r->at, n);
	r->at += n;
	return true;
}

static bool get32(struct vread *r, uint32_t *v)
{
	bool ok = get(r, v, 4);

	*v = le32toh(*v);
	return ok;
}

static bool get64(struct vread *r, uint64_t *v)
{
	bool ok = get(r, v, 8);

	*v = le64toh(*v);
	return ok;
}

/* Reads the whole file at path into *buf (*len bytes).  Returns 0 or -errno. */
static int slurp(const char *path, unsigned char **buf, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	off_t size;
	ssize_t got = 0;

	*buf = NULL;
	if (fd < 0)
		return -errno;
	size = lseek(fd, 0, SEEK_END);
	if (size < 0 || !(*buf = malloc(size ? (size_t)size : 1))) {
		close(fd);
		return size < 0 ? -errno : -ENOMEM;
	}
	for (size_t at = 0; at < (size_t)size; at += (size_t)got) {
		got = pread(fd, *buf + at, (size_t)size - at, (off_t)at);
		if (got <= 0) {
			close(fd);
			return got < 0 ? -errno : -EIO;
		}
	}
	close(fd);
	*len = (size_t)size;
	return 0;
}

/* Checks the header against the worker's verification; fills why on a mismatch. */
static bool header_fits(const struct verify *v, struct vread *r, uint64_t *seed, uint32_t *job,
			uint32_t *clone, char *why, size_t n)
{
	char magic[8];
	uint32_t iv, mode, nfiles, pad;

	get(r, magic, 8); /* checked before */
	if (!get32(r, &iv) || !get32(r, &mode) || !get64(r, seed) || !get32(r, job) ||
	    !get32(r, clone) || !get32(r, &nfiles) || !get32(r, &pad)) {
		snprintf(why, n, "its header is cut short");
		return false;
	}
	if (iv != v->cfg.interval || mode != v->cfg.mode || nfiles != v->nfiles) {
		snprintf(why, n,
			 "it was saved for verify=%s in units of %" PRIu32 " bytes over %" PRIu32
			 " file(s), this job has verify=%s in units of %" PRIu32 " over %u",
			 verify_mode_name(mode), iv, nfiles, verify_mode_name(v->cfg.mode),
			 v->cfg.interval, v->nfiles);
		return false;
	}
	for (unsigned f = 0; f < v->nfiles; f++) {
		uint64_t units;

		if (!get64(r, &units)) {
			snprintf(why, n, "its header is cut short");
			return false;
		}
		if (units != v->base[f + 1] - v->base[f]) {
			snprintf(why, n,
				 "it was saved for %" PRIu64
				 " units in file %u ('%s'), this job has %" PRIu64,
				 units, f, v->files[f].path, v->base[f + 1] - v->base[f]);
			return false;
		}
	}
	return true;
}

int verify_state_load(struct verify *v, const char *path, struct iowl_err *err)
{
	uint64_t end = v->base[v->nfiles], seed, loaded = 0;
	unsigned char *buf;
	struct vread r;
	char why[512] = "";
	uint32_t crc = 0, maxseq = 0, job, clone;
	size_t len = 0;
	int ret = slurp(path, &buf, &len);

	if (ret) {
		free(buf);
		return err_set(err,
			       "verify_state_load: cannot read '%s': %s (verify_state_save writes it in the current directory, or in --aux-path)",
			       path, strerror(-ret));
	}
	r = (struct vread){ .p = buf, .len = len < 4 ? 0 : len - 4 };
	if (len >= 4)
		memcpy(&crc, buf + r.len, 4);
	if (len < 8 || memcmp(buf, VSTATE_MAGIC, 8)) {
		snprintf(why, sizeof(why),
			 "not an iowl verify state (fio's state files are not read: their write counts replay fio's own random sequence)");
		goto bad;
	}
	if (len < VSTATE_HDR + 4 || le32toh(crc) != verify_crc32c_sw(0, buf, r.len)) {
		snprintf(why, sizeof(why),
			 "it is cut short or corrupt (its checksum does not match)");
		goto bad;
	}
	if (!header_fits(v, &r, &seed, &job, &clone, why, sizeof(why)))
		goto bad;
	if (!v->state && !(v->state = calloc(end ? end : 1, sizeof(*v->state)))) {
		free(buf);
		return err_nomem(err, "out of memory for the verify state of '%s'", path);
	}
	memset(v->state, 0, end * sizeof(*v->state));
	for (;;) {
		uint64_t first;
		uint32_t count, s;

		if (!get64(&r, &first) || !get32(&r, &count)) {
			snprintf(why, sizeof(why), "its list of written units is cut short");
			goto bad;
		}
		if (!count)
			break;
		if (first >= end || count > end - first) {
			snprintf(why, sizeof(why), "it names unit %" PRIu64 " of %" PRIu64,
				 first + count, end);
			goto bad;
		}
		for (uint32_t k = 0; k < count; k++) {
			if (!get32(&r, &s) || (s & VERIFY_BUSY) || !s) {
				snprintf(why, sizeof(why), "its list of written units is damaged");
				goto bad;
			}
			v->state[first + k] = s;
			maxseq = (s & VERIFY_SEQ_MASK) > maxseq && s != VERIFY_TRIMMED ?
					 (s & VERIFY_SEQ_MASK) :
					 maxseq;
			loaded++;
		}
	}
	free(buf);
	v->seed = seed;
	v->cfg.job = job;	/* the writer's identity, which its headers carry */
	v->cfg.clone = clone;
	v->seq = maxseq;	/* later writes of this run follow the loaded ones */
	v->loaded = true;
	v->only = false;	/* each unit is checked against its known last write */
	v->loaded_units = loaded;
	return 0;
bad:
	free(buf);
	if (v->state && !v->writes) {
		free(v->state);
		v->state = NULL;
	}
	return err_set(err, "verify_state_load: '%s': %s", path, why);
}

uint64_t verify_state_loaded(const struct verify *v)
{
	return v && v->loaded ? v->loaded_units : 0;
}
