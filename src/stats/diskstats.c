// SPDX-License-Identifier: MIT
/* Device statistics: targets to block devices through sysfs, diskstats samples, their figures. */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "iowl/debug.h"
#include "iowl/diskstats.h"

static const char *const disk_kind_names[] = {
	[DISK_KIND_DISK] = "disk", [DISK_KIND_PART] = "part", [DISK_KIND_DM] = "dm",
	[DISK_KIND_MD] = "md",	   [DISK_KIND_LOOP] = "loop",
};

const char *disk_kind_name(enum disk_kind kind)
{
	return (unsigned)kind < sizeof(disk_kind_names) / sizeof(disk_kind_names[0])
		       ? disk_kind_names[kind]
		       : "?";
}

int disk_set_init(struct disk_set *s, const char *root)
{
	size_t len;

	memset(s, 0, sizeof(*s));
	if (!root)
		root = getenv(DISK_SYSROOT_ENV);
	if (!root)
		root = "";
	len = strlen(root);
	if (len >= sizeof(s->root))
		return -ENAMETOOLONG;
	while (len && root[len - 1] == '/')
		len--;
	memcpy(s->root, root, len);
	s->root[len] = '\0';
	return 0;
}

void disk_set_release(struct disk_set *s)
{
	for (unsigned i = 0; i < s->n; i++)
		free(s->devs[i].members);
	free(s->devs);
	s->devs = NULL;
	s->n = 0;
	s->nsamples = 0;
}

/* Formats into buf.  Returns 0 or -ENAMETOOLONG when it does not fit. */
static int __attribute__((format(printf, 3, 4)))
disk_fmt(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return r < 0 || (size_t)r >= len ? -ENAMETOOLONG : 0;
}

int disk_read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	int ret = 0;

	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		ret = ferror(f) ? -EIO : -ENODATA;
	fclose(f);
	if (!ret)
		buf[strcspn(buf, "\n")] = '\0';
	return ret;
}

static unsigned disk_read_uint(const char *dir, const char *name, unsigned dflt)
{
	char path[PATH_MAX + 64], line[64], *end;
	unsigned long v;

	if (disk_fmt(path, sizeof(path), "%s/%s", dir, name) ||
	    disk_read_line(path, line, sizeof(line)))
		return dflt;
	errno = 0;
	v = strtoul(line, &end, 10);
	return errno || end == line || v > UINT_MAX ? dflt : (unsigned)v;
}

/* Reads a "MAJ:MIN" dev file.  Returns 0 or -errno. */
static int disk_read_devno(const char *path, unsigned *major, unsigned *minor)
{
	char line[64];
	int ret = disk_read_line(path, line, sizeof(line));

	if (ret)
		return ret;
	return sscanf(line, "%u:%u", major, minor) == 2 ? 0 : -EINVAL;
}

/* The active scheduler of "mq-deadline kyber [bfq] none", or the only word of "none". */
static void disk_parse_scheduler(const char *line, char *out, size_t len)
{
	const char *open = strchr(line, '['), *close = open ? strchr(open, ']') : NULL;
	size_t n;

	if (open && close) {
		line = open + 1;
		n = (size_t)(close - line);
	} else {
		n = strcspn(line, " \t");
		if (line[n])
			n = 0; /* several words and none chosen: unknown */
	}
	if (n >= len)
		n = len - 1;
	memcpy(out, line, n);
	out[n] = '\0';
}

static void disk_read_limits(const char *qdir, struct disk_limits *lim)
{
	char path[PATH_MAX + 64], line[256];

	lim->max_sectors_kb = disk_read_uint(qdir, "max_sectors_kb", 0);
	lim->max_hw_sectors_kb = disk_read_uint(qdir, "max_hw_sectors_kb", 0);
	lim->logical_block_size = disk_read_uint(qdir, "logical_block_size", 0);
	lim->nr_requests = disk_read_uint(qdir, "nr_requests", 0);
	lim->max_segments = disk_read_uint(qdir, "max_segments", 0);
	lim->max_segment_size = disk_read_uint(qdir, "max_segment_size", 0);
	lim->rotational = (int)disk_read_uint(qdir, "rotational", (unsigned)-1);
	if (lim->rotational > 1)
		lim->rotational = -1;
	lim->scheduler[0] = '\0';
	if (!disk_fmt(path, sizeof(path), "%s/scheduler", qdir) &&
	    !disk_read_line(path, line, sizeof(line)))
		disk_parse_scheduler(line, lim->scheduler, sizeof(lim->scheduler));
}

static int disk_find(const struct disk_set *s, unsigned major, unsigned minor)
{
	for (unsigned i = 0; i < s->n; i++)
		if (s->devs[i].major == major && s->devs[i].minor == minor)
			return (int)i;
	return -1;
}

static bool disk_exists(const char *dir, const char *name)
{
	char path[PATH_MAX + 64];

	return !disk_fmt(path, sizeof(path), "%s/%s", dir, name) && !access(path, F_OK);
}

/* Copies the last component of path (trailing part after the last '/') into out. */
static void disk_basename(const char *path, size_t len, char *out)
{
	const char *p = path + len;

	while (p > path && p[-1] != '/')
		p--;
	snprintf(out, DISK_NAME_LEN, "%.*s", (int)(path + len - p), p);
}

/* What sysfs says about one device: its name, kind and the directory holding its queue. */
struct disk_node {
	char sysdir[PATH_MAX];	 /* <root>/sys/dev/block/MAJ:MIN (a symlink) */
	char link[PATH_MAX];	 /* where it points: .../block/sda/sda1 */
	char qdir[PATH_MAX + 8]; /* the whole disk's queue directory */
};

/*
 * Fills the name, kind and whole disk of d from sysfs.  Returns 1 when sysfs does not know the
 * device number, 0 or -errno.
 */
static int disk_probe(const struct disk_set *s, struct disk_dev *d, struct disk_node *nd)
{
	ssize_t len;
	int ret = disk_fmt(nd->sysdir, sizeof(nd->sysdir), "%s/sys/dev/block/%u:%u", s->root,
			   d->major, d->minor);

	if (ret)
		return ret;
	len = readlink(nd->sysdir, nd->link, sizeof(nd->link) - 1);
	if (len < 0)
		return errno == ENOENT ? 1 : -errno;
	nd->link[len] = '\0';
	disk_basename(nd->link, (size_t)len, d->name);
	strcpy(d->disk, d->name);
	d->disk_major = d->major;
	d->disk_minor = d->minor;
	if (disk_exists(nd->sysdir, "partition")) {
		char devfile[PATH_MAX + 8];

		/* The partition's directory sits inside its disk's: sda/sda1. */
		d->kind = DISK_KIND_PART;
		while (len && nd->link[len - 1] != '/')
			len--;
		disk_basename(nd->link, len ? (size_t)len - 1 : 0, d->disk);
		ret = disk_fmt(devfile, sizeof(devfile), "%s/../dev", nd->sysdir);
		if (!ret)
			ret = disk_read_devno(devfile, &d->disk_major, &d->disk_minor);
		return ret ? ret : disk_fmt(nd->qdir, sizeof(nd->qdir), "%s/../queue", nd->sysdir);
	}
	if (disk_exists(nd->sysdir, "dm"))
		d->kind = DISK_KIND_DM;
	else if (disk_exists(nd->sysdir, "md"))
		d->kind = DISK_KIND_MD;
	else if (!strncmp(d->name, "loop", 4))
		d->kind = DISK_KIND_LOOP;
	else
		d->kind = DISK_KIND_DISK;
	return disk_fmt(nd->qdir, sizeof(nd->qdir), "%s/queue", nd->sysdir);
}

static int disk_add(struct disk_set *s, unsigned major, unsigned minor, int *idx,
		    struct iowl_err *err);

static int disk_cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Lists the entries of dir, sorted (readdir order is not stable).  Returns 0 or -errno. */
static int disk_list_dir(const char *dir, char ***names, unsigned *n)
{
	DIR *dp = opendir(dir);
	struct dirent *de;
	char **v = NULL, **nv;
	unsigned k = 0;

	*names = NULL;
	*n = 0;
	if (!dp)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(dp))) {
		if (de->d_name[0] == '.')
			continue;
		nv = realloc(v, (k + 1) * sizeof(*v));
		if (!nv || !(nv[k] = strdup(de->d_name))) {
			v = nv ? nv : v;
			while (k)
				free(v[--k]);
			free(v);
			closedir(dp);
			return -ENOMEM;
		}
		v = nv;
		k++;
	}
	closedir(dp);
	if (k)
		qsort(v, k, sizeof(*v), disk_cmp_names);
	*names = v;
	*n = k;
	return 0;
}

static int disk_add_member(struct disk_set *s, unsigned parent, unsigned child)
{
	struct disk_dev *p = &s->devs[parent];
	unsigned *m;

	for (unsigned i = 0; i < p->nmembers; i++)
		if (p->members[i] == child)
			return 0;
	m = realloc(p->members, (p->nmembers + 1) * sizeof(*m));
	if (!m)
		return -ENOMEM;
	m[p->nmembers++] = child;
	p->members = m;
	return 0;
}

/* Adds the members listed in <sysdir>/slaves of device number idx, recursively. */
static int disk_add_slaves(struct disk_set *s, unsigned idx, const char *sysdir,
			   struct iowl_err *err)
{
	char dir[PATH_MAX + 16], devfile[PATH_MAX + 300], **names;
	unsigned n, major, minor, i;
	int ret, child;

	ret = disk_fmt(dir, sizeof(dir), "%s/slaves", sysdir);
	if (!ret)
		ret = disk_list_dir(dir, &names, &n);
	if (ret) {
		err_errno(err, -ret, "cannot list '%s'", dir);
		return ret;
	}
	for (i = 0; i < n && !ret; i++) {
		ret = disk_fmt(devfile, sizeof(devfile), "%s/%s/dev", dir, names[i]);
		if (!ret)
			ret = disk_read_devno(devfile, &major, &minor);
		if (ret) {
			err_errno(err, -ret, "cannot read '%s'", devfile);
			break;
		}
		ret = disk_add(s, major, minor, &child, err);
		if (!ret && child >= 0)
			ret = disk_add_member(s, idx, (unsigned)child);
		if (ret == -ENOMEM)
			err_nomem(err, "out of memory");
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return ret;
}

/* Adds device major:minor (or finds it) and its members; *idx is -1 when sysfs has none. */
static int disk_add(struct disk_set *s, unsigned major, unsigned minor, int *idx,
		    struct iowl_err *err)
{
	struct disk_dev d = {.major = major, .minor = minor}, *nd;
	struct disk_node node;
	int ret;

	*idx = disk_find(s, major, minor);
	if (*idx >= 0 || !major)
		return 0;
	ret = disk_probe(s, &d, &node);
	if (ret > 0)
		return 0;
	if (ret < 0) {
		err_errno(err, -ret, "cannot resolve block device %u:%u under '%s/sys'", major,
			  minor, s->root);
		return ret;
	}
	if (d.kind == DISK_KIND_PART && s->part_as_disk)
		return disk_add(s, d.disk_major, d.disk_minor, idx, err);
	disk_read_limits(node.qdir, &d.lim);
	nd = realloc(s->devs, (s->n + 1) * sizeof(*nd));
	if (!nd) {
		err_nomem(err, "out of memory");
		return -ENOMEM;
	}
	s->devs = nd;
	s->devs[s->n] = d;
	*idx = (int)s->n++;
	return disk_add_slaves(s, (unsigned)*idx, node.sysdir, err);
}

int disk_set_add_devno(struct disk_set *s, unsigned major, unsigned minor, int *devp,
		       struct iowl_err *err)
{
	int idx, ret = disk_add(s, major, minor, &idx, err);

	if (!ret && idx >= 0)
		s->devs[idx].is_target = true;
	if (devp)
		*devp = ret ? -1 : idx;
	return ret;
}

int disk_stat_target(const char *path, struct stat *st)
{
	char dir[PATH_MAX];
	const char *slash;

	if (!stat(path, st))
		return 0;
	if (errno != ENOENT)
		return -errno;
	slash = strrchr(path, '/');
	if (!slash)
		return stat(".", st) ? -errno : 0;
	if (slash == path)
		return stat("/", st) ? -errno : 0;
	if ((size_t)(slash - path) >= sizeof(dir))
		return -ENAMETOOLONG;
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash - path] = '\0';
	return stat(dir, st) ? -errno : 0;
}

int disk_set_add_target(struct disk_set *s, const char *path, int *devp, struct iowl_err *err)
{
	struct stat st;
	dev_t dev;
	int ret = disk_stat_target(path, &st);

	if (devp)
		*devp = -1;
	if (ret) {
		err_errno(err, -ret, "cannot stat '%s'", path);
		return ret;
	}
	if (S_ISBLK(st.st_mode))
		dev = st.st_rdev;
	else if (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode))
		dev = st.st_dev;
	else
		return 0; /* character device, FIFO, socket: no block device */
	return disk_set_add_devno(s, major(dev), minor(dev), devp, err);
}

/* Parses one /proc/diskstats line into the sample of the matching device, if any. */
static void disk_parse_line(struct disk_set *s, const char *line)
{
	unsigned major, minor, k = 0;
	struct disk_sample *smp;
	const char *p;
	char *end;
	int used = 0, i;

	if (sscanf(line, "%u %u %*s %n", &major, &minor, &used) < 2 || !used)
		return;
	i = disk_find(s, major, minor);
	if (i < 0)
		return;
	smp = &s->devs[i].last;
	for (p = line + used; k < DISK_NFIELDS; p = end) {
		uint64_t v = strtoull(p, &end, 10);

		if (end == p)
			break;
		smp->f[k++] = v;
	}
	/* Fewer than 11 counters is the 2.6-era partition format: not supported. */
	smp->nfields = k >= DISK_NF_BASE ? k : 0;
}

int disk_set_sample(struct disk_set *s, uint64_t now_ns, struct iowl_err *err)
{
	char path[PATH_MAX + 32], line[512];
	FILE *f;
	int ret = disk_fmt(path, sizeof(path), "%s/proc/diskstats", s->root);

	f = ret ? NULL : fopen(path, "re");
	if (!f) {
		ret = ret ? ret : -errno;
		err_errno(err, -ret, "cannot read '%s/proc/diskstats'", s->root);
		return ret;
	}
	for (unsigned i = 0; i < s->n; i++) {
		s->devs[i].prev = s->devs[i].last;
		memset(&s->devs[i].last, 0, sizeof(s->devs[i].last));
		s->devs[i].last.ns = now_ns;
	}
	while (fgets(line, sizeof(line), f))
		disk_parse_line(s, line);
	fclose(f);
	for (unsigned i = 0; i < s->n && !s->nsamples; i++)
		s->devs[i].first = s->devs[i].prev = s->devs[i].last;
	s->nsamples++;
	for (unsigned i = 0; i < s->n; i++)
		dprint(DBG_DISKUTIL,
		       "sample %u of %s (%u:%u%s): reads %llu, sectors read %llu, writes %llu, sectors written %llu, in flight %llu",
		       s->nsamples, s->devs[i].name, s->devs[i].major, s->devs[i].minor,
		       s->devs[i].is_target ? ", a target's" : ", a member",
		       (unsigned long long)s->devs[i].last.f[DISK_RD_IOS],
		       (unsigned long long)s->devs[i].last.f[DISK_RD_SECTORS],
		       (unsigned long long)s->devs[i].last.f[DISK_WR_IOS],
		       (unsigned long long)s->devs[i].last.f[DISK_WR_SECTORS],
		       (unsigned long long)s->devs[i].last.f[DISK_IN_FLIGHT]);
	return 0;
}

/*
 * The increase of a counter from old to cur.  A decrease from a value that fits in 32 bits is
 * a 32-bit wrap (the kernel prints the tick fields, and on 32-bit kernels every counter, as
 * 32-bit integers; fio and sysstat assume the same); a decrease from above 2^32 can only be a
 * reset (the device went away and came back), counted from zero as sysstat does.
 */
static uint64_t disk_delta(uint64_t old, uint64_t cur)
{
	if (cur >= old)
		return cur - old;
	if (old <= UINT32_MAX)
		return (cur - old) & UINT32_MAX;
	return cur;
}

/* Fills d with the deltas of the fields both samples have.  Returns their number. */
static unsigned disk_deltas(const struct disk_sample *a, const struct disk_sample *b,
			    uint64_t d[DISK_NFIELDS])
{
	unsigned nf = a->nfields < b->nfields ? a->nfields : b->nfields;

	memset(d, 0, DISK_NFIELDS * sizeof(*d));
	for (unsigned i = 0; i < nf; i++)
		d[i] = i == DISK_IN_FLIGHT ? b->f[i] : disk_delta(a->f[i], b->f[i]);
	return nf;
}

static double disk_ratio(double num, uint64_t den)
{
	return den ? num / (double)den : 0;
}

/* One direction from its four deltas: ios, merges, sectors, ticks (fields 1-4, 5-8, 12-15). */
static void disk_calc_dir(const uint64_t *d, double secs, struct disk_iostat_dir *o)
{
	uint64_t ios = d[0], merges = d[1], sectors = d[2], ticks = d[3];

	if (secs > 0) {
		o->ios_s = (double)ios / secs;
		o->rqm_s = (double)merges / secs;
		o->kb_s = (double)sectors / 2 / secs;
	}
	o->rqm_pct = disk_ratio(100.0 * (double)merges, ios + merges);
	o->await = disk_ratio((double)ticks, ios);
	o->areq_sz = disk_ratio((double)sectors / 2, ios);
}

void disk_calc_iostat(const struct disk_sample *a, const struct disk_sample *b,
		      struct disk_iostat *out)
{
	uint64_t d[DISK_NFIELDS], nr;

	memset(out, 0, sizeof(*out));
	out->nfields = disk_deltas(a, b, d);
	if (out->nfields < DISK_NF_BASE) {
		out->nfields = 0;
		return;
	}
	out->secs = b->ns > a->ns ? (double)(b->ns - a->ns) / 1e9 : 0;
	disk_calc_dir(&d[DISK_RD_IOS], out->secs, &out->rd);
	disk_calc_dir(&d[DISK_WR_IOS], out->secs, &out->wr);
	disk_calc_dir(&d[DISK_DC_IOS], out->secs, &out->dc);
	nr = d[DISK_RD_IOS] + d[DISK_WR_IOS] + d[DISK_DC_IOS];
	out->await =
		disk_ratio((double)(d[DISK_RD_TICKS] + d[DISK_WR_TICKS] + d[DISK_DC_TICKS]), nr);
	out->areq_sz = disk_ratio(
		(double)(d[DISK_RD_SECTORS] + d[DISK_WR_SECTORS] + d[DISK_DC_SECTORS]) / 2, nr);
	out->f_await = disk_ratio((double)d[DISK_FL_TICKS], d[DISK_FL_IOS]);
	if (out->secs > 0) {
		out->f_s = (double)d[DISK_FL_IOS] / out->secs;
		out->aqu_sz = (double)d[DISK_TIME_IN_QUEUE] / (1000 * out->secs);
		out->util = 100.0 * (double)d[DISK_IO_TICKS] / (1000 * out->secs);
	}
}

void disk_calc_util(const struct disk_sample *a, const struct disk_sample *b, struct disk_util *out)
{
	uint64_t d[DISK_NFIELDS];

	memset(out, 0, sizeof(*out));
	disk_deltas(a, b, d);
	out->read_ios = d[DISK_RD_IOS];
	out->write_ios = d[DISK_WR_IOS];
	out->read_merges = d[DISK_RD_MERGES];
	out->write_merges = d[DISK_WR_MERGES];
	out->read_sectors = d[DISK_RD_SECTORS];
	out->write_sectors = d[DISK_WR_SECTORS];
	out->read_ticks = d[DISK_RD_TICKS];
	out->write_ticks = d[DISK_WR_TICKS];
	out->io_ticks = d[DISK_IO_TICKS];
	out->in_queue = d[DISK_TIME_IN_QUEUE];
	out->msec = b->ns > a->ns ? (double)(b->ns - a->ns) / 1e6 : 0;
	if (out->msec > 0)
		out->util = 100.0 * (double)out->io_ticks / out->msec;
	if (out->util > 100)
		out->util = 100;
}

static void disk_span_util(const struct disk_dev *d, enum disk_span span, struct disk_util *u)
{
	disk_calc_util(span == DISK_SPAN_RUN ? &d->first : &d->prev, &d->last, u);
}

bool disk_set_aggr(const struct disk_set *s, unsigned dev, enum disk_span span,
		   struct disk_aggr *out)
{
	const struct disk_dev *d = &s->devs[dev];
	struct disk_util u;
	unsigned n = d->nmembers;

	memset(out, 0, sizeof(*out));
	if (!n)
		return false;
	for (unsigned i = 0; i < n; i++) {
		disk_span_util(&s->devs[d->members[i]], span, &u);
		out->read_ios += u.read_ios;
		out->write_ios += u.write_ios;
		out->read_merges += u.read_merges;
		out->write_merges += u.write_merges;
		out->read_sectors += u.read_sectors;
		out->write_sectors += u.write_sectors;
		out->read_ticks += u.read_ticks;
		out->write_ticks += u.write_ticks;
		out->in_queue += u.in_queue;
		if (u.util > out->max_util)
			out->max_util = u.util;
	}
	out->read_ios /= n;
	out->write_ios /= n;
	out->read_merges /= n;
	out->write_merges /= n;
	out->read_sectors /= n;
	out->write_sectors /= n;
	out->read_ticks /= n;
	out->write_ticks /= n;
	out->in_queue /= n;
	out->nmembers = n;
	return true;
}
