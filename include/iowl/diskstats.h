/* SPDX-License-Identifier: MIT */
/* The device side of a run: block devices behind targets, their counters, iostat, fio figures. */
#ifndef IOWL_DISKSTATS_H
#define IOWL_DISKSTATS_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "iowl/err.h"

/*
 * Environment variable holding the default root under which /proc/diskstats and /sys are read
 * (unset or "": the real system).  Tests point it, or disk_set_init()'s root, at a fake tree
 * laid out as the real one (tests/data/sysroot1: proc/diskstats, sys/dev/block/MAJ:MIN -> ...).
 */
#define DISK_SYSROOT_ENV "IOWL_SYSROOT"

#define DISK_NAME_LEN 32 /* the kernel's DISK_NAME_LEN */

/*
 * The counters of a /proc/diskstats line after "major minor name", in the kernel's order
 * (Documentation/admin-guide/iostats.rst numbers them 1..17: field n is index n - 1).
 * Times are milliseconds, sectors are 512 bytes whatever the device's block size.
 */
enum disk_field {
	DISK_RD_IOS,	 /* 1: reads completed */
	DISK_RD_MERGES,	 /* 2: reads merged into another request */
	DISK_RD_SECTORS, /* 3: sectors read */
	DISK_RD_TICKS,	 /* 4: ms spent reading (sum over requests) */
	DISK_WR_IOS,	 /* 5..8: the same for writes */
	DISK_WR_MERGES,
	DISK_WR_SECTORS,
	DISK_WR_TICKS,
	DISK_IN_FLIGHT,	    /* 9: requests in flight now: a gauge, never subtracted */
	DISK_IO_TICKS,	    /* 10: ms with at least one request in flight ("busy") */
	DISK_TIME_IN_QUEUE, /* 11: ms weighted by the requests in flight */
	DISK_DC_IOS,	    /* 12..15: discards (kernel 4.18+), same order as reads */
	DISK_DC_MERGES,
	DISK_DC_SECTORS,
	DISK_DC_TICKS,
	DISK_FL_IOS,   /* 16: flushes completed (kernel 5.5+; whole disks only) */
	DISK_FL_TICKS, /* 17: ms spent flushing */
	DISK_NFIELDS
};

/* Field counts the kernel prints: base (2.6.25+), with discards (4.18+), with flushes (5.5+). */
#define DISK_NF_BASE	11
#define DISK_NF_DISCARD 15
#define DISK_NF_FLUSH	17

/* One device's counters at one instant. */
struct disk_sample {
	uint64_t ns;		  /* when it was read (the caller's monotonic clock) */
	uint64_t f[DISK_NFIELDS]; /* indexed by enum disk_field; fields past nfields are 0 */
	unsigned nfields;	  /* counters read: 11, 15 or 17; 0 if the device was absent */
};

enum disk_kind {
	DISK_KIND_DISK, /* a whole disk (sd, nvme, virtio, ...) */
	DISK_KIND_PART, /* a partition: limits come from its whole disk */
	DISK_KIND_DM,	/* device mapper: has members */
	DISK_KIND_MD,	/* md RAID: has members */
	DISK_KIND_LOOP, /* a loop device: reported as itself, the backing file is not followed */
};

/* Request-size and queue limits of the whole disk behind a device (its queue/ directory). */
struct disk_limits {
	unsigned max_sectors_kb;     /* largest request the block layer builds; 0 unknown */
	unsigned max_hw_sectors_kb;  /* largest request the hardware takes; 0 unknown */
	unsigned logical_block_size; /* bytes; 0 unknown */
	unsigned nr_requests;	     /* queue depth the scheduler allows; 0 unknown */
	unsigned max_segments;	     /* scatter-gather entries a request may have; 0 unknown */
	unsigned max_segment_size;   /* bytes one entry may cover; 0 unknown */
	int rotational;		     /* 1 spinning, 0 not, -1 unknown */
	char scheduler[32];	     /* the active one ("none", "mq-deadline"); "" unknown */
};

/* One block device of a set, with its first, previous and last samples. */
struct disk_dev {
	char name[DISK_NAME_LEN]; /* kernel name, as in /proc/diskstats ("sda1", "dm-0") */
	unsigned major, minor;
	enum disk_kind kind;
	char disk[DISK_NAME_LEN]; /* whole disk with the limits: name but for partitions */
	unsigned disk_major, disk_minor;
	bool is_target;	   /* a target's IO goes to it (else it is only a member) */
	unsigned *members; /* indexes in the set of its direct members (sysfs slaves) */
	unsigned nmembers; /* > 0: a stacked device (dm, md), reported with aggr_* figures */
	struct disk_limits lim;
	struct disk_sample first; /* the first sample of the set */
	struct disk_sample prev;  /* the sample before last (== first after one sample) */
	struct disk_sample last;  /* the latest sample */
};

/* The devices behind a run's targets, each once, members included. */
struct disk_set {
	struct disk_dev *devs;
	unsigned n;
	unsigned nsamples;
	/*
	 * false (default): a partition is reported as itself, the device its IO goes to, with the
	 * whole disk remembered in disk/disk_major/disk_minor for the limits.
	 * true: a partition is replaced by its whole disk, as fio's disk_util does (its counters
	 * then include the other partitions' traffic).  Set before adding targets.
	 */
	bool part_as_disk;
	/*
	 * Prefix of /proc and /sys, no trailing '/'; "" the real system.  It may change between
	 * samples: tests read proc/diskstats of one fake tree, then of the next.
	 */
	char root[PATH_MAX];
};

/* iostat -x columns of one direction (read, write or discard) over an interval. */
struct disk_iostat_dir {
	double ios_s;	/* r/s, w/s, d/s */
	double kb_s;	/* rkB/s, wkB/s, dkB/s */
	double rqm_s;	/* rrqm/s, wrqm/s, drqm/s */
	double rqm_pct; /* %rrqm, %wrqm, %drqm */
	double await;	/* r_await, w_await, d_await (ms) */
	double areq_sz; /* rareq-sz, wareq-sz, dareq-sz (kB) */
};

/* sysstat's iostat -x figures over an interval; see disk_calc_iostat() for the formulas. */
struct disk_iostat {
	struct disk_iostat_dir rd, wr, dc; /* dc is zero below 15 fields */
	double f_s;			   /* f/s (zero below 17 fields) */
	double f_await;			   /* f_await (ms) */
	double await;			   /* await over reads, writes and discards (ms) */
	double areq_sz;			   /* areq-sz over reads, writes and discards (kB) */
	double aqu_sz;			   /* aqu-sz */
	double util;			   /* %util, not capped: sysstat prints what was counted */
	double secs;			   /* the interval */
	unsigned nfields;		   /* fields both samples have (0: no figures) */
};

/* fio's disk_util figures between two samples, named as its JSON keys. */
struct disk_util {
	uint64_t read_ios, write_ios;
	uint64_t read_merges, write_merges;
	uint64_t read_sectors, write_sectors;
	uint64_t read_ticks, write_ticks;
	uint64_t io_ticks;
	uint64_t in_queue;
	double msec; /* wall time between the samples */
	double util; /* 100 * io_ticks / msec, capped at 100 as fio does */
};

/* fio's aggr_* figures of a stacked device: averages over its direct members. */
struct disk_aggr {
	uint64_t read_ios, write_ios;	    /* aggr_read_ios, aggr_write_ios */
	uint64_t read_merges, write_merges; /* aggr_read_merges, aggr_write_merge (sic, fio) */
	uint64_t read_sectors, write_sectors;
	uint64_t read_ticks, write_ticks;
	uint64_t in_queue;
	double max_util; /* aggr_util: the busiest member's util, capped at 100 */
	unsigned nmembers;
};

/* Which two samples a figure spans. */
enum disk_span {
	DISK_SPAN_RUN,	    /* first .. last */
	DISK_SPAN_INTERVAL, /* prev .. last */
};

/*
 * Empties s and sets its root: root, or with root NULL the value of $IOWL_SYSROOT, or "" (the
 * real system) when that is unset.  Trailing slashes are dropped.  Returns 0 or -ENAMETOOLONG.
 */
int disk_set_init(struct disk_set *s, const char *root);

/*
 * Adds the block device a target's IO goes to: a block device node by its st_rdev, anything
 * else by the st_dev of its filesystem (of its directory when the file does not exist yet),
 * then, recursively, the members of stacked devices.  Devices already in the set are not added
 * again.  *devp (may be NULL) gets the device's index, or -1 when the target has no block
 * device (tmpfs, overlay, procfs, btrfs, a character device): that is not an error.
 * Returns 0 or -errno with err set.
 */
int disk_set_add_target(struct disk_set *s, const char *path, int *devp, struct iowl_err *err);

/* Reads the first line of a small (sysfs) file without its newline.  Returns 0 or -errno. */
int disk_read_line(const char *path, char *buf, size_t len);

struct stat;

/* stat()s path, or its directory when it does not exist yet (a file laid out later).  Returns 0
 * or -errno. */
int disk_stat_target(const char *path, struct stat *st);

/*
 * Like disk_set_add_target() from a device number, through <root>/sys/dev/block/MAJ:MIN: the
 * seam tests use, since a real file's st_dev cannot be faked.  A number sysfs does not know
 * (or major 0) gives *devp = -1 and 0.  Returns 0 or -errno with err set.
 */
int disk_set_add_devno(struct disk_set *s, unsigned major, unsigned minor, int *devp,
		       struct iowl_err *err);

/*
 * Reads <root>/proc/diskstats once and stores every device's counters, stamped now_ns, as its
 * last sample (the previous last becomes prev; the first call also sets first and prev).  A
 * device missing from the file gets a sample with nfields 0.  Call it from one thread.
 * Returns 0 or -errno with err set (the file cannot be read: no sample is taken).
 */
int disk_set_sample(struct disk_set *s, uint64_t now_ns, struct iowl_err *err);

/*
 * Computes sysstat's iostat -x figures from sample a to the later sample b:
 *   Δ = b - a per counter (32-bit wraparound and resets handled), t = (b.ns - a.ns) / 1e9 s,
 *   r/s = Δ1/t  rkB/s = Δ3/2/t  rrqm/s = Δ2/t  %rrqm = 100·Δ2/(Δ1+Δ2)
 *   r_await = Δ4/Δ1  rareq-sz = Δ3/Δ1/2  (writes: 5..8, discards: 12..15)
 *   f/s = Δ16/t  f_await = Δ17/Δ16  await = (Δ4+Δ8+Δ15)/(Δ1+Δ5+Δ12)
 *   areq-sz = (Δ3+Δ7+Δ14)/(Δ1+Δ5+Δ12)/2  aqu-sz = Δ11/(1000·t)  %util = 100·Δ10/(1000·t)
 * A ratio whose divisor is 0 is 0, and every rate is 0 when t is 0.
 */
void disk_calc_iostat(const struct disk_sample *a, const struct disk_sample *b,
		      struct disk_iostat *out);

/* Computes fio's disk_util figures from sample a to the later sample b (counter deltas). */
void disk_calc_util(const struct disk_sample *a, const struct disk_sample *b,
		    struct disk_util *out);

/*
 * Computes fio's aggr_* figures of device dev over span: per-member disk_util sums divided by
 * the number of direct members (integer division, as fio), and the largest member util.
 * Returns false (out zeroed) when dev has no members.
 */
bool disk_set_aggr(const struct disk_set *s, unsigned dev, enum disk_span span,
		   struct disk_aggr *out);

/* Returns "disk", "part", "dm", "md" or "loop" (static storage). */
const char *disk_kind_name(enum disk_kind kind);

/* Frees the devices of s; s is empty afterwards (its root stays). */
void disk_set_release(struct disk_set *s);

#endif
