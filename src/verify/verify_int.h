/* SPDX-License-Identifier: MIT */
/*
 * Verification inside src/verify/ (as sqlite's btreeInt.h): the on-disk unit format (unit.c),
 * the checksums (sum.c), and one worker's state (state.c), which include/iowl/verify.h shows
 * the rest of iowl as an opaque struct verify; check.c holds the job-facing checks.
 */
#ifndef IOWL_VERIFY_INT_H
#define IOWL_VERIFY_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <pthread.h>
#include <stdint.h>

#include "iowl/pattern/rng.h"
#include "iowl/place.h"
#include "iowl/verify.h"

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
enum verify_kind verify_unit_check(const struct verify_cfg *cfg, const void *unit, uint64_t offset,
				   uint32_t want_seq, uint64_t want_seed);

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

#define VERIFY_BUSY 0x80000000U /* state: an IO in flight covers the unit */
#define VERIFY_TRIMMED                                                                             \
	VERIFY_SEQ_MASK /* state: trimmed, reads back as zeros (never a write's seq) */

/* A write the verify_backlog will read back. */
struct verify_extent {
	uint64_t offset;
	uint32_t len;
	uint32_t file;
};

/* Who issued a verification read, for the figures. */
enum verify_src {
	SRC_READ = 0,		/* the job's own read */
	SRC_BACKLOG,		/* a verify_backlog batch while writing */
	SRC_READBACK,		/* after the writes */
};

/* Units checked and failed, by where their reads came from. */
struct verify_counts {
	uint64_t units, errors, by_src[3];
};

/* A completed read to check: where it was, its data, and the last write known of each unit. */
struct verify_read {
	unsigned char *buf;
	uint64_t offset;
	uint32_t len;
	uint32_t file;			/* index in the worker's plan */
	const uint32_t *want;		/* per unit, as struct verify.state; NULL: none known */
	unsigned src;			/* enum verify_src */
};

struct verify_async;

struct verify {
	struct verify_cfg cfg;
	const struct target_file *files;	/* the worker's plan */
	unsigned nfiles;
	uint64_t *base;			/* first unit of each file; base[nfiles]: all units */
	uint32_t *state;		/* per unit: seq of its last write | VERIFY_BUSY; NULL: no writes */
	uint32_t *io_seq;		/* per io_u: the seq of the write it carries */
	uint8_t *io_src;		/* per io_u: enum verify_src of its read */
	unsigned char *scratch;		/* one unit, to explain failures */
	uint64_t seed;
	uint32_t seq;			/* the last write sequence number given */
	uint32_t max_units;		/* units one io_u buffer holds */
	bool do_verify, fatal;
	bool halted;			/* verify_fatal stopped all checking (atomic: async threads set it) */
	/* verify_backlog: completed writes not read back yet, a ring */
	struct verify_extent *ring;
	unsigned ring_cap, ring_head, ring_n, backlog;
	unsigned batch,
		batch_left; /* verify_backlog_batch: reads per round, and left in this one */
	bool backlog_on, flushing;
	bool dump; /* verify_dump */
	bool only; /* verify_only: the units stand on their own, as in fio */
	bool writes; /* the job writes (verify_params.writes) */
	bool dry; /* verify_only: its writes are not made */
	bool loaded; /* verify_state_load: state holds the last writes of an earlier run */
	uint64_t loaded_units; /* units it named */
	/* the read-back after the writes */
	bool readback;
	uint64_t rb_unit;
	unsigned rb_file;
	/* trim_percentage: written extents to trim again, a ring (trim.c) */
	struct verify_extent *trims;
	unsigned trim_cap, trim_head, trim_n;
	unsigned trim_left;		/* trims due now: a trim_backlog_batch, or all at the end */
	unsigned trim_backlog, trim_batch;
	uint64_t trim_thresh;		/* rng_chance() of trim_percentage */
	uint64_t trim_writes;		/* writes completed, counting to trim_backlog */
	bool trim_zero;
	struct rng trim_rng;		/* picks the writes to trim */
	/* verify_async: the threads that check reads, NULL: checked inline */
	struct verify_async *async;
	pthread_mutex_t log_lock;	/* the failures kept, with async threads (failures only) */
	unsigned bad_left;		/* bad units the stopped threads found, not reaped yet */
	/* results */
	struct verify_counts cnt;
	unsigned nlog;
	struct verify_failure log[VERIFY_LOG_MAX];
};

/*
 * Checks the units of r, counting them into c, and keeps what failed (verify_dump writes them
 * out); scratch holds one unit.  Returns the number of units that failed.  Safe from several
 * threads at once with their own c and scratch.
 */
unsigned verify_check_read(struct verify *v, const struct verify_read *r, struct verify_counts *c,
			   unsigned char *scratch);

/* trim.c: sets up trim_percentage's ring and generator.  Returns 0 or -ENOMEM. */
int verify_trim_init(struct verify *v, const struct verify_params *p, unsigned depth);

/* A write completed: with trim_percentage's chance its extent is queued to be trimmed. */
void verify_trim_note(struct verify *v, const struct io_u *io);

/* True when a trim is due now. */
static inline bool verify_trim_due(const struct verify *v)
{
	return v->trim_left && v->trim_n;
}

/* Fills io with the next trim; only after verify_trim_due() said true. */
void verify_trim_next(struct verify *v, struct io_u *io);

/* The end of the writes: every extent queued is trimmed before the read-back. */
void verify_trim_flush(struct verify *v);

/* True when the n bytes at p are zeros; else *at is the first that is not. */
bool verify_is_zero(const unsigned char *p, size_t n, size_t *at);

/* True once verify_fatal has stopped all checking. */
static inline bool verify_halted(const struct verify *v)
{
	return __atomic_load_n(&v->halted, __ATOMIC_ACQUIRE);
}

/*
 * verify_async (async.c): starts n threads on the CPUs of cpus (NULL or empty: any) that check
 * the reads verify_async_push() hands them.  Returns 0 or -errno with err set.
 */
int verify_async_start(struct verify *v, unsigned n, const struct place_set *cpus, unsigned depth,
		       uint64_t buf_size, struct iowl_err *err);

/* Hands a completed read to a thread, copying its data (waits while every thread is busy). */
void verify_async_push(struct verify *v, const struct verify_read *r);

/* The units the threads found bad since the last call (the worker counts them as errors). */
unsigned verify_async_reap(struct verify *v);

/* Waits for every read handed over to be checked, stops the threads and adds their figures in. */
void verify_async_stop(struct verify *v);

#endif
