/* SPDX-License-Identifier: MIT */
/* Data verification: a checked header in every written unit, crc32c or pattern payloads, the last write of each unit, and the mismatch reports. */
#ifndef IOWL_VERIFY_H
#define IOWL_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "iowl/engine.h"
#include "iowl/err.h"
#include "iowl/job.h"
#include "iowl/target.h"

/*
 * The header at the start of every verified unit, fio 3.33's, little-endian (documented in
 * iowl(1), VERIFICATION), so that fio verifies what iowl wrote and iowl what fio wrote:
 *
 *   0  u16 magic        VERIFY_MAGIC (0xacca)
 *   2  u16 type         fio's verify_type number of the method (struct verify_method)
 *   4  u32 length       bytes in the unit, header included
 *   8  u64 seed         seed of the write's pseudo-random payload
 *  16  u64 offset       byte offset of the unit in its file
 *  24  u32 seq          the writer's write sequence number (1 to 2^31-1, wraps); fio's time_sec,
 *                       which fio 3.33 writes as 0 and never checks
 *  28  u32 clone        clone of the job that wrote it (fio's time_nsec, likewise)
 *  32  u16 thread       index of the writing job in the run, plus 1 (fio's thread number)
 *  34  u16 numberio     seq's low 16 bits (fio's write number)
 *  36  u32 header crc   fio's crc32c (from ~0, not inverted at the end) of bytes 0 to 35
 *  40  the method's checksum area of the payload (0 to 128 bytes, verify_method.area)
 *
 * The payload follows: pseudo-random bytes from the seed (a verify_pattern if given).
 * verify=pattern and verify=null write no header.  With a known last write, every field that
 * identifies it (seed, offset, length, seq, job, clone) must match, as fio checks its header.
 */
#define VERIFY_HDR_LEN		40
#define VERIFY_HDR_CRC_OFF	36
#define VERIFY_AREA_MAX		128
#define VERIFY_MAGIC		0xaccaU
#define VERIFY_SEQ_MASK		0x7fffffffU
#define VERIFY_LOG_MAX		32	/* failures kept in detail per worker */

struct verify_cfg;

/* One verify method: its checksum area after the header, as fio 3.33 lays it out. */
struct verify_method {
	unsigned mode;			/* enum verify_mode */
	const char *name;		/* as verify= names it */
	unsigned fio_type;		/* fio 3.33's verify_type in the header */
	unsigned area;			/* bytes of the checksum area */
	/* Writes the area of the n payload bytes at p; NULL: no checksum (meta, pattern, null). */
	void (*sum)(const struct verify_cfg *cfg, const unsigned char *p, size_t n,
		    unsigned char *area);
};

/* The method of mode (enum verify_mode); never NULL. */
const struct verify_method *verify_method_of(unsigned mode);

/* The method whose header type is fio_type, or NULL. */
const struct verify_method *verify_method_by_type(unsigned fio_type);

/* Header and checksum area of a unit of mode, in bytes (0: the mode writes no header). */
unsigned verify_mode_hdr_len(unsigned mode);

/* Builds the CRC tables once; verify_cfg_init() calls it. */
void verify_sum_init(void);

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
 * Verification figures of one reported unit (a clone, or a merged reporting group), kept by
 * the job (struct job.verify_totals) and filled by the workers when they end.
 */
struct verify_totals {
	unsigned mode;			/* enum verify_mode of the first worker to add in, 0: none yet */
	uint32_t interval;		/* its verify_interval */
	uint64_t units;			/* units checked */
	uint64_t errors;		/* units that failed */
	uint64_t read_units;		/* checked on the job's own reads */
	uint64_t backlog_units;		/* checked by verify_backlog while writing */
	uint64_t readback_units;	/* checked after the writes (do_verify, or the backlog's rest) */
	int claimed;			/* a worker has written first (atomic) */
	bool has_failure;
	struct verify_failure first;
	char path[512];			/* the file of first */
};

/* CRC-32C function: crc of the bytes so far (0 to start), the next bytes; returns the new crc. */
typedef uint32_t (*verify_crc_fn)(uint32_t crc, const void *buf, size_t len);

/* Table-driven CRC-32C (Castagnoli), for any CPU.  verify_crc32c_sw(0, "123456789", 9) is 0xe3069283. */
uint32_t verify_crc32c_sw(uint32_t crc, const void *buf, size_t len);

/* CRC-32C with the SSE4.2 crc32 instruction; only when verify_crc32c_hw_ok() says so. */
uint32_t verify_crc32c_hw(uint32_t crc, const void *buf, size_t len);

/* True when the CPU has the SSE4.2 crc32 instruction (cpuid). */
bool verify_crc32c_hw_ok(void);

/* How units are filled and checked; the same for every unit of a job. */
struct verify_cfg {
	unsigned mode;			/* enum verify_mode */
	uint32_t interval;		/* bytes per unit, at least VERIFY_HDR_LEN */
	unsigned char *pattern;		/* the pattern over one unit (owned), NULL: random payloads */
	verify_crc_fn crc;		/* hardware when the CPU has it */
	const struct verify_method *method;
	uint32_t hdr_len;		/* header and checksum area, 0: none (pattern, null) */
	uint32_t swap;			/* verify_offset: where the header is moved to, 0: not moved */
	uint32_t job, clone;		/* who writes: the job's index in the run, its clone */
};

/*
 * Sets up cfg for mode and interval; pattern (plen bytes, verify=pattern only) is repeated over
 * a unit from its first byte.  hw picks the hardware CRC when the CPU has it.  Returns 0 or
 * -ENOMEM; release with verify_cfg_release().
 */
int verify_cfg_init(struct verify_cfg *cfg, unsigned mode, uint32_t interval,
		    const unsigned char *pattern, unsigned plen, bool hw);

/* Frees what verify_cfg_init() allocated. */
void verify_cfg_release(struct verify_cfg *cfg);

/* Writes h as the VERIFY_HDR_LEN bytes at buf, setting h->hdr_crc (the area is not touched). */
void verify_hdr_encode(const struct verify_cfg *cfg, struct verify_hdr *h, void *buf);

/* Reads the header at buf into h (no checks). */
void verify_hdr_decode(const void *buf, struct verify_hdr *h);

/*
 * Fills one unit (cfg->interval bytes at unit) as written at offset by write seq of cfg's job
 * and clone, payload from seed.
 */
void verify_unit_fill(const struct verify_cfg *cfg, void *unit, uint64_t offset, uint32_t seq,
		      uint64_t seed);

/*
 * Checks one unit read at offset.  want_seq is the sequence number of the last write known to
 * have reached it and want_seed that write's seed: the header must name that write (seq, seed,
 * cfg's job and clone).  want_seq 0 means unknown (a unit written by another run): the unit
 * must then stand on its own (header checksum, offset, payload checksum).  Returns VERIFY_OK or
 * what is wrong (enum verify_kind).
 */
enum verify_kind verify_unit_check(const struct verify_cfg *cfg, const void *unit,
				   uint64_t offset, uint32_t want_seq, uint64_t want_seed);

/*
 * Explains a failed unit into f: the expected and found header fields and the first
 * differing byte.  With want_seq (and its seed want_seed) the expected unit is rebuilt
 * exactly; without, it is inferred from the unit itself (a single damaged header byte is
 * located through the header checksum).  scratch holds cfg->interval bytes.  f->file is left
 * to the caller.
 */
void verify_unit_explain(const struct verify_cfg *cfg, const void *unit, uint64_t offset,
			 uint32_t want_seq, uint64_t want_seed, void *scratch,
			 struct verify_failure *f);

/* A short name of a failure kind ("corrupt payload", ...), never NULL. */
const char *verify_kind_name(unsigned kind);

/* The JSON name of a failure kind ("corrupt", "stale", ...), never NULL. */
const char *verify_kind_key(unsigned kind);

/* The name of a verify mode as the job file writes it ("crc32c", "pattern", "0"). */
const char *verify_mode_name(unsigned mode);

/* The name of the method of a header's fio type ("md5", ...), "?" for none. */
const char *verify_type_name(unsigned fio_type);

/*
 * Parses a verify_pattern value in fio's syntax: 0x hex bytes, a decimal in the int range
 * (little-endian, its significant bytes), or a "quoted string", one after another.  Writes at
 * most max bytes to out and their count to *len.  Returns 0 or -EINVAL with why set.
 */
int verify_pattern_parse(const char *s, unsigned char *out, unsigned max, unsigned *len,
			 char *why);

/* One worker's verification state. */
struct verify;

/*
 * Checks job's verification against plan's files: with direct=1 every unit must be read back on
 * its own, so verify_interval must be a multiple of the logical block size.  Returns 0 or
 * -EINVAL with err set at the option's line.
 */
int verify_check_plan(const struct job *job, const struct target_plan *plan,
		      struct iowl_err *err);

/*
 * Sets up verification for clone of job over plan's files, with depth io_us of buf_size
 * bytes; seed makes the payloads of this worker.  A job that writes keeps the sequence number
 * of each unit's last write (4 bytes per unit of verify_interval), allocated here.  Returns a
 * new state (free with verify_free()) or NULL with err set.
 */
struct verify *verify_new(const struct job *job, unsigned clone, const struct target_plan *plan,
			  unsigned depth, uint64_t buf_size, uint64_t seed, struct iowl_err *err);

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

/* The i-th failure kept in detail (i < VERIFY_LOG_MAX), or NULL. */
const struct verify_failure *verify_failure_at(const struct verify *v, unsigned i);

/* Prints every failure kept in detail to stderr, for job name, and how many more there were. */
void verify_print(const struct verify *v, const char *name);

/* Adds the worker's figures into t; safe with several workers adding into one t at once. */
void verify_publish(const struct verify *v, struct verify_totals *t);

#endif
