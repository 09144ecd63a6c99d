/* SPDX-License-Identifier: MIT */
/*
 * Data verification, as the rest of iowl sees it: a checked header in every written unit
 * (fio 3.33's layout, src/verify/verify_int.h), the last write of each unit, the mismatch
 * reports, and the figures of a run.  Inside: src/verify/.
 */
#ifndef IOWL_VERIFY_H
#define IOWL_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "iowl/engine.h"
#include "iowl/err.h"
#include "iowl/place.h"
#include "iowl/target.h"

#define VERIFY_LOG_MAX		32	/* failures kept in detail per worker */

/* What is wrong with a unit, in the order they are checked. */
enum verify_kind {
	VERIFY_OK = 0,
	VERIFY_NO_HEADER,	/* no magic, or a sound header of another version or mode */
	VERIFY_HEADER_CRC,	/* the header does not match its own checksum */
	VERIFY_MISPLACED,	/* a sound header written for another offset or length */
	VERIFY_STALE,		/* a sound header from an older write than the last one that completed,
				 * or from another run or writer (seed, job or clone differ) */
	VERIFY_NEWER,		/* a sound header from a write newer than iowl knows of (another writer) */
	VERIFY_CORRUPT,		/* sound header, payload differs from what was written */
	VERIFY_NOT_ZERO,	/* trimmed (trim_percentage, trim_verify_zero), and not read as zeros */
};

/* A header, decoded. */
struct verify_hdr {
	uint16_t magic;
	uint16_t type;			/* fio's verify_type */
	uint32_t len;
	uint64_t seed;
	uint64_t offset;
	uint32_t seq;
	uint32_t clone;
	uint32_t job;			/* the thread field less 1 */
	uint16_t numberio;
	uint32_t hdr_crc;
	uint64_t sum;			/* the checksum area's first 8 bytes (fewer: zero-extended), LE;
					 * 0 from verify_hdr_decode(), which reads the 40 bytes only */
};

/* One failed unit, explained: what the header should hold, what it holds, the first bad byte. */
struct verify_failure {
	uint8_t kind;			/* enum verify_kind */
	bool seq_known;			/* want.seq and want.seed come from this run's writes */
	uint32_t file;			/* index in the worker's plan */
	uint64_t offset;		/* of the unit in its file */
	uint32_t len;			/* of the unit */
	struct verify_hdr want, got;
	uint32_t hdr_crc_calc;		/* fio's crc32c of the header read (bytes 0 to 35) */
	uint64_t sum_calc;		/* the checksum area of the payload read, as verify_hdr.sum */
	int64_t byte;			/* first differing byte in the unit, -1: none found */
	uint8_t byte_want, byte_got;
};

/*
 * Verification figures of one reported unit (a clone, or a merged reporting group): a run
 * result, kept in the unit's struct job_result and added in from each worker as the run gathers
 * them (verify_publish()).
 */
struct verify_totals {
	unsigned mode;			/* enum verify_mode of the first worker to add in, 0: none yet */
	uint32_t interval;		/* its verify_interval */
	uint64_t units;			/* units checked */
	uint64_t errors;		/* units that failed */
	uint64_t read_units;		/* checked on the job's own reads */
	uint64_t backlog_units;		/* checked by verify_backlog while writing */
	uint64_t readback_units;	/* checked after the writes (do_verify, or the backlog's rest) */
	bool has_failure;
	struct verify_failure first;
	char path[512];			/* the file of first */
};

/* A short name of a failure kind ("corrupt payload", ...), never NULL. */
const char *verify_kind_name(unsigned kind);

/* The JSON name of a failure kind ("corrupt", "stale", ...), never NULL. */
const char *verify_kind_key(unsigned kind);

/* The name of a verify mode as the job file writes it ("crc32c", "pattern", "0"). */
const char *verify_mode_name(unsigned mode);

/* The name of the method of a header's fio type ("md5", ...), "?" for none. */
const char *verify_type_name(unsigned fio_type);

/* One worker's verification state. */
struct verify;

/* What a worker's verification needs, taken from its job by verify_params_of(). */
struct verify_params {
	const char *name;		/* the job's, for messages */
	unsigned mode;			/* enum verify_mode */
	uint32_t interval;		/* verify_interval */
	uint32_t offset;		/* verify_offset, 0: the header stays first */
	const unsigned char *pattern;	/* verify_pattern (borrowed), NULL: none */
	unsigned pattern_len;
	unsigned job, clone;		/* who writes: the job's index in the run, its clone */
	bool writes;			/* the job writes: the last write of each unit is kept */
	bool do_verify, fatal, dump, only;
	unsigned backlog, backlog_batch;	/* verify_backlog, verify_backlog_batch */
	unsigned async;			/* verify_async: threads that check the reads, 0: inline */
	const struct place_set *async_cpus;	/* verify_async_cpus (borrowed), NULL: any CPU */
	unsigned trim_pct;		/* trim_percentage of the units written are trimmed again */
	unsigned trim_backlog, trim_batch;	/* after every trim_backlog writes, trim_batch trims */
	bool trim_zero;			/* trim_verify_zero: trimmed units must read back as zeros */
};

/* The verification of clone of job, as its options say. */
void verify_params_of(const struct job *job, unsigned clone, struct verify_params *p);

/*
 * Checks a job's verify_interval and verify_offset against the header of its verify method:
 * a unit holds the header and data after it, the header moves to after itself.  Returns 0 or
 * -EINVAL with err set at the option's line.
 */
int verify_check_job(const struct job *job, struct iowl_err *err);

/*
 * Checks job's verification against plan's files: with direct=1 every unit must be read back on
 * its own, so verify_interval must be a multiple of the logical block size.  Returns 0 or
 * -EINVAL with err set at the option's line.
 */
int verify_check_plan(const struct job *job, const struct target_plan *plan,
		      struct iowl_err *err);

/*
 * Sets up verification as p says over the nfiles files (a worker's plan, kept borrowed), with
 * depth io_us of buf_size bytes; seed makes the payloads of this worker.  A job that writes
 * keeps the sequence number of each unit's last write (4 bytes per unit of verify_interval),
 * allocated here.  Returns a new state (free with verify_free()) or NULL with err set.
 */
struct verify *verify_new(const struct verify_params *p, const struct target_file *files,
			  unsigned nfiles, unsigned depth, uint64_t buf_size, uint64_t seed,
			  struct iowl_err *err);

/* Frees v and everything it owns (NULL is fine). */
void verify_free(struct verify *v);

/* Fills the buffer of a write (one header per unit) and gives the write its sequence number. */
void verify_fill(struct verify *v, struct io_u *io);

/*
 * Claims the units of a new read or write.  Returns false when an IO in flight covers one of
 * them: io must wait until that IO completes (overlapping IOs are serialised).
 */
bool verify_claim(struct verify *v, const struct io_u *io);

/*
 * Ends a read or write claimed before: ok when it transferred everything.  A write records
 * its sequence number as each unit's last (or unknown after a failure); a read is checked
 * unit by unit.  Returns the number of units that failed.
 */
unsigned verify_complete(struct verify *v, const struct io_u *io, bool ok);

/* True when verification reads are due now (a verify_backlog batch, or the read-back). */
bool verify_pending(struct verify *v);

/* Fills io with the next verification read; only after verify_pending() said true. */
void verify_next(struct verify *v, struct io_u *io);

/*
 * Starts what comes after the job's writes: the writes left in the verify_backlog, or without
 * a backlog (and with do_verify) the read-back of every unit written, so each write is read
 * back once.  Returns true when there is any.
 */
bool verify_finish_writes(struct verify *v);

/* --aux-path: the directory of the verify state files, "" or NULL: the current one (fio's). */
void verify_state_dir(const char *dir);

/*
 * The verify state file of the worker numbered number (fio's thread number less 1) of job name,
 * as fio names it: DIR/local-NAME-N-verify.state, each '/' in the name a '.'.  Returns 0 or
 * -ENAMETOOLONG.
 */
int verify_state_name(char *out, size_t n, const char *name, unsigned number);

/*
 * verify_state_save: writes the last completed write of every unit (IOs in flight count as not
 * completed) to path, replacing it whole.  Returns 0 or -errno with err set.
 */
int verify_state_save(const struct verify *v, const char *path, struct iowl_err *err);

/*
 * verify_state_load: takes the last writes saved at path by an earlier run of the same job as
 * this run's: its reads and read-back check exactly the units whose writes had completed, each
 * against its last write, and verify_only's dry writes leave them as loaded.  Returns 0 or
 * -EINVAL with err set (a missing file, or one saved for other units).
 */
int verify_state_load(struct verify *v, const char *path, struct iowl_err *err);

/* Units verify_state_load() found written; 0 when nothing was loaded. */
uint64_t verify_state_loaded(const struct verify *v);

/* The i-th failure kept in detail (i < VERIFY_LOG_MAX), or NULL. */
const struct verify_failure *verify_failure_at(struct verify *v, unsigned i);

/*
 * With verify_async: waits until every read handed to the threads is checked and stops them
 * (at the end of the worker's IO).  Returns the units found bad that verify_complete() has not
 * returned yet; 0 without verify_async.
 */
unsigned verify_drain(struct verify *v);

/* Prints every failure kept in detail to stderr, for job name, and how many more there were. */
void verify_print(const struct verify *v, const char *name);

/* Adds the worker's figures into t (the run gathers its workers one at a time). */
void verify_publish(const struct verify *v, struct verify_totals *t);

#endif
