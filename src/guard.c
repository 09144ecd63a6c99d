// SPDX-License-Identifier: MIT
/* The write guard: finds mounts, swap, holders and signatures before a device is written. */
#include <blkid/blkid.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "iowl/guard.h"

#define GUARD_HINT_MOUNTED   "set allow_mounted_write=1 to write anyway"
#define GUARD_HINT_SIGNATURE "set allow_signature_write=1 to write anyway"

/* One block device a mount or swap may use: the target or one of its partitions. */
struct guard_dev {
	dev_t dev;
	char name[NAME_MAX + 1]; /* the kernel's name ("sdb1"), "" when sysfs does not say */
};

/* The target (v[0]) and, for a whole disk, its partitions. */
struct guard_devs {
	struct guard_dev *v;
	size_t n;
	bool part; /* the target is itself a partition: its disk and siblings do not count */
};

/* Where the devices of a struct guard_devs are in use. */
struct guard_use {
	unsigned mounts;
	size_t mount_idx;     /* the device of the first mount */
	char where[PATH_MAX]; /* its mount point */
	unsigned swaps;
	size_t swap_idx;
};

/* Sets err like err_set() and returns r (a -errno) instead of -EINVAL. */
__attribute__((format(printf, 3, 4))) static int guard_fail(struct iowl_err *err, int r,
							    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	err_vat(err, NULL, 0, fmt, ap);
	va_end(ap);
	return r;
}

static int guard_devs_add(struct guard_devs *devs, dev_t dev, const char *name)
{
	struct guard_dev *v = realloc(devs->v, (devs->n + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	devs->v = v;
	v[devs->n].dev = dev;
	snprintf(v[devs->n].name, sizeof(v->name), "%s", name);
	devs->n++;
	return 0;
}

/* Reads a sysfs "dev" file ("259:1") relative to dirfd. */
static int guard_read_devno(int dirfd, const char *file, dev_t *dev)
{
	unsigned ma, mi;
	char buf[32];
	ssize_t n;
	int fd, e;

	fd = openat(dirfd, file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	e = errno;
	close(fd);
	if (n < 0)
		return -e;
	buf[n] = '\0';
	if (sscanf(buf, "%u:%u", &ma, &mi) != 2)
		return -EINVAL;
	*dev = makedev(ma, mi);
	return 0;
}

static bool guard_has(int dirfd, const char *file)
{
	return faccessat(dirfd, file, F_OK, 0) == 0;
}

/*
 * Adds the partitions of the disk whose sysfs directory is dirfd: the subdirectories with a
 * "partition" file (the others are queue/, holders/, power/...).
 */
static int guard_add_parts(int dirfd, struct guard_devs *devs)
{
	char file[NAME_MAX + 16];
	struct dirent *de;
	int fd, r = 0;
	dev_t dev = 0;
	DIR *d;

	fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		r = -errno;
		close(fd);
		return r;
	}
	while (!r && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(file, sizeof(file), "%s/partition", de->d_name);
		if (!guard_has(dirfd, file))
			continue;
		snprintf(file, sizeof(file), "%s/dev", de->d_name);
		r = guard_read_devno(dirfd, file, &dev);
		if (!r)
			r = guard_devs_add(devs, dev, de->d_name);
	}
	closedir(d);
	return r;
}

/*
 * Lists dev and, for a whole disk, its partitions from root/sys/dev/block/MAJ:MIN (a link to
 * the disk's or the partition's directory).  Without sysfs only dev itself is listed: the
 * exclusive open of guard_check_write() still sees a mounted partition.
 */
static int guard_devs_init(struct guard_devs *devs, dev_t dev, const char *root)
{
	char path[PATH_MAX], link[PATH_MAX];
	const char *name = "";
	int dirfd, r;
	ssize_t n;

	memset(devs, 0, sizeof(*devs));
	snprintf(path, sizeof(path), "%s/sys/dev/block/%u:%u", root, major(dev), minor(dev));
	n = readlink(path, link, sizeof(link) - 1);
	if (n > 0) {
		link[n] = '\0';
		name = strrchr(link, '/') ? strrchr(link, '/') + 1 : link;
	}
	r = guard_devs_add(devs, dev, name);
	if (r)
		return r;
	dirfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return errno == ENOENT ? 0 : -errno;
	devs->part = guard_has(dirfd, "partition");
	if (!devs->part)
		r = guard_add_parts(dirfd, devs);
	close(dirfd);
	return r;
}

/* Replaces the octal escapes /proc writes for blanks and backslashes ("\040") in place. */
static void guard_unescape(char *s)
{
	char *o = s;

	for (; *s; s++, o++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*o = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*o = *s;
		}
	}
	*o = '\0';
}

/* The /dev path of a kernel name: sysfs writes '!' for '/' ("cciss!c0d0"). */
static void guard_devpath(const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "/dev/%s", name);
	for (char *p = buf; *p; p++)
		if (*p == '!')
			*p = '/';
}

static ssize_t guard_find_dev(const struct guard_devs *devs, dev_t dev)
{
	for (size_t i = 0; i < devs->n; i++)
		if (devs->v[i].dev == dev)
			return (ssize_t)i;
	return -1;
}

/*
 * The index in devs of the device a /proc source names ("/dev/sdb1"), by kernel name or, for
 * another /dev path (/dev/mapper/x), by the device number of the node; -1 when none.
 */
static ssize_t guard_find_source(const struct guard_devs *devs, const char *root, const char *src)
{
	char path[PATH_MAX];
	struct stat st;

	if (strncmp(src, "/dev/", 5))
		return -1;
	for (size_t i = 0; i < devs->n; i++) {
		if (!devs->v[i].name[0])
			continue;
		guard_devpath(devs->v[i].name, path, sizeof(path));
		if (!strcmp(path, src))
			return (ssize_t)i;
	}
	snprintf(path, sizeof(path), "%s%s", root, src);
	if (stat(path, &st) || !S_ISBLK(st.st_mode))
		return -1;
	return guard_find_dev(devs, st.st_rdev);
}

/*
 * Matches one mountinfo line ("36 35 98:0 /mnt1 /mnt/parent rw shared:1 - ext3 /dev/root rw")
 * against devs and points *where at its mount point.  Field 3 is the device number; btrfs and
 * other filesystems with anonymous device numbers (major 0) name their device only as the
 * source after " - ".  Returns the index in devs or -1.
 */
static ssize_t guard_match_mount(const struct guard_devs *devs, const char *root, char *line,
				 char **where)
{
	char *save = NULL, *f[5], *tok;
	unsigned ma, mi;
	ssize_t idx;

	for (int i = 0; i < 5; i++) {
		f[i] = strtok_r(i ? NULL : line, " \n", &save);
		if (!f[i])
			return -1;
	}
	if (sscanf(f[2], "%u:%u", &ma, &mi) != 2)
		return -1;
	*where = f[4];
	idx = guard_find_dev(devs, makedev(ma, mi));
	if (idx >= 0 || ma)
		return idx;
	while ((tok = strtok_r(NULL, " \n", &save)) && strcmp(tok, "-"))
		;
	if (!tok || !strtok_r(NULL, " \n", &save)) /* the filesystem type */
		return -1;
	tok = strtok_r(NULL, " \n", &save);
	if (!tok)
		return -1;
	guard_unescape(tok);
	return guard_find_source(devs, root, tok);
}

/*
 * Finds the mounts of devs in root/proc/self/mountinfo.  A filesystem mounted from a dm or loop
 * device stacked on the device is out of scope here: the exclusive open of guard_check_write()
 * still catches dm (it claims the device below it), a loop device claims nothing and passes.
 */
static int guard_scan_mounts(const struct guard_devs *devs, const char *root, struct guard_use *use)
{
	char path[PATH_MAX], *line = NULL, *where;
	size_t cap = 0;
	ssize_t idx;
	FILE *f;
	int r;

	snprintf(path, sizeof(path), "%s/proc/self/mountinfo", root);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (getline(&line, &cap, f) > 0) {
		idx = guard_match_mount(devs, root, line, &where);
		if (idx < 0 || use->mounts++)
			continue;
		guard_unescape(where);
		use->mount_idx = (size_t)idx;
		snprintf(use->where, sizeof(use->where), "%s", where);
	}
	r = ferror(f) ? -EIO : 0;
	free(line);
	fclose(f);
	return r;
}

/*
 * Finds devs among the swap devices of root/proc/swaps ("/dev/sdb2 partition 1048572 0 -2");
 * swap files (type "file") live on a filesystem and do not count.
 */
static int guard_scan_swaps(const struct guard_devs *devs, const char *root, struct guard_use *use)
{
	char path[PATH_MAX], *line = NULL, *save, *name, *type;
	size_t cap = 0;
	ssize_t idx;
	FILE *f;
	int r;

	snprintf(path, sizeof(path), "%s/proc/swaps", root);
	f = fopen(path, "re");
	if (!f) /* a kernel built without swap has no /proc/swaps */
		return errno == ENOENT ? 0 : -errno;
	while (getline(&line, &cap, f) > 0) {
		name = strtok_r(line, " \t\n", &save);
		type = strtok_r(NULL, " \t\n", &save);
		if (!name || !type || strcmp(type, "partition"))
			continue;
		guard_unescape(name);
		idx = guard_find_source(devs, root, name);
		if (idx >= 0 && !use->swaps++)
			use->swap_idx = (size_t)idx;
	}
	r = ferror(f) ? -EIO : 0;
	free(line);
	fclose(f);
	return r;
}

/* How a message names devs->v[idx]: "'/dev/sdb'" or "'/dev/sdb1', a partition of '/dev/sdb',". */
static void guard_subject(const struct guard_devs *devs, size_t idx, const char *path, char *buf,
			  size_t len)
{
	char part[PATH_MAX];

	if (!idx) {
		snprintf(buf, len, "'%s'", path);
		return;
	}
	guard_devpath(devs->v[idx].name, part, sizeof(part));
	snprintf(buf, len, "'%s', a partition of '%s',", part, path);
}

static int guard_report_use(const struct guard_devs *devs, const struct guard_use *use,
			    const char *path, struct iowl_err *err)
{
	char who[2 * PATH_MAX + 32], more[48] = "";

	if (use->mounts) {
		guard_subject(devs, use->mount_idx, path, who, sizeof(who));
		if (use->mounts > 1)
			snprintf(more, sizeof(more), " (and %u other mount%s)", use->mounts - 1,
				 use->mounts > 2 ? "s" : "");
		return guard_fail(
			err, -EBUSY,
			"%s is mounted at %s%s; writing would corrupt it (" GUARD_HINT_MOUNTED ")",
			who, use->where, more);
	}
	if (use->swaps) {
		guard_subject(devs, use->swap_idx, path, who, sizeof(who));
		return guard_fail(err, -EBUSY,
				  "%s is in use as swap; writing would corrupt swapped-out memory "
				  "(" GUARD_HINT_MOUNTED ")",
				  who);
	}
	return 0;
}

int guard_check_mounts(const char *path, dev_t dev, const char *root, struct iowl_err *err)
{
	struct guard_use use = {0};
	struct guard_devs devs;
	int r;

	r = guard_devs_init(&devs, dev, root);
	if (r) {
		guard_fail(err, r, "cannot list the partitions of '%s' in %s/sys/dev/block: %s",
			   path, root, strerror(-r));
		goto out_free_devs;
	}
	r = guard_scan_mounts(&devs, root, &use);
	if (r) {
		guard_fail(err, r,
			   "cannot read %s/proc/self/mountinfo to tell whether '%s' is mounted: %s",
			   root, path, strerror(-r));
		goto out_free_devs;
	}
	r = guard_scan_swaps(&devs, root, &use);
	if (r) {
		guard_fail(err, r, "cannot read %s/proc/swaps to tell whether '%s' is swap: %s",
			   root, path, strerror(-r));
		goto out_free_devs;
	}
	r = guard_report_use(&devs, &use, path, err);
out_free_devs:
	free(devs.v);
	return r;
}

/* The first holder (a dm or md device) of devs->v[idx], from sysfs; false when none. */
static bool guard_holder(const struct guard_devs *devs, size_t idx, char *buf, size_t len)
{
	char path[PATH_MAX];
	struct dirent *de;
	bool found = false;
	DIR *d;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/holders", major(devs->v[idx].dev),
		 minor(devs->v[idx].dev));
	d = opendir(path);
	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(buf, len, "%s", de->d_name);
		found = true;
	}
	closedir(d);
	return found;
}

/*
 * Explains why the kernel refused an exclusive open of path when mountinfo and /proc/swaps
 * show nothing: a holder in sysfs, else a mount in another namespace or a driver's claim.
 */
static int guard_report_busy(const char *path, dev_t dev, struct iowl_err *err)
{
	char who[2 * PATH_MAX + 32], holder[NAME_MAX + 1];
	bool named = false, part = false;
	struct guard_devs devs;

	if (!guard_devs_init(&devs, dev, "")) {
		for (size_t i = 0; !named && i < devs.n; i++) {
			named = guard_holder(&devs, i, holder, sizeof(holder));
			if (named)
				guard_subject(&devs, i, path, who, sizeof(who));
		}
	}
	part = devs.part;
	free(devs.v);
	if (named)
		return guard_fail(err, -EBUSY,
				  "%s is held by %s (a device-mapper or md device built on it); "
				  "writing would corrupt it (" GUARD_HINT_MOUNTED ")",
				  who, holder);
	return guard_fail(err, -EBUSY,
			  "'%s' is in use by the kernel (%smounted in another mount namespace, "
			  "claimed by a driver, or held by another program such as another iowl "
			  "run); writing would corrupt it (" GUARD_HINT_MOUNTED ")",
			  path, part ? "its disk is mounted, or it is " : "");
}

/*
 * Opens the block device path read-only and exclusively: the kernel refuses it (EBUSY) while a
 * filesystem, swap, md, dm or another exclusive open claims the device or, for a whole disk, one
 * of its partitions, in any mount namespace.  With mounts allowed a busy device is opened
 * without O_EXCL instead (*excl false).  Returns the fd or -errno with err set.
 */
static int guard_open(const char *path, dev_t dev, unsigned allow, bool *excl,
		      struct iowl_err *err)
{
	const char *hint = "";
	int fd, e;

	*excl = true;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_EXCL);
	if (fd < 0 && errno == EBUSY && (allow & GUARD_ALLOW_MOUNTED)) {
		*excl = false;
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	}
	if (fd >= 0)
		return fd;
	e = errno;
	if (e == EBUSY)
		return guard_report_busy(path, dev, err);
	if (e == EACCES || e == EPERM)
		hint = " (run as root, or set allow_mounted_write=1 and allow_signature_write=1 to "
		       "skip the check)";
	return guard_fail(err, -e, "cannot open '%s' to check that writing destroys nothing: %s%s",
			  path, strerror(e), hint);
}

/* "an" before a name said as a word or as letters: an ext4, an xfs, an ntfs, a btrfs, a dos. */
static const char *guard_article(const char *name)
{
	static const char *const an[] = {
		"ntfs", "ntfs3", "f2fs", "hfs", "hfsplus", "LVM1_member", "LVM2_member",
	};

	if (strchr("aeioxAEIOX", name[0]))
		return "an";
	for (size_t i = 0; i < sizeof(an) / sizeof(an[0]); i++)
		if (!strcmp(name, an[i]))
			return "an";
	return "a";
}

static const char *guard_value(blkid_probe pr, const char *name)
{
	const char *v = NULL;

	if (blkid_probe_lookup_value(pr, name, &v, NULL) || !v || !*v)
		return NULL;
	return v;
}

/* Appends to the string in buf, truncating at len. */
__attribute__((format(printf, 3, 4))) static void guard_append(char *buf, size_t len,
							       const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;

	if (n + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
}

/*
 * Describes what a successful probe found: "an ext4 filesystem (label 'data')", "a
 * linux_raid_member signature (a RAID or LVM member)", "a dos partition table".  Returns how
 * many things it names.
 */
static unsigned guard_describe(blkid_probe pr, char *buf, size_t len)
{
	const char *type = guard_value(pr, "TYPE"), *usage = guard_value(pr, "USAGE");
	const char *label = guard_value(pr, "LABEL"), *pttype = guard_value(pr, "PTTYPE");
	const char *kind = NULL;
	unsigned found = 0;

	buf[0] = '\0';
	if (type) {
		if (usage && !strcmp(usage, "raid"))
			kind = "a RAID or LVM member";
		else if (usage && !strcmp(usage, "crypto"))
			kind = "an encrypted volume";
		guard_append(buf, len, "%s %s %s", guard_article(type), type,
			     usage && !strcmp(usage, "filesystem") ? "filesystem" : "signature");
		if (kind && label)
			guard_append(buf, len, " (%s, label '%s')", kind, label);
		else if (kind || label)
			guard_append(buf, len, kind ? " (%s)" : " (label '%s')",
				     kind ? kind : label);
		found++;
	}
	if (pttype) {
		guard_append(buf, len, "%s%s %s partition table", found ? " and " : "",
			     guard_article(pttype), pttype);
		found++;
	}
	return found;
}

int guard_check_signature(const char *path, int fd, struct iowl_err *err)
{
	char what[768];
	unsigned found;
	blkid_probe pr;
	int r;

	pr = blkid_new_probe();
	if (!pr)
		return guard_fail(err, -ENOMEM, "out of memory");
	errno = 0;
	if (blkid_probe_set_device(pr, fd, 0, 0)) {
		r = errno ? -errno : -EIO;
		guard_fail(err, r, "cannot probe '%s' for signatures: %s", path, strerror(-r));
		goto out_free_probe;
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE |
						      BLKID_SUBLKS_LABEL);
	blkid_probe_enable_partitions(pr, 1);
	errno = 0;
	r = blkid_do_safeprobe(pr);
	if (r == 1) {
		r = 0;
	} else if (r == 0) {
		found = guard_describe(pr, what, sizeof(what));
		r = guard_fail(err, -EEXIST,
			       "'%s' holds %s; writing would destroy %s (" GUARD_HINT_SIGNATURE ")",
			       path, what, found > 1 ? "them" : "it");
	} else if (r == -2) {
		r = guard_fail(err, -EEXIST,
			       "'%s' holds more than one signature (blkid cannot tell which is in "
			       "use); writing would destroy them (" GUARD_HINT_SIGNATURE ")",
			       path);
	} else {
		r = errno ? -errno : -EIO;
		guard_fail(err, r, "cannot read '%s' to look for signatures: %s", path,
			   strerror(-r));
	}
out_free_probe:
	blkid_free_probe(pr);
	return r;
}

int guard_check_write(const char *path, unsigned allow, struct iowl_err *err)
{
	struct guard_set set;
	int r;

	guard_set_init(&set);
	r = guard_set_check(&set, path, allow, false, err);
	guard_set_release(&set);
	return r;
}

void guard_set_init(struct guard_set *s)
{
	memset(s, 0, sizeof(*s));
}

void guard_set_release(struct guard_set *s)
{
	for (unsigned i = 0; i < s->n; i++) {
		if (s->v[i].fd >= 0)
			close(s->v[i].fd);
		free(s->v[i].path);
	}
	free(s->v);
	memset(s, 0, sizeof(*s));
}

void guard_set_settle(const struct guard_set *s)
{
	for (unsigned i = 0; i < s->n; i++) {
		if (s->v[i].fd < 0)
			continue;
		/* Write back and wait, as the last close does; fsync() would also send the
		 * device a cache flush that neither that close nor fio sends. */
		sync_file_range(s->v[i].fd, 0, 0, SYNC_FILE_RANGE_WAIT_BEFORE |
				SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER);
		posix_fadvise(s->v[i].fd, 0, 0, POSIX_FADV_DONTNEED);
	}
}

static struct guard_entry *guard_set_find(struct guard_set *s, dev_t dev)
{
	for (unsigned i = 0; i < s->n; i++)
		if (s->v[i].dev == dev)
			return &s->v[i];
	return NULL;
}

/* A new entry for dev with nothing checked yet (every check still to do). */
static struct guard_entry *guard_set_add(struct guard_set *s, const char *path, dev_t dev)
{
	struct guard_entry *v = realloc(s->v, (s->n + 1) * sizeof(*v)), *e;

	if (!v)
		return NULL;
	s->v = v;
	e = &v[s->n];
	memset(e, 0, sizeof(*e));
	e->path = strdup(path);
	if (!e->path)
		return NULL;
	e->dev = dev;
	e->allow = GUARD_ALLOW_ALL;
	e->fd = -1;
	s->n++;
	return e;
}

/* Reads completed and sectors read of dev from sysfs; false when sysfs does not say. */
static bool guard_dev_reads(dev_t dev, uint64_t *ios, uint64_t *sectors)
{
	char path[64];
	unsigned long long a, merged, b;
	bool ok;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/stat", major(dev), minor(dev));
	f = fopen(path, "re");
	if (!f)
		return false;
	ok = fscanf(f, "%llu %llu %llu", &a, &merged, &b) == 3;
	fclose(f);
	*ios = a;
	*sectors = b;
	return ok;
}

/*
 * The signature probe of e over fd, counting what it read from the device (the device's own
 * counters around the probe) and dropping what it left in the page cache, so that a buffered
 * job's reads are not served from it.
 */
static int guard_probe(struct guard_entry *e, const char *path, int fd, struct iowl_err *err)
{
	uint64_t ios0 = 0, sec0 = 0, ios1 = 0, sec1 = 0;
	bool counted = guard_dev_reads(e->dev, &ios0, &sec0);
	int r = guard_check_signature(path, fd, err);

	e->probes++;
	if (counted && guard_dev_reads(e->dev, &ios1, &sec1) && ios1 >= ios0 && sec1 >= sec0) {
		e->reads += ios1 - ios0;
		e->read_bytes += (sec1 - sec0) * 512;
	}
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	return r;
}

int guard_set_check(struct guard_set *s, const char *path, unsigned allow, bool hold,
		    struct iowl_err *err)
{
	struct guard_entry *e;
	unsigned todo;
	struct stat st;
	bool excl = false;
	int fd, r = 0;

	if (stat(path, &st)) {
		r = -errno;
		return guard_fail(err, r, "cannot check '%s' before writing: %s", path,
				  strerror(-r));
	}
	if (!S_ISBLK(st.st_mode))
		return 0;
	e = guard_set_find(s, st.st_rdev);
	if (!e && !(e = guard_set_add(s, path, st.st_rdev)))
		return guard_fail(err, -ENOMEM, "out of memory");
	todo = e->allow & ~allow;	/* the checks no earlier call has made */
	if (todo & GUARD_ALLOW_MOUNTED) {
		r = guard_check_mounts(path, st.st_rdev, "", err);
		if (r)
			return r;
	}
	if (e->fd >= 0) {	/* held since an earlier call: probe through the hold */
		r = todo & GUARD_ALLOW_SIGNATURE ? guard_probe(e, path, e->fd, err) : 0;
	} else if (todo || hold) {
		fd = guard_open(path, st.st_rdev, allow, &excl, err);
		if (fd < 0)
			return fd;
		r = todo & GUARD_ALLOW_SIGNATURE ? guard_probe(e, path, fd, err) : 0;
		if (!r && hold && excl)
			e->fd = fd;
		else
			close(fd);
	}
	if (r)
		return r;
	e->allow &= allow;
	return 0;
}
