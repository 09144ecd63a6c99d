/* SPDX-License-Identifier: MIT */
/*
 * A job's options as one struct, filled from the option table (src/options.c) by offsetof, and
 * the enums of their values: the types the option table, the job and the modules whose options
 * they are share, without the job's logic (include/iowl/job.h) or the table's (options.h).
 */
#ifndef IOWL_JOB_OPTS_H
#define IOWL_JOB_OPTS_H

#include <stdbool.h>
#include <stdint.h>

#include "iowl/cmdprio.h"
#include "iowl/ddir.h"
#include "iowl/pattern/dist.h"
#include "iowl/place.h"
#include "iowl/steady.h"
#include "iowl/value.h"

/* rw= as flags: which directions, and whether offsets are random. */
enum rw_flags {
	RW_F_READ = 1U << DDIR_READ,
	RW_F_WRITE = 1U << DDIR_WRITE,
	RW_F_TRIM = 1U << DDIR_TRIM,
	RW_F_RANDOM = 1U << 3,
	RW_F_TRIMWRITE = 1U << 4,	/* trimwrite: each trim is followed by a write of its block */
};

enum file_service {
	FS_ROUNDROBIN = 0,
	FS_SEQUENTIAL = 1,
	FS_RANDOM = 2,
	FS_DIST = 3, /* zipf, pareto or normal (gauss): file_service_dist over the files */
};

/* fallocate=: how a file is preallocated when it is laid out (fio's values). */
enum fallocate_mode {
	FALLOCATE_NONE = 0,
	FALLOCATE_NATIVE = 1,	/* fallocate(2), or nothing where the file system has none */
	FALLOCATE_POSIX = 2,	/* posix_fallocate(3) */
	FALLOCATE_KEEP = 3,	/* fallocate(2) with FALLOC_FL_KEEP_SIZE */
	FALLOCATE_TRUNCATE = 4,	/* ftruncate(2) to the size: sparse */
};

#define JOB_IGNORE_MAX	16	/* errnos in one list of ignore_error */

/* continue_on_error as a mask of the errors that do not stop the job. */
enum coe_flags {
	COE_READ = 1U << 0,
	COE_WRITE = 1U << 1,	/* writes, trims and syncs */
	COE_VERIFY = 1U << 2,
};

/* verify= */
enum verify_mode {
	VERIFY_NONE = 0,
	VERIFY_CRC32C = 1,
	VERIFY_PATTERN = 2,	/* no header: verify_pattern only (fio's pattern) */
	VERIFY_MD5,
	VERIFY_CRC64,
	VERIFY_CRC32,
	VERIFY_CRC16,
	VERIFY_CRC7,
	VERIFY_SHA256,
	VERIFY_SHA512,
	VERIFY_SHA3_224,
	VERIFY_SHA3_256,
	VERIFY_SHA3_384,
	VERIFY_SHA3_512,
	VERIFY_XXHASH,
	VERIFY_SHA1,
	VERIFY_META,		/* the header only */
	VERIFY_NULL,		/* pretend: nothing written or checked */
};

#define JOB_PCT_MAX 20
#define JOB_MAX_STREAMS 256	/* streams of a job, walkers included */
#define JOB_VERIFY_PATTERN_MAX 512

/* Every job option, filled from the option table (src/options.c) by offsetof. */
/* random_generator: fio's names; lfsr means every block once per pass even with norandommap. */
/* exit_what: which jobs a finished exitall job ends. */
enum rate_process {
	RATE_LINEAR = 0,  /* IOs evenly spaced */
	RATE_POISSON = 1, /* exponential gaps with the same mean */
};

enum exit_what {
	EXIT_GROUP = 0,		/* its reporting group */
	EXIT_STONEWALL = 1,	/* everything running now; the next stonewalled phase still runs */
	EXIT_ALL = 2,		/* everything, and no later phase runs */
};

enum randgen {
	RANDGEN_TAUSWORTHE = 0,
	RANDGEN_LFSR = 1,
	RANDGEN_TAUSWORTHE64 = 2,
};

struct job_opts {
	char *name;
	char *description;
	char *filename;		/* raw, ':' separated */
	unsigned lockfile;	/* enum lockfile_mode: none, exclusive, readwrite */
	char *opendir;		/* every regular file below it is a file of the job, as filename's */
	char *directory;
	char *filename_format;	/* generated names: $jobname, $jobnum (the clone), $filenum */
	unsigned nrfiles;
	unsigned openfiles;	/* files open at once, 0: all (fio's open_files) */
	bool allow_mounted_write;
	bool allow_signature_write;
	unsigned file_service;	/* enum file_service */
	unsigned file_service_nr;	/* IOs before switching file (the ":N") */
	unsigned file_service_dist;	/* FS_DIST: DIST_ZIPF, DIST_PARETO or DIST_NORMAL */
	double file_service_param;	/* its theta, h or deviation (the ":N") */
	struct val_size_pct size;
	struct val_irange filesize;	/* lo == hi == 0: unset */
	struct val_size_pct offset;
	struct val_size_pct offset_increment;
	uint64_t offset_align;	/* a percentage start rounds up to it; 0: the smallest block */
	unsigned fallocate;	/* enum fallocate_mode */
	bool create_on_open;	/* no layout: the job's own open creates a missing file */
	bool overwrite;		/* a write job's new file is laid out with data first */
	bool file_append;	/* a regular file's region starts at its end */
	bool fill_device;	/* size up to the free space; ENOSPC ends the job */
	bool unlink;		/* remove the job's regular files at its end */
	bool unlink_each_loop;	/* a new file for every loop after the first */
	bool invalidate;	/* drop the files' page cache before IO and every pass */
	uint64_t io_size;
	uint64_t number_ios;
	unsigned rw;		/* enum rw_flags */
	unsigned rw_nr;		/* the ":N" of rw= (0: none) */
	bool rw_back;		/* the ":N" was negative: sequential IO goes backwards by it */
	unsigned rw_sequencer; /* 0 sequential, 1 identical: what the IOs between random jumps do */
	bool bs_unaligned;     /* bsrange sizes of any byte count, not multiples of the lowest */
	bool bs_is_seq_rand;   /* bs= and friends are sequential,random instead of read,write */
	unsigned zonemode;     /* enum zonemode */
	uint64_t zonesize;     /* strided: bytes of IO in a zone before the next */
	uint64_t zonerange;    /* strided: the zone's length (0: zonesize) */
	uint64_t zoneskip;     /* strided: the gap after a zone */
	uint64_t zonecapacity; /* zbd only */
	unsigned rwmixread;
	uint64_t bs[DDIR_NR];
	struct val_irange bsrange[DDIR_NR];	/* hi == 0: unset */
	struct val_bssplit bssplit[DDIR_NR];	/* n == 0: unset */
	uint64_t blockalign[DDIR_NR];		/* 0: same as the minimum block size */
	unsigned iodepth;
	unsigned iodepth_batch_submit;
	unsigned iodepth_batch_complete_min;
	unsigned iodepth_batch_complete_max;
	unsigned iodepth_low;
	unsigned numjobs;
	bool thread;
	bool direct;
	char *ioengine;
	uint64_t runtime;	/* ns; 0: none */
	uint64_t io_timeout;	/* ns without a completion after which in-flight IOs are stuck; 0: never */
	bool time_based;
	uint64_t ramp_time;	/* ns */
	uint64_t rate[DDIR_NR];	/* bytes/s per direction, 0: none */
	uint64_t rate_iops[DDIR_NR];	/* IOs/s per direction, 0: none */
	unsigned rate_process;	/* enum rate_process */
	uint64_t rate_min[DDIR_NR];	/* bytes/s per direction a job must keep up, 0: none */
	uint64_t rate_iops_min[DDIR_NR];	/* IOs/s per direction a job must keep up, 0: none */
	uint64_t rate_cycle;	/* ns: the window rate_min and rate_iops_min are measured over */
	uint64_t thinktime;	/* ns: stall between batches of IO; 0: none */
	uint64_t thinktime_spin;	/* ns of the stall spent spinning */
	unsigned thinktime_blocks;	/* IOs between stalls */
	unsigned thinktime_blocks_type;	/* 0: completed IOs count, 1: issued IOs count */
	uint64_t thinktime_iotime;	/* ns: stall once IO has run this long; 0: by blocks only */
	uint64_t worker_ramp;	/* ns: clone k starts k times this after the first; 0: all at once */
	struct steady_spec ss;	/* steady-state criterion (ss=), used when ss_dur is set */
	uint64_t ss_dur;	/* ns: the steady-state window; 0: no steady-state check */
	uint64_t ss_ramp;	/* ns before the first steady-state sample */
	uint64_t ss_interval;	/* ns between steady-state samples */
	struct val_irange startdelay;	/* ns */
	unsigned loops;
	bool randrepeat;
	uint64_t randseed;
	bool norandommap;
	unsigned random_generator;	/* enum randgen */
	bool exitall;			/* a finished clone ends the others (exit_what says which) */
	unsigned exit_what;		/* enum exit_what */
	bool exitall_on_error;		/* a clone ending in error ends the whole run */
	struct dist_spec rdist[DDIR_NR];	/* random_distribution per direction */
	double pct_random[DDIR_NR];		/* percentage_random per direction */
	unsigned pct_random_set;	/* directions where percentage_random was given */
	bool random_scatter;
	unsigned random_hotset;		/* 0 the job's, 1 the stream's own, 2 one per direction */
	bool bs_roundup;
	/* streams (meaningful after a stream= line) */
	double weight;
	unsigned walkers;
	struct val_size_pct walker_start;
	unsigned fsync;
	unsigned fdatasync;
	bool end_fsync;
	unsigned continue_on_error;	/* enum coe_flags */
	int ignore_error[3][JOB_IGNORE_MAX];	/* ignore_error per error type: read, write, verify */
	unsigned nignore_error[3];	/* 0: fio's default list, EIO and EILSEQ */
	bool zero_buffers;
	bool refill_buffers;
	bool scramble_buffers;
	unsigned buffer_compress_percentage;
	uint64_t buffer_compress_chunk;	/* 0: the smallest write */
	unsigned char buffer_pattern[JOB_VERIFY_PATTERN_MAX];
	unsigned buffer_pattern_len;
	unsigned dedupe_percentage;
	unsigned dedupe_mode;		/* enum dedupe_mode (iowl/fill.h) */
	unsigned dedupe_working_set_percentage;
	bool dedupe_global;
	/* verification */
	unsigned verify;		/* enum verify_mode */
	bool do_verify;
	unsigned verify_backlog;
	bool verify_fatal;
	uint64_t verify_interval;	/* 0 until validated: then the smallest block size */
	unsigned char verify_pattern[JOB_VERIFY_PATTERN_MAX];
	unsigned verify_pattern_len;
	uint64_t verify_offset;		/* where the header is swapped to, 0: not moved */
	bool verify_dump;
	unsigned verify_backlog_batch;	/* 0: verify_backlog */
	bool experimental_verify;
	bool verify_only;		/* dry writes, then the read-back */
	bool verify_state_save;		/* the units' last writes to local-NAME-N-verify.state */
	bool verify_state_load;		/* ... and read back from there: checks what completed */
	unsigned verify_async;		/* threads that check the reads, 0: the worker itself */
	struct place_set verify_async_cpus;	/* their CPUs; empty: any */
	unsigned trim_percentage;	/* of the verified writes, trimmed again (trim_backlog) */
	unsigned trim_backlog;		/* trims after every this many writes, 0: none */
	unsigned trim_backlog_batch;	/* trims per round, 0: trim_backlog */
	bool trim_verify_zero;		/* trimmed units must read back as zeros */
	bool group_reporting;
	double percentile_list[JOB_PCT_MAX];
	unsigned npercentiles;
	bool clat_percentiles;
	bool lat_percentiles;
	bool slat_percentiles;
	char *write_iolog;
	/* the logs' names; "" (a bare key): the job's name */
	char *write_bw_log, *write_iops_log, *write_lat_log, *write_hist_log;
	unsigned log_avg_msec, log_hist_msec, log_hist_coarseness;
	bool log_offset, per_job_logs;
	uint64_t log_compression;  /* bytes of samples per zlib stream (0: not set) */
	bool log_store_compressed; /* NAME_KIND.N.log.fz: fio's binary samples, deflated */
	bool disable_lat, disable_clat, disable_slat, disable_bw; /* not measured at all */
	bool stats;	/* 0: not measured and left out of the results (fio's stats=0) */
	bool disk_util; /* 0: its devices are not in the disk figures */
	uint64_t bwavgtime, iopsavgtime; /* ns: the bw and iops sample windows */
	bool log_unix_epoch, log_max_value;
	bool log_alternate_epoch;	/* the logs' times on the clock of log_alternate_epoch_clock_id */
	unsigned log_clock_id;		/* log_alternate_epoch_clock_id: a clock_gettime() clock */
	unsigned log_entries;		/* lines of 64 bytes a log's buffer holds before a write() */
	unsigned clocksource; /* enum clock_src: 0 iowl's choice */
	unsigned sig_figs;    /* significant_figures: digits of the normal output's rates */
	unsigned unit_base;   /* 1: the normal output's bandwidths in bits (0, 8: bytes) */
	unsigned unified_rw;  /* unified_rw_reporting: enum unified_rw */
	bool stonewall;
	char *wait_for; /* start after every clone of the job of this name has finished */
	bool new_group;
	unsigned kb_base;
	/* io_uring */
	bool fixedbufs;
	bool registerfiles;
	bool sqthread_poll;
	int sqthread_poll_cpu;
	bool hipri;
	/* pvsync2 (hipri too; nowait also libaio and io_uring) */
	unsigned hipri_percentage;
	bool uncached;
	bool nowait;
	/* files and syncs, fio's (issue 13) */
	unsigned sync_io;	/* sync=: 0, O_SYNC or O_DSYNC on every open */
	unsigned fadvise_hint;	/* enum fadvise_hint */
	unsigned write_hint;	/* RWH_WRITE_LIFE_* for F_SET_RW_HINT; 0: not set */
	bool fsync_on_close;	/* a written file is fsynced when the job closes it */
	bool create_fsync;	/* fsync a file the layout wrote data into */
	bool create_only;	/* lay the files out, do no IO */
	bool create_serialize;	/* lay out every job's files before any job starts */
	bool allow_file_create; /* 0: a missing regular file is an error, not created */
	bool unique_filename;	/* fio's client prefix: iowl has no client mode */
	bool softrandommap;	/* fio's fallback when its map cannot be allocated */
	bool pre_read;		/* read the regions into the page cache before the IO */
	/* io_uring and libaio: per-IO priorities; io_uring's submission details */
	struct cmdprio_opts cmdprio;
	bool log_prio;	      /* the logs' priority column is the ioprio value (0x%04x) */
	int nonvectored;      /* io_uring: -1 (probe), 0 READV/WRITEV, 1 READ/WRITE */
	unsigned force_async; /* io_uring: IOSQE_ASYNC on every Nth IO (0: none) */
	bool userspace_reap;  /* libaio */
	bool thp;	      /* mmap: transparent huge pages for the mappings */
	char *ioscheduler;    /* the IO scheduler the job's devices are switched to, NULL: none */
	char *cgroup;	      /* each clone's thread joins this blkio control group, NULL: none */
	bool cgroup_nodelete; /* the groups made for it stay after the run */
	unsigned io_submit_mode; /* 0 inline, 1 offload: a pool of iodepth submit threads */
	bool serialize_overlap;	 /* no two IOs of a clone in flight share a byte */
	unsigned flow;	      /* flow control weight, 0: not in a flow */
	unsigned flow_id;     /* the flow it shares with the other jobs of that id */
	uint64_t flow_sleep;  /* ns between retries while over its share (0: spin) */
	bool atomic;	      /* fio's O_ATOMIC: O_DIRECT on Linux */
	/* replay (read_iolog) */
	char *read_iolog;
	char *replay_redirect;
	char *merge_blktrace_file;	/* read_iolog's traces merged into this one, which is replayed */
	char *merge_blktrace_scalars;	/* ':' separated percentages, one per trace */
	char *merge_blktrace_iters;	/* ':' separated counts, one per trace */
	bool replay_no_stall;
	bool read_iolog_chunked; /* read the log a chunk at a time during the replay */
	unsigned replay_time_scale, replay_align, replay_scale;
	unsigned replay_skip; /* 1 << DDIR_READ, _WRITE, _TRIM; 1 << 3 syncs */
	unsigned sync_file_range_nr;	/* sync_file_range(2) every this many writes, 0: never */
	unsigned sync_file_range_flags;	/* its SYNC_FILE_RANGE_* flags */
	/* CPU and memory placement (src/place.c) */
	struct place_opts place;
	/* job control (src/jobctl.c) */
	char *exec_prerun, *exec_postrun; /* shell commands before and after the job's IO */
	unsigned uid, gid;		  /* the thread's IDs, where set (job_opt_is_set) */
	bool error_dump;		  /* print every IO error as it happens, ignored ones too */
	bool rate_ignore_thinktime;	  /* a rate's schedule moves on by the thinktime stalls */
	/* latency limits (src/lattarget.c) */
	uint64_t max_latency[DDIR_NR];   /* ns per direction: an IO over it ends the job; 0: none */
	uint64_t latency_target;   /* ns; 0: no depth search */
	uint64_t latency_window;   /* ns each depth is tried */
	double latency_percentile; /* share of IOs that must keep the target */
	bool latency_run;	   /* keep adjusting the depth instead of ending */
	/* IO buffer memory (src/iomem.c) */
	unsigned iomem;		/* enum iomem_kind */
	char iomem_file[512];	/* mem=mmap:FILE and the like, "" for none */
	uint64_t iomem_align;	/* the first buffer is page aligned plus this */
	uint64_t hugepage_size; /* shmhuge and mmaphuge round the area up to it */
	uint64_t lockmem;	/* bytes each clone pins with mlock(2); 0: none */
};

/* zonemode=: fio's zones. */
enum zonemode {
	ZONEMODE_NONE = 0,
	ZONEMODE_STRIDED = 1, /* zonesize bytes in each zonerange, then zoneskip further */
	ZONEMODE_ZBD = 2,     /* zoned block devices: refused (preflight says why) */
};

/* fadvise_hint=: what posix_fadvise() the job's files get when they are opened. */
enum fadvise_hint {
	FADVISE_NONE = 0,
	FADVISE_TYPE = 1, /* by the job's rw: random or sequential (fio's default) */
	FADVISE_RANDOM = 2,
	FADVISE_SEQUENTIAL = 3,
};

/* fio's unified_rw_reporting. */
enum unified_rw {
	UNIFIED_NONE = 0, /* per direction */
	UNIFIED_MIXED,	  /* the directions summed, reported as one ("mixed") */
	UNIFIED_BOTH,	  /* per direction, then summed */
};

/* dedupe_mode= */
enum dedupe_mode {
	DEDUPE_REPEAT = 0,	/* a dedupable write repeats the last unique one */
	DEDUPE_WORKING_SET = 1,	/* ... or one of the first unique ones of the working set */
};

#endif
