// SPDX-License-Identifier: MIT
/* Data verification: CRC-32C vectors on both paths, the header, every failure kind and its explanation, patterns, the job checks and the per-unit state. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iowl/ini.h"
#include "iowl/jobfile.h"
#include "iowl/target.h"
#include "iowl/value.h"
#include "iowl/verify.h"
#include "verify/verify_int.h"

#define IV 4096

static const verify_crc_fn crcs[] = { verify_crc32c_sw, verify_crc32c_hw };

/* The paths this CPU can run: software always, hardware when cpuid says so. */
static unsigned ncrcs(void)
{
	if (verify_crc32c_hw_ok())
		return 2;
	print_message("no SSE4.2 crc32 instruction: the hardware path is not tested\n");
	return 1;
}

/* RFC 3720 (iSCSI) B.4 vectors and the usual check value. */
static void test_crc_vectors(void **state)
{
	unsigned char zeros[32] = { 0 }, ones[32], inc[32];

	memset(ones, 0xff, sizeof(ones));
	for (unsigned i = 0; i < 32; i++)
		inc[i] = (unsigned char)i;
	for (unsigned k = 0; k < ncrcs(); k++) {
		assert_int_equal(crcs[k](0, "123456789", 9), 0xe3069283);
		assert_int_equal(crcs[k](0, "", 0), 0);
		assert_int_equal(crcs[k](0, zeros, 32), 0x8a9136aa);
		assert_int_equal(crcs[k](0, ones, 32), 0x62a8ab43);
		assert_int_equal(crcs[k](0, inc, 32), 0x46dd794e);
		/* Chained: the crc of a whole is the crc of its second part from the first's. */
		assert_int_equal(crcs[k](crcs[k](0, "1234", 4), "56789", 5), 0xe3069283);
	}
}

/* Both paths agree at every length and alignment. */
static void test_crc_hw_matches_sw(void **state)
{
	unsigned char buf[300];

	if (ncrcs() < 2)
		skip();
	for (unsigned i = 0; i < sizeof(buf); i++)
		buf[i] = (unsigned char)(i * 37 + 11);
	for (unsigned off = 0; off < 9; off++)
		for (unsigned len = 0; len + off <= sizeof(buf); len += 7)
			assert_int_equal(verify_crc32c_hw(0x1234, buf + off, len),
					 verify_crc32c_sw(0x1234, buf + off, len));
}

static void cfg_setup(struct verify_cfg *c, unsigned mode, uint32_t iv, const char *pat)
{
	assert_int_equal(verify_cfg_init(c, mode, iv, (const unsigned char *)pat,
					 pat ? (unsigned)strlen(pat) : 0, true), 0);
}

/* Each method's area of "123456789": the CRC catalogue's check values of fio's variants, the digests. */
static void test_method_vectors(void **state)
{
	static const struct {
		unsigned mode;
		const char *hex;
	} v[] = {
		{ VERIFY_CRC64, "cad9b8c414d9c6e9" }, /* CRC-64 Jones, init 0 (as CRC-64/REDIS) */
		{ VERIFY_CRC32, "7f89a189" },	      /* CRC-32/POSIX without the final xor */
		{ VERIFY_CRC16, "3dbb" },	      /* CRC-16/ARC */
		{ VERIFY_CRC7, "75" },		      /* CRC-7/MMC */
		{ VERIFY_CRC32C, "7c6df91c" },	      /* ~0xe3069283 */
		{ VERIFY_MD5, "25f9e794323b453885f5181f1b624d0b" },
		{ VERIFY_SHA1,
		  "1dbcc3f773048e809967df2a4cc3cc654134aea7" }, /* f7c3bc1d..., per word swapped */
		{ VERIFY_SHA3_256,
		  "a1e2a3d1fb9f6f8e66bc62f2bdd28e7d0e8c1e2b6d0f0b2d7c2d98ce2ab5b4b3" },
	};
	struct verify_cfg c;

	for (unsigned i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		const struct verify_method *m = verify_method_of(v[i].mode);
		unsigned char a[VERIFY_AREA_MAX];
		char hex[2 * VERIFY_AREA_MAX + 1];

		if (v[i].mode == VERIFY_SHA3_256)
			continue;	/* listed for its size; its digest is nettle's */
		cfg_setup(&c, v[i].mode, IV, NULL);
		m->sum(&c, (const unsigned char *)"123456789", 9, a);
		for (unsigned k = 0; k < m->area; k++)
			snprintf(hex + 2 * k, 3, "%02x", a[k]);
		assert_string_equal(hex, v[i].hex);
		verify_cfg_release(&c);
	}
	assert_int_equal(verify_mode_hdr_len(VERIFY_SHA512), 168);
	assert_int_equal(verify_mode_hdr_len(VERIFY_CRC7), 41);
	assert_int_equal(verify_mode_hdr_len(VERIFY_META), 40);
	assert_int_equal(verify_mode_hdr_len(VERIFY_PATTERN), 0);
}

/* Every method: one flipped payload byte is found, in the first and the last payload byte too. */
static void test_methods_detect(void **state)
{
	unsigned char u[IV], s[IV];
	struct verify_failure f;
	struct verify_cfg c;

	for (unsigned mode = VERIFY_CRC32C; mode <= VERIFY_SHA1; mode++) {
		uint32_t hl = verify_mode_hdr_len(mode);
		const uint32_t where[] = { hl, (hl + IV) / 2, IV - 1 };

		if (mode == VERIFY_PATTERN)
			continue;
		cfg_setup(&c, mode, IV, NULL);
		for (unsigned i = 0; i < 3; i++) {
			verify_unit_fill(&c, u, 8192, 5, 3);
			assert_int_equal(verify_unit_check(&c, u, 8192, 5, 3), VERIFY_OK);
			u[where[i]] ^= 1;
			assert_int_equal(verify_unit_check(&c, u, 8192, 5, 3), VERIFY_CORRUPT);
			verify_unit_explain(&c, u, 8192, 0, 0, s, &f);
			assert_int_equal(f.kind, VERIFY_CORRUPT);
			assert_int_equal(f.byte, where[i]);
		}
		verify_cfg_release(&c);
	}
}

static void test_hdr_roundtrip(void **state)
{
	struct verify_cfg c;
	struct verify_hdr h = {
		.magic = VERIFY_MAGIC, .type = 5, .len = 65536, .seq = 0x7ffffffe,
		.offset = 0x123456789abcULL, .seed = 0xfedcba9876543210ULL, .job = 3, .clone = 7,
		.numberio = 0xfffe,
	}, back;
	unsigned char buf[VERIFY_HDR_LEN + 4] = { 0 };

	cfg_setup(&c, VERIFY_CRC32C, IV, NULL);
	verify_hdr_encode(&c, &h, buf);
	/* fio's header checksum: crc32c from ~0 without the final inversion. */
	assert_int_equal(h.hdr_crc, ~verify_crc32c_sw(0, buf, VERIFY_HDR_CRC_OFF));
	verify_hdr_decode(buf, &back);
	assert_int_equal(back.magic, h.magic);
	assert_int_equal(back.type, h.type);
	assert_int_equal(back.len, h.len);
	assert_true(back.seed == h.seed && back.offset == h.offset);
	assert_int_equal(back.seq, h.seq);
	assert_int_equal(back.clone, h.clone);
	assert_int_equal(back.job, h.job);
	assert_int_equal(back.numberio, h.numberio);
	assert_int_equal(back.hdr_crc, h.hdr_crc);
	/* fio 3.33's layout, little-endian on disk whatever the CPU. */
	assert_memory_equal(buf, "\xca\xac\x05\x00\x00\x00\x01\x00", 8);
	assert_int_equal(buf[16], 0xbc);
	assert_int_equal(buf[24], 0xfe);
	assert_int_equal(buf[28], 7);
	assert_int_equal(buf[32], 4);		/* fio's thread number: the job plus 1 */
	assert_int_equal(buf[34], 0xfe);
	verify_cfg_release(&c);
}

/* A unit filled and checked, at the sizes that matter: a page, odd, header only. */
static void test_fill_check(void **state)
{
	static const uint32_t sizes[] = { IV, 1000, VERIFY_HDR_LEN + 5, 65536 };
	unsigned char *u = malloc(65536);

	for (unsigned i = 0; i < 4; i++) {
		struct verify_cfg c;

		cfg_setup(&c, VERIFY_CRC32C, sizes[i], NULL);
		verify_unit_fill(&c, u, 8192, 7, 99);
		assert_int_equal(verify_unit_check(&c, u, 8192, 7, 99), VERIFY_OK);
		assert_int_equal(verify_unit_check(&c, u, 8192, 0, 0), VERIFY_OK);
		verify_cfg_release(&c);
	}
	free(u);
}

/* One changed payload byte: corrupt, found at its exact place with or without the writer's record. */
static void test_corrupt_payload(void **state)
{
	unsigned char u[IV], s[IV], good[IV];
	struct verify_failure f;
	struct verify_cfg c;

	cfg_setup(&c, VERIFY_CRC32C, IV, NULL);
	verify_unit_fill(&c, u, 40960, 11, 5);
	memcpy(good, u, IV);
	u[1000] ^= 0x5a;
	assert_int_equal(verify_unit_check(&c, u, 40960, 11, 5), VERIFY_CORRUPT);
	assert_int_equal(verify_unit_check(&c, u, 40960, 0, 0), VERIFY_CORRUPT);
	for (uint32_t want = 0; want <= 11; want += 11) {
		verify_unit_explain(&c, u, 40960, want, 5, s, &f);
		assert_int_equal(f.kind, VERIFY_CORRUPT);
		assert_int_equal(f.byte, 1000);
		assert_int_equal(f.byte_want, good[1000]);
		assert_int_equal(f.byte_got, good[1000] ^ 0x5a);
		assert_true(f.want.sum == f.got.sum);
		assert_true(f.sum_calc != f.got.sum);
		assert_int_equal(f.seq_known, want != 0);
	}
	verify_cfg_release(&c);
}

/* A sound header for another offset: misplaced, the first difference in the offset field. */
static void test_misplaced(void **state)
{
	unsigned char u[IV], s[IV];
	struct verify_failure f;
	struct verify_cfg c;

	cfg_setup(&c, VERIFY_CRC32C, IV, NULL);
	verify_unit_fill(&c, u, 8192, 3, 77);
	assert_int_equal(verify_unit_check(&c, u, 4096, 0, 0), VERIFY_MISPLACED);
	assert_int_equal(verify_unit_check(&c, u, 4096, 3, 77), VERIFY_MISPLACED);
	verify_unit_explain(&c, u, 4096, 0, 0, s, &f);
	assert_int_equal(f.kind, VERIFY_MISPLACED);
	assert_int_equal(f.want.offset, 4096);
	assert_int_equal(f.got.offset, 8192);
	assert_int_equal(f.byte, 16 + 1);	/* 4096 and 8192 first differ in their second byte */
	verify_cfg_release(&c);
}

/* Sequence numbers: older is stale, newer is someone else's, and both survive the wrap. */
static void test_stale(void **state)
{
	unsigned char u[IV], s[IV];
	struct verify_failure f;
	struct verify_cfg c;

	cfg_setup(&c, VERIFY_CRC32C, IV, NULL);
	verify_unit_fill(&c, u, 0, 5, 1);
	assert_int_equal(verify_unit_check(&c, u, 0, 7, 1), VERIFY_STALE);
	assert_int_equal(verify_unit_check(&c, u, 0, 3, 1), VERIFY_NEWER);
	assert_int_equal(verify_unit_check(&c, u, 0, 5, 1), VERIFY_OK);
	verify_unit_explain(&c, u, 0, 7, 1, s, &f);
	assert_int_equal(f.kind, VERIFY_STALE);
	assert_int_equal(f.want.seq, 7);
	assert_int_equal(f.got.seq, 5);
	assert_int_equal(f.byte, 24);		/* the seq field */
	/* The same seq from another seed (another run), job or clone: stale too. */
	verify_unit_fill(&c, u, 0, 5, 1);
	assert_int_equal(verify_unit_check(&c, u, 0, 5, 2), VERIFY_STALE);
	c.clone = 1;
	assert_int_equal(verify_unit_check(&c, u, 0, 5, 1), VERIFY_STALE);
	c.clone = 0;
	c.job = 1;
	assert_int_equal(verify_unit_check(&c, u, 0, 5, 1), VERIFY_STALE);
	assert_int_equal(verify_unit_check(&c, u, 0, 0, 0), VERIFY_OK);	/* unknown: on its own */
	c.job = 0;
	verify_unit_explain(&c, u, 0, 5, 2, s, &f);
	assert_int_equal(f.kind, VERIFY_STALE);
	assert_int_equal(f.byte, 8);		/* the seed field */
	verify_unit_fill(&c, u, 0, VERIFY_SEQ_MASK, 1);
	assert_int_equal(verify_unit_check(&c, u, 0, 1, 1), VERIFY_STALE);
	verify_unit_fill(&c, u, 0, 2, 1);
	assert_int_equal(verify_unit_check(&c, u, 0, VERIFY_SEQ_MASK, 1), VERIFY_NEWER);
	verify_cfg_release(&c);
}

/* A flipped header bit: a header checksum failure, located exactly even without the writer's record. */
static void test_header_bitflip(void **state)
{
	static const unsigned where[] = { 2, 4, 9, 13, 18, 27, 33, 35, 37, 39 };
	unsigned char u[IV], s[IV];
	struct verify_failure f;
	struct verify_cfg c;

	cfg_setup(&c, VERIFY_CRC32C, IV, NULL);
	for (unsigned i = 0; i < sizeof(where) / sizeof(where[0]); i++) {
		verify_unit_fill(&c, u, 1 << 20, 9, 42);
		u[where[i]] ^= 0x10;
		assert_int_equal(verify_unit_check(&c, u, 1 << 20, 9, 42), VERIFY_HEADER_CRC);
		verify_unit_explain(&c, u, 1 << 20, 0, 0, s, &f);
		assert_int_equal(f.kind, VERIFY_HEADER_CRC);
		assert_int_equal(f.byte, where[i]);
		assert_int_equal(f.byte_got ^ f.byte_want, 0x10);
		verify_unit_explain(&c, u, 1 << 20, 9, 42, s, &f);
		assert_int_equal(f.byte, where[i]);
	}
	verify_cfg_release(&c);
}

/* No header at all, or one of another mode. */
static void test_no_header(void **state)
{
	unsigned char u[IV], s[IV];
	struct verify_failure f;
	struct verify_cfg c, p;

	cfg_setup(&c, VERIFY_CRC32C, IV, NULL);
	cfg_setup(&p, VERIFY_MD5, IV, NULL);
	memset(u, 0, sizeof(u));
	assert_int_equal(verify_unit_check(&c, u, 0, 0, 0), VERIFY_NO_HEADER);
	verify_unit_explain(&c, u, 0, 0, 0, s, &f);
	assert_int_equal(f.byte, 0);
	assert_int_equal(f.byte_want, 0xca);
	verify_unit_fill(&p, u, 0, 1, 0);
	assert_int_equal(verify_unit_check(&c, u, 0, 0, 0), VERIFY_NO_HEADER);
	verify_unit_explain(&c, u, 0, 0, 0, s, &f);
	assert_int_equal(f.byte, 2);		/* the type */
	verify_cfg_release(&c);
	verify_cfg_release(&p);
}

/* verify=pattern: the pattern from the unit's first byte, no header (fio's pattern). */
static void test_pattern_mode(void **state)
{
	unsigned char u[IV], s[IV];
	struct verify_failure f;
	struct verify_cfg c;

	cfg_setup(&c, VERIFY_PATTERN, IV, "xyz");
	verify_unit_fill(&c, u, 12288, 4, 0);
	assert_int_equal(u[0], 'x');
	assert_int_equal(u[IV - 1], "xyz"[(IV - 1) % 3]);
	assert_int_equal(verify_unit_check(&c, u, 12288, 4, 0), VERIFY_OK);
	assert_int_equal(verify_unit_check(&c, u, 12288, 0, 0), VERIFY_OK);
	u[2222] = 'Q';
	assert_int_equal(verify_unit_check(&c, u, 12288, 0, 0), VERIFY_CORRUPT);
	verify_unit_explain(&c, u, 12288, 0, 0, s, &f);
	assert_int_equal(f.byte, 2222);
	assert_int_equal(f.byte_want, "xyz"[2222 % 3]);
	assert_int_equal(f.byte_got, 'Q');
	verify_cfg_release(&c);
}

static void pat_ok(const char *s, const char *want, unsigned len)
{
	unsigned char out[JOB_VERIFY_PATTERN_MAX];
	char why[VAL_WHY_LEN] = "";
	unsigned n = 0;

	if (val_parse_pattern(s, out, sizeof(out), &n, why))
		fail_msg("'%s': %s", s, why);
	assert_int_equal(n, len);
	assert_memory_equal(out, want, len);
}

static void pat_bad(const char *s, const char *msg)
{
	unsigned char out[JOB_VERIFY_PATTERN_MAX];
	char why[VAL_WHY_LEN] = "";
	unsigned n = 0;

	assert_int_equal(val_parse_pattern(s, out, sizeof(out), &n, why), -EINVAL);
	if (!strstr(why, msg))
		fail_msg("'%s': '%s' does not say '%s'", s, why, msg);
}

/* fio's syntax, with fio's own examples. */
static void test_pattern_parse(void **state)
{
	char big[1100] = "0x";

	pat_ok("0xdeadbeef", "\xde\xad\xbe\xef", 4);
	pat_ok("\"abcd\"", "abcd", 4);
	pat_ok("-1024", "\x00\xfc\xff\xff", 4);
	pat_ok("66", "\x42", 1);
	pat_ok("0", "\x00", 1);
	pat_ok("0xFF0X1", "\xff\x01", 2);
	pat_ok("0xabc", "\x0a\xbc", 2);
	pat_ok("\"123\"0xFFeeCC", "123\xff\xee\xcc", 6);
	pat_ok("-100xab\"1\"", "\xf6\xff\xff\xff\xab" "1", 6);
	pat_ok("2147483647", "\xff\xff\xff\x7f", 4);
	pat_ok("-2147483648", "\x00\x00\x00\x80", 4);
	pat_bad("", "empty pattern");
	pat_bad("0x", "no hex digits");
	pat_bad("\"abc", "unterminated");
	pat_bad("\"\"", "empty string");
	pat_bad("%o", "not supported");
	pat_bad("'file'", "not supported");
	pat_bad("0xff zz", "is not a pattern");
	pat_bad("4294967296", "int range");
	pat_bad("2147483648", "int range");
	pat_bad("-2147483649", "int range");
	pat_bad("-", "without a number");
	memset(big + 2, 'a', 1026);
	pat_bad(big, "longer than 512 bytes");
}

/* A job built from text through the job-file path, and its first clone's plan. */
struct fixture {
	char path[64];
	struct ini_doc doc;
	struct job *jobs;
	unsigned njobs;
	struct target_plan plan;
	struct iowl_err err;
};

static int build(struct fixture *fx, const char *opts)
{
	struct jobfile_input in = { .doc = &fx->doc };
	char text[1024];
	int fd;

	memset(fx, 0, sizeof(*fx));
	snprintf(fx->path, sizeof(fx->path), "/tmp/iowl-test-verify.XXXXXX");
	fd = mkstemp(fx->path);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 1 << 20), 0);
	close(fd);
	snprintf(text, sizeof(text), "[j]\nfilename=%s\nsize=64k\nbs=4k\n%s\n", fx->path, opts);
	ini_doc_init(&fx->doc);
	assert_int_equal(ini_parse_buffer(&fx->doc, "t.ini", text, strlen(text), &fx->err), 0);
	if (jobfile_build(&in, &fx->jobs, &fx->njobs, &fx->err) ||
	    target_plan(&fx->jobs[0], 0, &fx->plan, &fx->err))
		return -1;
	/* what preflight_clone() checks before the first IO */
	if (verify_check_job(&fx->jobs[0], &fx->err) ||
	    verify_check_plan(&fx->jobs[0], &fx->plan, &fx->err))
		return -1;
	return 0;
}

/* The verification of the fixture's first clone, as a worker sets it up. */
static struct verify *new_state(struct fixture *fx, unsigned depth, uint64_t buf_size,
				uint64_t seed, struct iowl_err *err)
{
	struct verify_params p;

	verify_params_of(&fx->jobs[0], 0, &p);
	return verify_new(&p, fx->plan.files, fx->plan.nfiles, depth, buf_size, seed, err);
}

static void release(struct fixture *fx)
{
	target_plan_release(&fx->plan);
	jobfile_free(fx->jobs, fx->njobs);
	ini_doc_release(&fx->doc);
	unlink(fx->path);
}

static void job_bad(const char *opts, const char *msg)
{
	struct fixture fx;

	if (!build(&fx, opts))
		fail_msg("'%s' was accepted", opts);
	if (!strstr(fx.err.text, msg))
		fail_msg("'%s': '%s' does not say '%s'", opts, fx.err.text, msg);
	release(&fx);
}

/* What cannot be verified is refused before any IO, at the line at fault. */
static void test_job_checks(void **state)
{
	struct fixture fx;

	job_bad("rw=write\nverify=pattern", "needs verify_pattern=");
	job_bad("rw=write\nverify=sha384", "not a valid value");
	job_bad("rw=randtrim\nverify=crc32c", "trimmed");
	job_bad("rw=write\nioengine=null\nverify=crc32c", "moves no data");
	job_bad("rw=write\nverify=crc32c\nzero_buffers=1", "contradicts");
	job_bad("rw=write\nverify=crc32c\nverify_interval=8k", "bs=4096 is not a multiple of verify_interval=8192");
	job_bad("rw=write\nbs=16\nverify=crc32c", "44-byte header");
	job_bad("rw=write:1000\nverify=crc32c", "skip of rw=");
	job_bad("rw=write\nverify=crc32c\nnumjobs=2", "offset_increment");
	assert_int_equal(build(&fx, "rw=randrw\nbssplit=8k/50:16k/50\nverify=crc32c-intel"), 0);
	assert_int_equal(fx.jobs[0].o.verify, VERIFY_CRC32C);
	assert_int_equal(fx.jobs[0].o.verify_interval, 8192);
	assert_true(fx.jobs[0].o.do_verify);
	release(&fx);
	assert_int_equal(build(&fx, "rw=write\nverify_pattern=\"ab\"0x00"), 0);
	assert_int_equal(fx.jobs[0].o.verify, VERIFY_PATTERN);	/* as fio */
	assert_int_equal(fx.jobs[0].o.verify_pattern_len, 3);
	release(&fx);
}

static void io_set(struct io_u *io, uint16_t index, uint8_t op, uint64_t off, uint32_t len,
		   void *buf)
{
	*io = (struct io_u){ .index = index, .op = op, .offset = off, .len = len, .buf = buf,
			     .file = 0 };
}

/* Overlapping IOs wait for each other; reads are checked against the last write of each unit. */
static void test_state_overlap(void **state)
{
	unsigned char *wb = calloc(1, 2 * IV), *rb = calloc(1, 2 * IV);
	struct io_u w, w2, r;
	struct fixture fx;
	struct verify *v;

	assert_int_equal(build(&fx, "rw=randrw\nverify=crc32c\nverify_interval=4k"), 0);
	v = new_state(&fx, 4, 2 * IV, 1, &fx.err);
	assert_non_null(v);
	io_set(&w, 0, DDIR_WRITE, 0, 2 * IV, wb);
	io_set(&r, 1, DDIR_READ, IV, IV, rb);
	verify_fill(v, &w);
	assert_true(verify_claim(v, &w));
	assert_false(verify_claim(v, &r));	/* unit 1 is being written */
	io_set(&w2, 2, DDIR_WRITE, 2 * IV, IV, wb);
	assert_true(verify_claim(v, &w2));	/* unit 2 is free */
	assert_int_equal(verify_complete(v, &w2, false), 0);
	assert_int_equal(verify_complete(v, &w, true), 0);
	assert_true(verify_claim(v, &r));
	memcpy(rb, wb + IV, IV);
	assert_int_equal(verify_complete(v, &r, true), 0);
	/* The same unit written again: the old contents are now stale. */
	io_set(&w, 0, DDIR_WRITE, IV, IV, wb + IV);
	verify_fill(v, &w);
	assert_true(verify_claim(v, &w));
	assert_int_equal(verify_complete(v, &w, true), 0);
	assert_true(verify_claim(v, &r));
	assert_int_equal(verify_complete(v, &r, true), 1);
	assert_int_equal(verify_failure_at(v, 0)->kind, VERIFY_STALE);
	assert_int_equal(verify_failure_at(v, 0)->offset, IV);
	/* A unit whose write failed (2), or never written (3), is not checked. */
	io_set(&r, 1, DDIR_READ, 2 * IV, 2 * IV, rb);
	assert_true(verify_claim(v, &r));
	assert_int_equal(verify_complete(v, &r, true), 0);
	verify_free(v);
	release(&fx);
	free(wb);
	free(rb);
}

/*
 * After the writes: one read per write, in offset order, of its units (as fio reads back each
 * write as it was made); of a write that a later one overlapped, the units left of it.
 */
static void test_readback(void **state)
{
	unsigned char *b = calloc(1, 16 * IV);
	struct fixture fx;
	struct verify *v;
	struct io_u io;
	/* unit, units: 5-7 overwritten at 6 afterwards */
	static const uint64_t writes[][2] = { { 0, 2 }, { 2, 1 }, { 5, 3 }, { 15, 1 }, { 6, 1 } };

	assert_int_equal(build(&fx, "rw=randwrite\nverify=crc32c"), 0);
	v = new_state(&fx, 1, 3 * IV, 1, &fx.err);
	assert_non_null(v);
	for (unsigned i = 0; i < sizeof(writes) / sizeof(writes[0]); i++) {
		io_set(&io, 0, DDIR_WRITE, writes[i][0] * IV, (uint32_t)writes[i][1] * IV,
		       b + writes[i][0] * IV);
		verify_fill(v, &io);
		assert_true(verify_claim(v, &io));
		verify_complete(v, &io, true);
	}
	assert_true(verify_finish_writes(v));
	{
		static const uint64_t want[][2] = { { 0, 2 }, { 2, 1 }, { 5, 1 },
						    { 6, 1 }, { 7, 1 }, { 15, 1 } };

		for (unsigned i = 0; i < 6; i++) {
			assert_true(verify_pending(v));
			io.index = 0;
			verify_next(v, &io);
			assert_int_equal(io.op, DDIR_READ);
			assert_int_equal(io.offset, want[i][0] * IV);
			assert_int_equal(io.len, want[i][1] * IV);
			io.buf = b + io.offset;
			assert_true(verify_claim(v, &io));
			assert_int_equal(verify_complete(v, &io, true), 0);
		}
	}
	assert_false(verify_pending(v));
	verify_free(v);
	release(&fx);
	free(b);
}

/* verify_backlog=N: after N completed writes, those writes are read back before new IO. */
static void test_backlog(void **state)
{
	unsigned char *b = calloc(1, 16 * IV);
	struct verify_totals t;
	struct fixture fx;
	struct verify *v;
	struct io_u io;

	assert_int_equal(build(&fx, "rw=write\nverify=crc32c\nverify_backlog=3"), 0);
	v = new_state(&fx, 2, IV, 1, &fx.err);
	assert_non_null(v);
	for (unsigned i = 0; i < 4; i++) {
		assert_false(verify_pending(v));
		io_set(&io, 0, DDIR_WRITE, i * IV, IV, b + i * IV);
		verify_fill(v, &io);
		verify_claim(v, &io);
		verify_complete(v, &io, true);
		if (i == 2)
			break;
	}
	for (unsigned i = 0; i < 3; i++) {
		assert_true(verify_pending(v));
		verify_next(v, &io);
		assert_int_equal(io.offset, i * IV);
		io.buf = b + io.offset;
		verify_claim(v, &io);
		assert_int_equal(verify_complete(v, &io, true), 0);
	}
	assert_false(verify_pending(v));
	/* One more write: below the backlog, read back when the writes end. */
	io_set(&io, 0, DDIR_WRITE, 3 * IV, IV, b + 3 * IV);
	verify_fill(v, &io);
	verify_claim(v, &io);
	verify_complete(v, &io, true);
	assert_false(verify_pending(v));
	assert_true(verify_finish_writes(v));
	verify_next(v, &io);
	io.buf = b + io.offset;
	verify_claim(v, &io);
	assert_int_equal(verify_complete(v, &io, true), 0);
	assert_false(verify_pending(v));
	memset(&t, 0, sizeof(t));
	verify_publish(v, &t);
	assert_int_equal(t.units, 4);
	assert_int_equal(t.backlog_units, 3);
	assert_int_equal(t.readback_units, 1);
	assert_false(t.has_failure);
	verify_free(v);
	release(&fx);
	free(b);
}

/*
 * trim_percentage=100, trim_backlog=2: after every two writes both are trimmed; a trimmed unit
 * must read back as zeros (trim_verify_zero), else it fails as not zeroed, at its first byte.
 */
static void test_trim(void **state)
{
	unsigned char *b = calloc(1, 4 * IV);
	struct verify_totals t;
	struct fixture fx;
	struct verify *v;
	struct io_u io;

	assert_int_equal(build(&fx, "rw=write\nverify=crc32c\ntrim_percentage=100\ntrim_backlog=2"),
			 0);
	v = new_state(&fx, 1, IV, 1, &fx.err);
	assert_non_null(v);
	for (unsigned i = 0; i < 2; i++) {
		assert_false(verify_pending(v));
		io_set(&io, 0, DDIR_WRITE, i * IV, IV, b + i * IV);
		verify_fill(v, &io);
		assert_true(verify_claim(v, &io));
		verify_complete(v, &io, true);
	}
	for (unsigned i = 0; i < 2; i++) {
		assert_true(verify_pending(v));
		verify_next(v, &io);
		assert_int_equal(io.op, DDIR_TRIM);
		assert_int_equal(io.offset, i * IV);
		assert_true(verify_claim(v, &io));
		assert_int_equal(verify_complete(v, &io, true), 0);
	}
	assert_false(verify_pending(v));
	assert_true(verify_finish_writes(v)); /* the read-back of both trimmed units */
	memset(b, 0, 2 * IV);
	b[IV + 100] = 0x5a; /* the second was not zeroed */
	for (unsigned i = 0; i < 2; i++) { /* one unit a read (a buffer of IV) */
		assert_true(verify_pending(v));
		verify_next(v, &io);
		assert_int_equal(io.op, DDIR_READ);
		assert_int_equal(io.offset, i * IV);
		io.buf = b + io.offset;
		assert_true(verify_claim(v, &io));
		assert_int_equal(verify_complete(v, &io, true), i);
	}
	assert_false(verify_pending(v));
	memset(&t, 0, sizeof(t));
	verify_publish(v, &t);
	assert_int_equal(t.units, 2);
	assert_int_equal(t.errors, 1);
	assert_int_equal(t.first.kind, VERIFY_NOT_ZERO);
	assert_int_equal(t.first.offset, IV);
	assert_int_equal(t.first.byte, 100);
	assert_int_equal(t.first.byte_got, 0x5a);
	verify_free(v);
	release(&fx);
	free(b);
}

/* verify_fatal: the first failed unit stops all checking. */
static void test_fatal(void **state)
{
	unsigned char *b = calloc(1, 4 * IV);
	struct verify_totals t;
	struct fixture fx;
	struct verify *v;
	struct io_u io;

	assert_int_equal(build(&fx, "rw=read\nverify=crc32c\nverify_fatal=1"), 0);
	v = new_state(&fx, 1, 4 * IV, 1, &fx.err);
	assert_non_null(v);
	io_set(&io, 0, DDIR_READ, 0, 4 * IV, b);	/* zeros: no unit has a header */
	assert_true(verify_claim(v, &io));
	assert_int_equal(verify_complete(v, &io, true), 1);
	assert_int_equal(verify_complete(v, &io, true), 0);
	assert_false(verify_finish_writes(v));
	memset(&t, 0, sizeof(t));
	verify_publish(v, &t);
	assert_int_equal(t.errors, 1);
	assert_true(t.has_failure);
	assert_int_equal(t.first.kind, VERIFY_NO_HEADER);
	assert_string_equal(t.path, fx.path);
	verify_free(v);
	release(&fx);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crc_vectors),
		cmocka_unit_test(test_crc_hw_matches_sw),
		cmocka_unit_test(test_method_vectors),
		cmocka_unit_test(test_methods_detect),
		cmocka_unit_test(test_hdr_roundtrip),
		cmocka_unit_test(test_fill_check),
		cmocka_unit_test(test_corrupt_payload),
		cmocka_unit_test(test_misplaced),
		cmocka_unit_test(test_stale),
		cmocka_unit_test(test_header_bitflip),
		cmocka_unit_test(test_no_header),
		cmocka_unit_test(test_pattern_mode),
		cmocka_unit_test(test_pattern_parse),
		cmocka_unit_test(test_job_checks),
		cmocka_unit_test(test_state_overlap),
		cmocka_unit_test(test_readback),
		cmocka_unit_test(test_backlog),
		cmocka_unit_test(test_fatal),
		cmocka_unit_test(test_trim),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
