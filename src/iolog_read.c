// SPDX-License-Identifier: MIT
/* read_iolog: fio's iolog v2/v3 and blktrace binary traces, read as fio 3.33 reads them. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "iowl/blktrace.h"
#include "iowl/debug.h"
#include "iowl/engine.h"
#include "iowl/iolog_read.h"
#include "iowl/job.h"
#include "iowl/value.h"

/* The files of all the job's logs, in the order they are first added. */
struct rfiles {
	char **name;
	unsigned n, cap;
};

/* How a log's IOs are kept. */
enum rl_keep {
	RL_ALL,	  /* all of them, in r->io (read whole before the run) */
	RL_COUNT, /* none, only counted (read_iolog_chunked's look before the run) */
	RL_CHUNK, /* up to cap of them, in r->io (read_iolog_chunked's next chunk) */
};

/* What one log gives, while it is read. */
struct rlog {
	const struct job *job;
	const char *path;
	unsigned line;
	struct replay *r;
	uint64_t cap;
	unsigned keep;	   /* enum rl_keep */
	bool fixed;	   /* RL_CHUNK: the files are known, none may be added */
	unsigned ver;	   /* text: 2 or 3 */
	uint64_t last_us;  /* text v3: the timestamp before */
	char *buf;	   /* text: getline's line */
	size_t buf_cap;
	uint64_t carry_ns; /* delay of lines that are not IOs, moved to the next IO */
	uint32_t max_len[DDIR_NR];
	unsigned dirs; /* RW_F_* seen */
	struct rfiles *files;
	int *map;     /* this log's file numbers -> index in files (text logs) */
	char **local; /* this log's added names */
	unsigned nlocal;
};

static int rf_index(struct rfiles *f, const char *name, bool fixed)
{
	char **grown;

	for (unsigned i = 0; i < f->n; i++)
		if (!strcmp(f->name[i], name))
			return (int)i;
	if (fixed)
		return -ENOENT;
	if (f->n == 65535)
		return -ERANGE;
	if (f->n == f->cap) {
		f->cap = f->cap ? 2 * f->cap : 8;
		grown = realloc(f->name, f->cap * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		f->name = grown;
	}
	if (!(f->name[f->n] = strdup(name)))
		return -ENOMEM;
	return (int)f->n++;
}

static int rl_err(struct rlog *l, struct iowl_err *err, const char *fmt, const char *a)
{
	char msg[512];

	snprintf(msg, sizeof(msg), fmt, a);
	return err_set(err, "%s:%u: %s (read_iolog of job '%s')", l->path, l->line, msg,
		       l->job->o.name);
}

/* The delay before an IO, from the log's own (in ns), as replay_no_stall and replay_time_scale say. */
static uint64_t rl_scale_delay(const struct job_opts *o, uint64_t ns)
{
	if (o->replay_no_stall)
		return 0;
	if (o->replay_time_scale == 100)
		return ns;
	return (uint64_t)((double)ns * 100.0 / (double)o->replay_time_scale);
}

static int rl_add(struct rlog *l, unsigned op, unsigned file, uint64_t offset, uint32_t len,
		  uint64_t delay_ns)
{
	const struct job_opts *o = &l->job->o;
	struct replay_io *io, counted;

	if (op <= DDIR_TRIM && (o->replay_skip & (1U << op)))
		return 0;
	if (op >= DDIR_FSYNC && (o->replay_skip & (1U << 3)))
		return 0;
	if (l->keep == RL_COUNT) {
		io = &counted;
		l->r->n++;
	} else if (l->r->n == l->cap) {
		struct replay_io *grown;

		l->cap = l->cap ? 2 * l->cap : 1024;
		grown = realloc(l->r->io, l->cap * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		l->r->io = grown;
		io = &l->r->io[l->r->n++];
	} else {
		io = &l->r->io[l->r->n++];
	}
	if (o->replay_scale)
		offset /= o->replay_scale;
	if (o->replay_align)
		offset &= ~((uint64_t)o->replay_align - 1);
	io->offset = offset;
	io->len = len;
	io->file = (uint16_t)file;
	io->op = (uint8_t)op;
	io->delay_ns = rl_scale_delay(o, delay_ns + l->carry_ns);
	l->carry_ns = 0;
	if (op <= DDIR_TRIM) {
		l->dirs |= 1U << op;
		if (len > l->max_len[op])
			l->max_len[op] = len;
	}
	return 0;
}

static int rl_local(struct rlog *l, const char *name)
{
	for (unsigned i = 0; i < l->nlocal; i++)
		if (!strcmp(l->local[i], name))
			return (int)i;
	return -1;
}

/* A "<file> add|open|close" line. */
static int rl_file_action(struct rlog *l, const char *name, const char *act, struct iowl_err *err)
{
	const char *redirect = l->job->o.replay_redirect;
	char **grown;
	int *gmap;
	int idx;

	if (!strcmp(act, "open") || !strcmp(act, "close")) {
		if (rl_local(l, name) < 0)
			return rl_err(l, err, "'%s' is opened or closed before its 'add' line",
				      name);
		return 0; /* iowl opens every file before the first IO and closes them at the end */
	}
	if (strcmp(act, "add"))
		return rl_err(l, err, "unknown file action '%s' (add, open or close)", act);
	if (rl_local(l, name) >= 0)
		return 0;
	idx = rf_index(l->files, redirect ? redirect : name, l->fixed);
	grown = realloc(l->local, (l->nlocal + 1) * sizeof(*grown));
	gmap = realloc(l->map, (l->nlocal + 1) * sizeof(*gmap));
	if (grown)
		l->local = grown;
	if (gmap)
		l->map = gmap;
	if (idx < 0 || !grown || !gmap || !(l->local[l->nlocal] = strdup(name)))
		return idx == -ERANGE ?
			       rl_err(l, err, "more than 65535 files (at '%s')", name) :
		       idx == -ENOENT ?
			       rl_err(l, err,
				      "'%s' was not in the log when it was first read: it changed",
				      name) :
			       err_nomem(err, "out of memory");
	l->map[l->nlocal++] = idx;
	return 0;
}

static int rl_action(const char *act)
{
	static const char *const names[] = { "read", "write", "trim", "sync", "datasync" };

	for (unsigned i = 0; i < 5; i++)
		if (!strcmp(act, names[i]))
			return (int)i;
	return -1;
}

/* One line of a text log, split into words. */
static int rl_text_line(struct rlog *l, unsigned ver, char **w, unsigned nw, uint64_t *last_us,
			struct iowl_err *err)
{
	uint64_t ts = 0, off, len, delay = 0;
	char why[VAL_WHY_LEN];
	int op, f;

	if (ver == 3) {
		if (!nw)
			return 0;
		if (val_parse_u64(w[0], &ts, why))
			return rl_err(l, err, "the timestamp (microseconds) %s", why);
		/* fio: the time since the line before, none for a clock that went back */
		delay = *last_us && ts >= *last_us ? (ts - *last_us) * 1000 : 0;
		*last_us = ts;
		w++;
		nw--;
	}
	if (nw == 2) {
		l->carry_ns += delay;
		return rl_file_action(l, w[0], w[1], err);
	}
	if (nw != 4)
		return nw ? rl_err(l, err,
				   "'%s' is not 'file action' or 'file action offset length'",
				   w[0]) :
			    0;
	if (val_parse_u64(w[2], &off, why) || val_parse_u64(w[3], &len, why))
		return rl_err(l, err, "offset or length: %s", why);
	if (!strcmp(w[1], "wait")) {
		if (ver == 3) /* fio ignores it with a message */
			return rl_err(l, err,
				      "'wait' is not a version 3 action (%s): use timestamps",
				      w[0]);
		l->carry_ns += off >= 100 ? off * 1000 : 0; /* fio: below 100 us is discarded */
		return 0;
	}
	op = rl_action(w[1]);
	if (op < 0)
		return rl_err(l, err,
			      "unknown action '%s' (read, write, trim, sync, datasync or wait)",
			      w[1]);
	f = rl_local(l, w[0]);
	if (f < 0)
		return rl_err(l, err, "'%s' has no 'add' line before its IO", w[0]);
	if (len > UINT32_MAX || (op <= DDIR_TRIM && !len))
		return rl_err(l, err, "length %s: use 1 to 4294967295 bytes", w[3]);
	if (op > DDIR_TRIM)
		off = len = 0;
	return rl_add(l, (unsigned)op, (unsigned)l->map[f], off, (uint32_t)len, delay) ?
		       err_nomem(err, "out of memory") :
		       0;
}

/* The next line of a text log.  Returns 0, 1 at the end of the log, or -errno with err set. */
static int rl_text_next(struct rlog *l, FILE *f, struct iowl_err *err)
{
	char *line, *save, *w[8];
	unsigned nw = 0;

	if (getline(&l->buf, &l->buf_cap, f) < 0) {
		if (ferror(f))
			return err_errno(err, errno, "read_iolog '%s'", l->path);
		return l->line ? 1 : rl_err(l, err, "%s", "empty file");
	}
	line = l->buf;
	l->line++;
	if (l->line == 1) {
		if (!strncmp(line, "fio version 2 iolog", 19))
			l->ver = 2;
		else if (!strncmp(line, "fio version 3 iolog", 19))
			l->ver = 3;
		else
			return rl_err(l, err,
				      "%snot a fio iolog ('fio version 2 iolog' or 'fio version 3 iolog' first) nor a blktrace binary trace",
				      strchr(line, ',') ?
					      "iolog version 1 is no longer supported (as fio): " :
					      "");
		return 0;
	}
	for (char *t = strtok_r(line, " \t\r\n", &save); t && nw < 8;
	     t = strtok_r(NULL, " \t\r\n", &save))
		w[nw++] = t;
	return rl_text_line(l, l->ver, w, nw, &l->last_us, err);
}

static int rl_text(struct rlog *l, FILE *f, struct iowl_err *err)
{
	int ret;

	while (!(ret = rl_text_next(l, f, err)))
		;
	return ret < 0 ? ret : 0;
}

/* Finds the block device dev_t under dir (as fio, /dev searched depth first). */
static bool bt_lookup(const char *dir, dev_t dev, char *out, size_t n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct stat st;
	char p[4096];
	bool found = false;

	if (!d)
		return false;
	while (!found && (e = readdir(d))) {
		if (e->d_name[0] == '.' ||
		    (size_t)snprintf(p, sizeof(p), "%s/%s", dir, e->d_name) >= sizeof(p) ||
		    lstat(p, &st))
			continue;
		if (S_ISDIR(st.st_mode))
			found = bt_lookup(p, dev, out, n);
		else if (S_ISBLK(st.st_mode) && st.st_rdev == dev && strlen(p) < n) {
			strcpy(out, p);
			found = true;
		}
	}
	closedir(d);
	return found;
}

/* The file index of a trace's device: replay_redirect, else the /dev node with its numbers. */
static int bt_file(struct rlog *l, uint32_t device, struct iowl_err *err)
{
	static const char fmt[] =
		"no block device %u:%u under /dev for the trace's IOs: give replay_redirect=DEVICE";
	const char *redirect = l->job->o.replay_redirect;
	char path[4096], msg[160];
	int idx;

	if (redirect)
		idx = rf_index(l->files, redirect, false);
	else if (bt_lookup("/dev", makedev(device >> 20, device & 0xfffff), path, sizeof(path)))
		idx = rf_index(l->files, path, false);
	else {
		snprintf(msg, sizeof(msg), fmt, device >> 20, device & 0xfffff);
		return rl_err(l, err, "%s", msg);
	}
	return idx >= 0 ? idx : err_nomem(err, "out of memory");
}

/*
 * As fio 3.33's load_blktrace: only queue events make IOs (discards trims, flushes syncs, else a
 * read or a write of bytes at sector x 512); each takes as its delay the time since the event
 * before it on the same CPU, whatever that event was.
 */
static int rl_blktrace(struct rlog *l, FILE *f, bool swap, struct iowl_err *err)
{
	struct blk_io_trace t;
	uint64_t last = 0;
	uint32_t cpu = 0, last_dev = UINT32_MAX;
	int file = 0, ret = 0;
	size_t got;

	l->r->blktrace = true;
	while (!ret && (got = fread(&t, 1, sizeof(t), f)) == sizeof(t)) {
		uint64_t delay = 0;
		unsigned op;

		l->line++; /* the event's number, for messages */
		if (swap)
			bt_swap(&t);
		if ((t.magic & 0xffffff00U) != BLK_IO_TRACE_MAGIC ||
		    (t.magic & 0xff) != BLK_IO_TRACE_VERSION)
			return rl_err(l, err, "%s",
				      "bad magic or version in the blktrace event (version 7 expected)");
		if (t.pdu_len && fseek(f, t.pdu_len, SEEK_CUR))
			return err_errno(err, errno, "read_iolog '%s'", l->path);
		if (t.action & BLK_TC_ACT(BLK_TC_NOTIFY))
			continue;
		if (!last) {
			last = t.time;
			cpu = t.cpu;
		}
		if (cpu == t.cpu && t.time >= last)
			delay = t.time - last;
		last = t.time;
		cpu = t.cpu;
		if ((t.action & 0xffff) != BLK_TA_QUEUE || (t.action & BLK_TC_ACT(BLK_TC_PC)))
			continue;
		if (t.device != last_dev) {
			file = bt_file(l, t.device, err);
			if (file < 0)
				return file;
			last_dev = t.device;
		}
		if (t.action & BLK_TC_ACT(BLK_TC_DISCARD))
			op = DDIR_TRIM;
		else if (t.action & BLK_TC_ACT(BLK_TC_FLUSH))
			op = DDIR_FSYNC;
		else
			op = (t.action & BLK_TC_ACT(BLK_TC_WRITE)) ? DDIR_WRITE : DDIR_READ;
		if (op <= DDIR_TRIM && !t.bytes)
			continue;
		dprint(DBG_BLKTRACE,
		       "%s event %u: %s sector %llu, %u bytes, device %u:%u, after %llu ns",
		       l->path, l->line, ddir_name(op), (unsigned long long)t.sector, t.bytes,
		       t.device >> 20, t.device & 0xfffff, (unsigned long long)delay);
		ret = rl_add(l, op, (unsigned)file, op <= DDIR_TRIM ? t.sector * 512 : 0,
			     op <= DDIR_TRIM ? t.bytes : 0, delay) ?
			      err_nomem(err, "out of memory") :
			      0;
	}
	if (!ret && ferror(f))
		ret = err_errno(err, errno, "read_iolog '%s'", l->path);
	return ret;
}

/* The names a log adds and their files' indexes (at the end of a read). */
static void rl_locals_free(struct rlog *l)
{
	for (unsigned i = 0; i < l->nlocal; i++)
		free(l->local[i]);
	free(l->local);
	free(l->map);
	free(l->buf);
	l->local = NULL;
	l->map = NULL;
	l->buf = NULL;
	l->nlocal = 0;
}

/*
 * Reads one log: the file at l->path, or with mem the merged trace in it (len bytes).  With
 * read_iolog_chunked a text log's IOs are only counted here (a blktrace is read whole, as fio's).
 */
static int rl_load(struct rlog *l, char *mem, size_t len, struct iowl_err *err)
{
	FILE *f = mem ? fmemopen(mem, len, "r") : fopen(l->path, "r");
	uint32_t magic = 0;
	bool swap = false;
	int ret;

	if (!f)
		return err_errno(err, errno, "job '%s': read_iolog '%s'", l->job->o.name, l->path);
	if (fread(&magic, 1, sizeof(magic), f) == sizeof(magic) && bt_magic(magic, &swap)) {
		rewind(f);
		ret = rl_blktrace(l, f, swap, err);
	} else {
		rewind(f);
		l->keep = l->job->o.read_iolog_chunked && !mem ? RL_COUNT : RL_ALL;
		l->r->chunked = l->keep == RL_COUNT;
		ret = rl_text(l, f, err);
		if (!ret && l->r->chunked && !(l->r->path = strdup(l->path)))
			ret = err_nomem(err, "out of memory");
	}
	fclose(f);
	rl_locals_free(l);
	if (!ret && !l->r->n)
		ret = err_set(err,
			      "%s: no IOs to replay (read_iolog of job '%s'; fio: 'failed initializing iolog')",
			      l->path, l->job->o.name);
	return ret;
}

/* Joins names with ':' (a ':' inside a name as '\:'), for filename=. */
static char *join_names(char **names, unsigned n)
{
	size_t len = 1;
	char *s, *p;

	for (unsigned i = 0; i < n; i++)
		len += 2 * strlen(names[i]) + 1;
	s = p = malloc(len);
	if (!s)
		return NULL;
	for (unsigned i = 0; i < n; i++) {
		if (i)
			*p++ = ':';
		for (const char *c = names[i]; *c; c++) {
			if (*c == ':')
				*p++ = '\\';
			*p++ = *c;
		}
	}
	*p = '\0';
	return s;
}

static int replay_apply(struct job *job, struct rfiles *files, const uint32_t *max_len,
			unsigned dirs, bool blktrace, struct iowl_err *err)
{
	struct job_opts *o = &job->o;
	char *names = join_names(files->name, files->n);

	if (!names)
		return err_nomem(err, "out of memory");
	if (o->filename && strcmp(o->filename, names))
		iowl_warn("job '%s': read_iolog replays on the files its log names%s: filename=%s is not used (as fio)",
			  o->name, o->replay_redirect ? " (replay_redirect)" : "", o->filename);
	free(o->filename);
	o->filename = names;
	o->rw = dirs;
	for (unsigned d = 0; d < DDIR_NR; d++)
		if (max_len[d])
			o->bs[d] = max_len[d];
	(void)blktrace; /* fio 3.33 replays a trace buffered unless direct=1, as any log */
	return 0;
}

int replay_prepare(struct job *job, struct iowl_err *err)
{
	struct job_opts *o = &job->o;
	struct rfiles files = { 0 };
	uint32_t max_len[DDIR_NR] = { 0, 0, 0 };
	unsigned dirs = 0, n = 0;
	bool blktrace = false;
	char why[VAL_WHY_LEN] = "";
	char **logs;
	int ret = 0;

	if (!o->read_iolog)
		return 0;
	if (o->replay_align & (o->replay_align - 1))
		return job_opt_err(job, OPT_ID_replay_align, err,
				   "%u is not a power of 2 (e.g. 4096)", o->replay_align);
	logs = val_split_names(o->read_iolog, why);
	if (!logs || !logs[0]) {
		val_strv_free(logs);
		return job_opt_err(job, OPT_ID_read_iolog, err, "%s",
				   why[0] ? why : "give a log file name");
	}
	while (logs[n])
		n++;
	if (o->merge_blktrace_file) { /* one trace, the merge of them all */
		free(job->merged);
		job->merged = NULL;
		job->merged_len = 0;
		ret = *o->merge_blktrace_file ?
			      bt_merge(job, logs, n, &job->merged, &job->merged_len, err) :
			      job_opt_err(job, OPT_ID_merge_blktrace_file, err,
					  "empty value (give a file name)");
		if (!ret && !job->merged_len)
			ret = job_opt_err(job, OPT_ID_merge_blktrace_file, err,
					  "the traces hold no queued read, write or discard: nothing to merge");
		n = 1;
	} else if (o->merge_blktrace_scalars || o->merge_blktrace_iters) {
		ret = job_opt_err(job,
				  o->merge_blktrace_scalars ? OPT_ID_merge_blktrace_scalars :
							      OPT_ID_merge_blktrace_iters,
				  err,
				  "applies to the merge of merge_blktrace_file, which is not set");
	}
	if (!ret && !(job->replays = calloc(n, sizeof(*job->replays))))
		ret = err_nomem(err, "out of memory");
	for (unsigned i = 0; !ret && i < n; i++) {
		struct rlog l = { .job = job,
				  .path = job->merged ? o->merge_blktrace_file : logs[i],
				  .r = &job->replays[i],
				  .files = &files };

		job->nreplays = i + 1;
		ret = rl_load(&l, job->merged, job->merged_len, err);
		for (unsigned d = 0; d < DDIR_NR; d++)
			if (l.max_len[d] > max_len[d])
				max_len[d] = l.max_len[d];
		dirs |= l.dirs;
		blktrace |= l.r->blktrace;
	}
	if (!ret && !dirs)
		ret = job_opt_err(job, OPT_ID_read_iolog, err,
				  "the log holds only syncs: nothing to replay");
	if (!ret)
		ret = replay_apply(job, &files, max_len, dirs, blktrace, err);
	if (job->replays) { /* read_iolog_chunked's readers look the files up in them */
		job->replays[0].names = files.name;
		job->replays[0].nnames = files.n;
	} else {
		for (unsigned i = 0; i < files.n; i++)
			free(files.name[i]);
		free(files.name);
	}
	val_strv_free(logs);
	return ret;
}

void replay_release(struct job *job)
{
	for (unsigned i = 0; job->replays && i < job->nreplays; i++) {
		free(job->replays[i].io);
		free(job->replays[i].path);
		for (unsigned k = 0; k < job->replays[i].nnames; k++)
			free(job->replays[i].names[k]);
		free(job->replays[i].names);
	}
	free(job->replays);
	job->replays = NULL;
	job->nreplays = 0;
}

/* read_iolog_chunked: one clone's reader of its log, a chunk of IOs at a time. */
struct replay_reader {
	FILE *f;
	struct rlog l;
	struct replay chunk; /* io: REPLAY_CHUNK entries, n: how many the last chunk filled */
	struct rfiles files; /* the job's, borrowed: none is added */
};

void replay_reader_close(struct replay_reader *rd)
{
	if (!rd)
		return;
	if (rd->f)
		fclose(rd->f);
	rl_locals_free(&rd->l);
	free(rd->chunk.io);
	free(rd);
}

struct replay_reader *replay_reader_open(const struct job *job, const struct replay *r,
					 struct iowl_err *err)
{
	struct replay_reader *rd = calloc(1, sizeof(*rd));

	if (!rd || !(rd->chunk.io = malloc(REPLAY_CHUNK * sizeof(*rd->chunk.io)))) {
		replay_reader_close(rd);
		err_nomem(err, "job '%s': read_iolog_chunked: out of memory", job->o.name);
		return NULL;
	}
	rd->files.name = job->replays[0].names;
	rd->files.n = rd->files.cap = job->replays[0].nnames;
	rd->l = (struct rlog){ .job = job,
			       .path = r->path,
			       .r = &rd->chunk,
			       .cap = REPLAY_CHUNK,
			       .keep = RL_CHUNK,
			       .fixed = true,
			       .files = &rd->files };
	rd->f = fopen(r->path, "r");
	if (!rd->f) {
		err_errno(err, errno, "job '%s': read_iolog '%s'", job->o.name, r->path);
		replay_reader_close(rd);
		return NULL;
	}
	return rd;
}

int64_t replay_reader_next(struct replay_reader *rd, const struct replay_io **io,
			   struct iowl_err *err)
{
	int ret = 0;

	rd->chunk.n = 0;
	while (rd->chunk.n < REPLAY_CHUNK && !(ret = rl_text_next(&rd->l, rd->f, err)))
		;
	*io = rd->chunk.io;
	return ret < 0 ? ret : (int64_t)rd->chunk.n;
}
