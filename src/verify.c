// SPDX-License-Identifier: MIT
/* Data verification: unit headers and payloads, CRC-32C, checks and their explanations, and each worker's record of the last write to every unit. */
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define VERIFY_HAVE_SSE42 1
#endif

#include "iowl/pattern/rng.h"
#include "iowl/value.h"
#include "iowl/verify.h"

#define VERIFY_BUSY	0x80000000U	/* state: an IO in flight covers the unit */

/* CRC-32C (Castagnoli, reflected polynomial 0x82f63b78), one byte at a time. */
static const uint32_t crc32c_table[256] = {
	0x00000000, 0xf26b8303, 0xe13b70f7, 0x1350f3f4, 0xc79a971f, 0x35f1141c,
	0x26a1e7e8, 0xd4ca64eb, 0x8ad958cf, 0x78b2dbcc, 0x6be22838, 0x9989ab3b,
	0x4d43cfd0, 0xbf284cd3, 0xac78bf27, 0x5e133c24, 0x105ec76f, 0xe235446c,
	0xf165b798, 0x030e349b, 0xd7c45070, 0x25afd373, 0x36ff2087, 0xc494a384,
	0x9a879fa0, 0x68ec1ca3, 0x7bbcef57, 0x89d76c54, 0x5d1d08bf, 0xaf768bbc,
	0xbc267848, 0x4e4dfb4b, 0x20bd8ede, 0xd2d60ddd, 0xc186fe29, 0x33ed7d2a,
	0xe72719c1, 0x154c9ac2, 0x061c6936, 0xf477ea35, 0xaa64d611, 0x580f5512,
	0x4b5fa6e6, 0xb93425e5, 0x6dfe410e, 0x9f95c20d, 0x8cc531f9, 0x7eaeb2fa,
	0x30e349b1, 0xc288cab2, 0xd1d83946, 0x23b3ba45, 0xf779deae, 0x05125dad,
	0x1642ae59, 0xe4292d5a, 0xba3a117e, 0x4851927d, 0x5b016189, 0xa96ae28a,
	0x7da08661, 0x8fcb0562, 0x9c9bf696, 0x6ef07595, 0x417b1dbc, 0xb3109ebf,
	0xa0406d4b, 0x522bee48, 0x86e18aa3, 0x748a09a0, 0x67dafa54, 0x95b17957,
	0xcba24573, 0x39c9c670, 0x2a993584, 0xd8f2b687, 0x0c38d26c, 0xfe53516f,
	0xed03a29b, 0x1f682198, 0x5125dad3, 0xa34e59d0, 0xb01eaa24, 0x42752927,
	0x96bf4dcc, 0x64d4cecf, 0x77843d3b, 0x85efbe38, 0xdbfc821c, 0x2997011f,
	0x3ac7f2eb, 0xc8ac71e8, 0x1c661503, 0xee0d9600, 0xfd5d65f4, 0x0f36e6f7,
	0x61c69362, 0x93ad1061, 0x80fde395, 0x72966096, 0xa65c047d, 0x5437877e,
	0x4767748a, 0xb50cf789, 0xeb1fcbad, 0x197448ae, 0x0a24bb5a, 0xf84f3859,
	0x2c855cb2, 0xdeeedfb1, 0xcdbe2c45, 0x3fd5af46, 0x7198540d, 0x83f3d70e,
	0x90a324fa, 0x62c8a7f9, 0xb602c312, 0x44694011, 0x5739b3e5, 0xa55230e6,
	0xfb410cc2, 0x092a8fc1, 0x1a7a7c35, 0xe811ff36, 0x3cdb9bdd, 0xceb018de,
	0xdde0eb2a, 0x2f8b6829, 0x82f63b78, 0x709db87b, 0x63cd4b8f, 0x91a6c88c,
	0x456cac67, 0xb7072f64, 0xa457dc90, 0x563c5f93, 0x082f63b7, 0xfa44e0b4,
	0xe9141340, 0x1b7f9043, 0xcfb5f4a8, 0x3dde77ab, 0x2e8e845f, 0xdce5075c,
	0x92a8fc17, 0x60c37f14, 0x73938ce0, 0x81f80fe3, 0x55326b08, 0xa759e80b,
	0xb4091bff, 0x466298fc, 0x1871a4d8, 0xea1a27db, 0xf94ad42f, 0x0b21572c,
	0xdfeb33c7, 0x2d80b0c4, 0x3ed04330, 0xccbbc033, 0xa24bb5a6, 0x502036a5,
	0x4370c551, 0xb11b4652, 0x65d122b9, 0x97baa1ba, 0x84ea524e, 0x7681d14d,
	0x2892ed69, 0xdaf96e6a, 0xc9a99d9e, 0x3bc21e9d, 0xef087a76, 0x1d63f975,
	0x0e330a81, 0xfc588982, 0xb21572c9, 0x407ef1ca, 0x532e023e, 0xa145813d,
	0x758fe5d6, 0x87e466d5, 0x94b49521, 0x66df1622, 0x38cc2a06, 0xcaa7a905,
	0xd9f75af1, 0x2b9cd9f2, 0xff56bd19, 0x0d3d3e1a, 0x1e6dcdee, 0xec064eed,
	0xc38d26c4, 0x31e6a5c7, 0x22b65633, 0xd0ddd530, 0x0417b1db, 0xf67c32d8,
	0xe52cc12c, 0x1747422f, 0x49547e0b, 0xbb3ffd08, 0xa86f0efc, 0x5a048dff,
	0x8ecee914, 0x7ca56a17, 0x6ff599e3, 0x9d9e1ae0, 0xd3d3e1ab, 0x21b862a8,
	0x32e8915c, 0xc083125f, 0x144976b4, 0xe622f5b7, 0xf5720643, 0x07198540,
	0x590ab964, 0xab613a67, 0xb831c993, 0x4a5a4a90, 0x9e902e7b, 0x6cfbad78,
	0x7fab5e8c, 0x8dc0dd8f, 0xe330a81a, 0x115b2b19, 0x020bd8ed, 0xf0605bee,
	0x24aa3f05, 0xd6c1bc06, 0xc5914ff2, 0x37faccf1, 0x69e9f0d5, 0x9b8273d6,
	0x88d28022, 0x7ab90321, 0xae7367ca, 0x5c18e4c9, 0x4f48173d, 0xbd23943e,
	0xf36e6f75, 0x0105ec76, 0x12551f82, 0xe03e9c81, 0x34f4f86a, 0xc69f7b69,
	0xd5cf889d, 0x27a40b9e, 0x79b737ba, 0x8bdcb4b9, 0x988c474d, 0x6ae7c44e,
	0xbe2da0a5, 0x4c4623a6, 0x5f16d052, 0xad7d5351,
};

uint32_t verify_crc32c_sw(uint32_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	crc = ~crc;
	while (len--)
		crc = crc32c_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

#ifdef VERIFY_HAVE_SSE42
__attribute__((target("sse4.2")))
uint32_t verify_crc32c_hw(uint32_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint64_t c = ~crc;

	for (; len && ((uintptr_t)p & 7); len--)
		c = __builtin_ia32_crc32qi((uint32_t)c, *p++);
	for (; len >= 8; len -= 8, p += 8) {
		uint64_t w;

		memcpy(&w, p, sizeof(w));
		c = __builtin_ia32_crc32di(c, w);
	}
	while (len--)
		c = __builtin_ia32_crc32qi((uint32_t)c, *p++);
	return ~(uint32_t)c;
}

bool verify_crc32c_hw_ok(void)
{
	unsigned a, b, c, d;

	return __get_cpuid(1, &a, &b, &c, &d) && (c & bit_SSE4_2);
}
#else
uint32_t verify_crc32c_hw(uint32_t crc, const void *buf, size_t len)
{
	return verify_crc32c_sw(crc, buf, len);
}

bool verify_crc32c_hw_ok(void)
{
	return false;
}
#endif

static uint32_t get_le32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return le32toh(v);
}

static uint64_t get_le64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return le64toh(v);
}

static void put_le32(unsigned char *p, uint32_t v)
{
	v = htole32(v);
	memcpy(p, &v, sizeof(v));
}

static void put_le64(unsigned char *p, uint64_t v)
{
	v = htole64(v);
	memcpy(p, &v, sizeof(v));
}

/* fio's crc32c of a header: from ~0, not inverted at the end. */
static uint32_t hdr_crc(const struct verify_cfg *cfg, const unsigned char *p)
{
	return ~cfg->crc(0, p, VERIFY_HDR_CRC_OFF);
}

void verify_hdr_encode(const struct verify_cfg *cfg, struct verify_hdr *h, void *buf)
{
	unsigned char *p = buf;
	uint16_t v16[2] = { htole16(h->magic), htole16(h->type) };
	uint16_t thread = htole16((uint16_t)(h->job + 1)), nio = htole16(h->numberio);

	memcpy(p, v16, sizeof(v16));
	put_le32(p + 4, h->len);
	put_le64(p + 8, h->seed);
	put_le64(p + 16, h->offset);
	put_le32(p + 24, h->seq);
	put_le32(p + 28, h->clone);
	memcpy(p + 32, &thread, 2);
	memcpy(p + 34, &nio, 2);
	h->hdr_crc = hdr_crc(cfg, p);
	put_le32(p + VERIFY_HDR_CRC_OFF, h->hdr_crc);
}

/* The first 8 bytes of an area (fewer zero-extended), little-endian. */
static uint64_t area_sum(const unsigned char *a, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = n < 8 ? n : 8; i--;)
		v = v << 8 | a[i];
	return v;
}

void verify_hdr_decode(const void *buf, struct verify_hdr *h)
{
	const unsigned char *p = buf;
	uint16_t v16[4];

	memcpy(v16, p, 4);
	memcpy(v16 + 2, p + 32, 4);
	h->magic = le16toh(v16[0]);
	h->type = le16toh(v16[1]);
	h->len = get_le32(p + 4);
	h->seed = get_le64(p + 8);
	h->offset = get_le64(p + 16);
	h->seq = get_le32(p + 24);
	h->clone = get_le32(p + 28);
	h->job = (uint32_t)le16toh(v16[2]) - 1;
	h->numberio = le16toh(v16[3]);
	h->hdr_crc = get_le32(p + VERIFY_HDR_CRC_OFF);
	h->sum = 0;	/* the header alone: the area after it is the caller's (unit_sum) */
}

/* The header of a whole unit, with its checksum area's first bytes. */
static void unit_decode(const struct verify_cfg *cfg, const unsigned char *p, struct verify_hdr *h)
{
	verify_hdr_decode(p, h);
	h->sum = area_sum(p + VERIFY_HDR_LEN, cfg->method->area);
}

int verify_cfg_init(struct verify_cfg *cfg, unsigned mode, uint32_t interval,
		    const unsigned char *pattern, unsigned plen, bool hw)
{
	memset(cfg, 0, sizeof(*cfg));
	verify_sum_init();
	cfg->mode = mode;
	cfg->interval = interval;
	cfg->method = verify_method_of(mode);
	cfg->hdr_len = verify_mode_hdr_len(mode);
	cfg->crc = hw && verify_crc32c_hw_ok() ? verify_crc32c_hw : verify_crc32c_sw;
	/* With a checksum a pattern is the payload, checked by its checksum (fio's meaning). */
	if (mode != VERIFY_PATTERN && !plen)
		return 0;
	cfg->pattern = malloc(interval);
	if (!cfg->pattern)
		return -ENOMEM;
	for (uint32_t i = 0; i < interval; i++)
		cfg->pattern[i] = plen ? pattern[i % plen] : 0;
	return 0;
}

void verify_cfg_release(struct verify_cfg *cfg)
{
	free(cfg->pattern);
	cfg->pattern = NULL;
}

/* The pseudo-random payload of a seed: xorshift64 words, little-endian, so any CPU rebuilds it. */
static void payload_fill(unsigned char *p, size_t n, uint64_t seed)
{
	uint64_t x = rng_mix64(seed) | 1;
	size_t i;

	for (i = 0; i + 8 <= n; i += 8) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		put_le64(p + i, x);
	}
	if (i < n) {
		unsigned char tail[8];

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		put_le64(tail, x);
		memcpy(p + i, tail, n - i);
	}
}

void verify_unit_fill(const struct verify_cfg *cfg, void *unit, uint64_t offset, uint32_t seq,
		      uint64_t seed)
{
	unsigned char *p = unit;
	uint32_t hl = cfg->hdr_len;
	size_t n = cfg->interval - hl;
	struct verify_hdr h = {
		.magic = VERIFY_MAGIC,
		.type = (uint16_t)cfg->method->fio_type,
		.len = cfg->interval,
		.seq = seq,
		.offset = offset,
		.seed = seed,
		.job = cfg->job,
		.clone = cfg->clone,
		.numberio = (uint16_t)seq,
	};

	if (cfg->pattern)
		memcpy(p + hl, cfg->pattern + hl, n);
	else
		payload_fill(p + hl, n, seed);
	if (!hl)
		return;		/* pattern, null: no header */
	if (cfg->method->sum)
		cfg->method->sum(cfg, p + hl, n, p + VERIFY_HDR_LEN);
	verify_hdr_encode(cfg, &h, p);
}

/* True when seq got is older than want, in 31-bit serial number arithmetic. */
static bool seq_older(uint32_t got, uint32_t want)
{
	uint32_t d = (want - got) & VERIFY_SEQ_MASK;

	return d && d <= VERIFY_SEQ_MASK / 2;
}

/*
 * A sha512 unit as fio 3.33 writes it: its area holds the SHA-512 input buffer at the end, the
 * data's last n % 128 bytes over the data's first 128, and fio checks no more than that.
 */
static bool fio_sha512_ok(const struct verify_cfg *cfg, const unsigned char *p)
{
	const unsigned char *d = p + cfg->hdr_len, *a = p + VERIFY_HDR_LEN;
	size_t n = cfg->interval - cfg->hdr_len, r = n % 128;

	return n >= 128 && !memcmp(a, d + n - r, r) && !memcmp(a + r, d + r, 128 - r);
}

/* The checksum area of the payload of unit p, into area (VERIFY_AREA_MAX bytes). */
static void payload_sum(const struct verify_cfg *cfg, const unsigned char *p, unsigned char *area)
{
	cfg->method->sum(cfg, p + cfg->hdr_len, cfg->interval - cfg->hdr_len, area);
}

static bool payload_ok(const struct verify_cfg *cfg, const unsigned char *p)
{
	unsigned char area[VERIFY_AREA_MAX];

	if (cfg->mode == VERIFY_PATTERN)
		return !memcmp(p, cfg->pattern, cfg->interval);
	if (!cfg->method->sum)
		return true;	/* meta: the header only */
	payload_sum(cfg, p, area);
	if (!memcmp(area, p + VERIFY_HDR_LEN, cfg->method->area))
		return true;
	return cfg->mode == VERIFY_SHA512 && fio_sha512_ok(cfg, p);
}

enum verify_kind verify_unit_check(const struct verify_cfg *cfg, const void *unit,
				   uint64_t offset, uint32_t want_seq, uint64_t want_seed)
{
	const unsigned char *p = unit;
	struct verify_hdr h;

	if (cfg->mode == VERIFY_NULL)
		return VERIFY_OK;
	if (!cfg->hdr_len)
		return payload_ok(cfg, p) ? VERIFY_OK : VERIFY_CORRUPT;
	verify_hdr_decode(p, &h);
	if (h.magic != VERIFY_MAGIC)
		return VERIFY_NO_HEADER;
	if (hdr_crc(cfg, p) != h.hdr_crc)
		return VERIFY_HEADER_CRC;
	if (h.type != cfg->method->fio_type)
		return VERIFY_NO_HEADER;	/* another method wrote it */
	if (h.offset != offset || h.len != cfg->interval)
		return VERIFY_MISPLACED;
	if (want_seq && h.seq != want_seq)
		return seq_older(h.seq, want_seq) ? VERIFY_STALE : VERIFY_NEWER;
	/* The same seq from another run (another randseed) or another job or clone. */
	if (want_seq && (h.seed != want_seed || h.job != cfg->job || h.clone != cfg->clone))
		return VERIFY_STALE;
	return payload_ok(cfg, p) ? VERIFY_OK : VERIFY_CORRUPT;
}

/*
 * Finds the one byte whose change makes a damaged header agree with its checksum (a CRC tells
 * apart every single-byte change of a header this short).  Returns true with the repaired
 * header in h when exactly one change does.
 */
static bool repair_header(const struct verify_cfg *cfg, const unsigned char *p,
			  struct verify_hdr *h)
{
	unsigned char b[VERIFY_HDR_LEN];
	unsigned found = 0;

	memcpy(b, p, sizeof(b));
	for (unsigned pos = 0; pos < VERIFY_HDR_LEN && found < 2; pos++) {
		unsigned char orig = b[pos];

		for (unsigned x = 1; x < 256 && found < 2; x++) {
			b[pos] = (unsigned char)(orig ^ x);
			if (hdr_crc(cfg, b) != get_le32(b + VERIFY_HDR_CRC_OFF))
				continue;
			if (!found++)
				verify_hdr_decode(b, h);
		}
		b[pos] = orig;
	}
	return found == 1;
}

/*
 * The unit as it should be, inferred from itself (no record of the write): the header's known
 * fields (format, length, offset), the rest of a header repaired through its checksum, and
 * the payload the header describes (kept when it matches its own checksum).
 */
static void infer_expected(const struct verify_cfg *cfg, const unsigned char *p, uint64_t offset,
			   const struct verify_failure *f, unsigned char *out)
{
	uint32_t hl = cfg->hdr_len;
	size_t n = cfg->interval - hl;
	struct verify_hdr h = f->got;

	if (!hl) {
		memcpy(out, cfg->pattern, cfg->interval);
		return;
	}
	if (f->kind == VERIFY_HEADER_CRC)
		repair_header(cfg, p, &h);
	h.magic = VERIFY_MAGIC;
	h.type = (uint16_t)cfg->method->fio_type;
	h.len = cfg->interval;
	h.offset = offset;
	if (!cfg->method->sum || payload_ok(cfg, p))
		memcpy(out + VERIFY_HDR_LEN, p + VERIFY_HDR_LEN, cfg->interval - VERIFY_HDR_LEN);
	else if (cfg->pattern)
		memcpy(out + hl, cfg->pattern + hl, n);
	else
		payload_fill(out + hl, n, h.seed);
	if (cfg->method->sum)
		payload_sum(cfg, out, out + VERIFY_HDR_LEN);
	verify_hdr_encode(cfg, &h, out);
}

static void first_diff(const unsigned char *got, const unsigned char *want, size_t len,
		       struct verify_failure *f)
{
	f->byte = -1;
	for (size_t i = 0; i < len; i++) {
		if (got[i] == want[i])
			continue;
		f->byte = (int64_t)i;
		f->byte_want = want[i];
		f->byte_got = got[i];
		return;
	}
}

void verify_unit_explain(const struct verify_cfg *cfg, const void *unit, uint64_t offset,
			 uint32_t want_seq, uint64_t want_seed, void *scratch,
			 struct verify_failure *f)
{
	const unsigned char *p = unit;

	memset(f, 0, sizeof(*f));
	f->kind = (uint8_t)verify_unit_check(cfg, p, offset, want_seq, want_seed);
	f->offset = offset;
	f->len = cfg->interval;
	f->seq_known = want_seq != 0;
	if (cfg->hdr_len) {
		unsigned char area[VERIFY_AREA_MAX];

		unit_decode(cfg, p, &f->got);
		f->hdr_crc_calc = hdr_crc(cfg, p);
		if (cfg->method->sum) {
			payload_sum(cfg, p, area);
			f->sum_calc = area_sum(area, cfg->method->area);
		}
	}
	if (want_seq && cfg->hdr_len)
		verify_unit_fill(cfg, scratch, offset, want_seq, want_seed);
	else
		infer_expected(cfg, p, offset, f, scratch);
	if (cfg->hdr_len)
		unit_decode(cfg, scratch, &f->want);
	first_diff(p, scratch, cfg->interval, f);
}

const char *verify_kind_name(unsigned kind)
{
	static const char *const names[] = {
		[VERIFY_OK] = "intact", [VERIFY_NO_HEADER] = "no verify header",
		[VERIFY_HEADER_CRC] = "header checksum mismatch",
		[VERIFY_MISPLACED] = "misplaced block", [VERIFY_STALE] = "stale block",
		[VERIFY_NEWER] = "block from an unknown newer write",
		[VERIFY_CORRUPT] = "corrupt payload",
	};

	return kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "unknown failure";
}

const char *verify_kind_key(unsigned kind)
{
	static const char *const keys[] = {
		[VERIFY_OK] = "ok", [VERIFY_NO_HEADER] = "no_header",
		[VERIFY_HEADER_CRC] = "header_crc", [VERIFY_MISPLACED] = "misplaced",
		[VERIFY_STALE] = "stale", [VERIFY_NEWER] = "newer", [VERIFY_CORRUPT] = "corrupt",
	};

	return kind < sizeof(keys) / sizeof(keys[0]) ? keys[kind] : "unknown";
}

const char *verify_mode_name(unsigned mode)
{
	return verify_method_of(mode)->name;
}

const char *verify_type_name(unsigned fio_type)
{
	const struct verify_method *m = verify_method_by_type(fio_type);

	return m ? m->name : "?";
}

static bool is_hex_prefix(const char *p)
{
	return p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
}

/* Room for k more bytes, else a message. */
static bool pat_room(unsigned n, size_t k, unsigned max, char *why)
{
	if (n + k <= max)
		return true;
	snprintf(why, VAL_WHY_LEN, "the pattern is longer than %u bytes", max);
	return false;
}

/* A "quoted string": its bytes as they are (no escapes, as in fio). */
static const char *pat_string(const char *p, unsigned char *out, unsigned max, unsigned *n,
			      char *why)
{
	const char *end = strchr(p + 1, '"');

	if (!end || end == p + 1) {
		snprintf(why, VAL_WHY_LEN, "%s string in the pattern (e.g. \"abc\")",
			 end ? "an empty" : "an unterminated");
		return NULL;
	}
	if (!pat_room(*n, (size_t)(end - p - 1), max, why))
		return NULL;
	memcpy(out + *n, p + 1, (size_t)(end - p - 1));
	*n += (unsigned)(end - p - 1);
	return end + 1;
}

/*
 * 0x and hex digits, two per byte, an odd count with a leading zero; a "0x" right after the
 * digits starts the next number (0xff0x14 is ff 14, as in fio).
 */
static const char *pat_hex(const char *p, unsigned char *out, unsigned max, unsigned *n,
			   char *why)
{
	const char *d = p + 2, *end = d;
	size_t nd;

	while (val_hex_digit(*end) >= 0)
		end++;
	if ((*end == 'x' || *end == 'X') && end - d > 1 && end[-1] == '0')
		end--;
	nd = (size_t)(end - d);
	if (!nd) {
		snprintf(why, VAL_WHY_LEN, "'%.2s' has no hex digits after it (e.g. 0xdeadbeef)", p);
		return NULL;
	}
	if (!pat_room(*n, (nd + 1) / 2, max, why))
		return NULL;
	if (nd % 2)
		out[(*n)++] = (unsigned char)val_hex_digit(*d++);
	for (; d < end; d += 2)
		out[(*n)++] = (unsigned char)(val_hex_digit(d[0]) << 4 | val_hex_digit(d[1]));
	return end;
}

/* A decimal in the int range: its significant bytes, little-endian (-1024 is 00 fc ff ff). */
static const char *pat_decimal(const char *p, unsigned char *out, unsigned max, unsigned *n,
			       char *why)
{
	bool neg = *p == '-';
	const char *s = p + neg;
	int64_t v = 0;
	uint32_t u;

	if (*s < '0' || *s > '9') {
		snprintf(why, VAL_WHY_LEN, "'-' without a number in the pattern");
		return NULL;
	}
	/* Digits up to a "0x" that starts the next element (fio reads -100xab as -10, 0xab). */
	for (; *s >= '0' && *s <= '9' && !(s > p + neg && is_hex_prefix(s)); s++)
		v = v > INT32_MAX ? v : v * 10 + (*s - '0');
	if (v > (int64_t)INT32_MAX + neg) {
		snprintf(why, VAL_WHY_LEN, "a decimal in the pattern is outside the int range (use 0x hex bytes)");
		return NULL;
	}
	u = (uint32_t)(neg ? -v : v);
	do {
		if (!pat_room(*n, 1, max, why))
			return NULL;
		out[(*n)++] = (unsigned char)(u & 0xff);
		u >>= 8;
	} while (u);
	return s;
}

/*
 * One element of a pattern at p (s is the whole value, for messages).  Returns where the next
 * one starts, or NULL with why set.
 */
static const char *pat_element(const char *p, const char *s, unsigned char *out, unsigned max,
			       unsigned *n, char *why)
{
	if (*p == '"')
		return pat_string(p, out, max, n, why);
	if (is_hex_prefix(p))
		return pat_hex(p, out, max, n, why);
	if (*p == '-' || (*p >= '0' && *p <= '9'))
		return pat_decimal(p, out, max, n, why);
	if (*p == '%')
		snprintf(why, VAL_WHY_LEN, "'%%o' (the block offset) in a pattern is not supported");
	else if (*p == '\'')
		snprintf(why, VAL_WHY_LEN, "patterns read from a file ('name') are not supported");
	else
		snprintf(why, VAL_WHY_LEN,
			 "'%s' is not a pattern (use 0x hex bytes, a decimal or a \"string\", one after another, e.g. 0xdeadbeef)",
			 s);
	return NULL;
}

int verify_pattern_parse(const char *s, unsigned char *out, unsigned max, unsigned *len,
			 char *why)
{
	const char *p = s ? s : "";
	unsigned n = 0;

	if (!*p) {
		snprintf(why, VAL_WHY_LEN,
			 "an empty pattern (use 0x hex bytes, a decimal or a \"string\", e.g. 0xdeadbeef)");
		return -EINVAL;
	}
	while (p && *p)
		p = pat_element(p, s ? s : "", out, max, &n, why);
	if (!p)
		return -EINVAL;
	*len = n;
	return 0;
}

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
	bool do_verify, fatal, halted;
	/* verify_backlog: completed writes not read back yet, a ring */
	struct verify_extent *ring;
	unsigned ring_cap, ring_head, ring_n, backlog;
	unsigned batch,
		batch_left; /* verify_backlog_batch: reads per round, and left in this one */
	bool backlog_on, flushing;
	bool dump; /* verify_dump */
	bool only; /* verify_only: the units stand on their own, as in fio */
	/* the read-back after the writes */
	bool readback;
	uint64_t rb_unit;
	unsigned rb_file;
	/* results */
	uint64_t units, errors, by_src[3];
	unsigned nlog;
	struct verify_failure log[VERIFY_LOG_MAX];
};

static int verify_alloc(struct verify *v, const struct job *job, unsigned depth,
			struct iowl_err *err)
{
	const struct job_opts *o = &job->o;
	uint64_t units = v->base[v->nfiles];

	v->scratch = malloc(v->cfg.interval);
	v->io_seq = calloc(depth, sizeof(*v->io_seq));
	v->io_src = calloc(depth, sizeof(*v->io_src));
	if (!v->scratch || !v->io_seq || !v->io_src)
		return err_nomem(err, "job '%s': out of memory for verification", o->name);
	if (job_does_dir(job, IO_OP_WRITE) &&
	    !(v->state = calloc(units ? units : 1, sizeof(*v->state))))
		return err_nomem(err,
				 "job '%s': out of memory for the verify state of %" PRIu64
				 " units (%" PRIu64 " MiB: 4 bytes per verify_interval)",
				 o->name, units, (units * 4) >> 20);
	/* As fio: do_verify=0 turns every verification read off, the backlog's too. */
	if (o->verify_backlog && o->do_verify && job_does_dir(job, IO_OP_WRITE)) {
		v->backlog = o->verify_backlog;
		v->batch = o->verify_backlog_batch ? o->verify_backlog_batch : o->verify_backlog;
		v->ring_cap = o->verify_backlog + depth;
		v->ring = calloc(v->ring_cap, sizeof(*v->ring));
		if (!v->ring)
			return err_nomem(err, "job '%s': out of memory for verify_backlog=%u",
					 o->name, o->verify_backlog);
	}
	return 0;
}

int verify_check_plan(const struct job *job, const struct target_plan *plan,
		      struct iowl_err *err)
{
	const struct job_opts *o = &job->o;
	uint32_t iv = (uint32_t)o->verify_interval;

	if (o->verify && o->direct && plan->lbs > 1 && iv % plan->lbs)
		return job_opt_err(job, job_opt_is_set(job, "verify_interval") ? "verify_interval" : "bs",
				   err, "verify_interval=%" PRIu32 " is not a multiple of the %u-byte logical block size (direct=1 reads units back on their own)",
				   iv, plan->lbs);
	return 0;
}

struct verify *verify_new(const struct job *job, unsigned clone, const struct target_plan *plan,
			  unsigned depth, uint64_t buf_size, uint64_t seed, struct iowl_err *err)
{
	const struct job_opts *o = &job->o;
	uint32_t iv = (uint32_t)o->verify_interval;
	struct verify *v = calloc(1, sizeof(*v));

	if (!v || !(v->base = calloc(plan->nfiles + 1, sizeof(*v->base))) ||
	    verify_cfg_init(&v->cfg, o->verify, iv, o->verify_pattern, o->verify_pattern_len,
			    true)) {
		err_nomem(err, "job '%s': out of memory for verification", o->name);
		goto out_free;
	}
	if (verify_check_plan(job, plan, err))
		goto out_free;
	v->cfg.job = job->index;
	v->cfg.clone = clone;
	v->files = plan->files;
	v->nfiles = plan->nfiles;
	for (unsigned f = 0; f < plan->nfiles; f++)
		v->base[f + 1] = v->base[f] + plan->files[f].size / iv;
	v->seed = rng_mix64(seed);
	v->max_units = (uint32_t)(buf_size / iv);
	v->do_verify = o->do_verify;
	v->fatal = o->verify_fatal;
	v->dump = o->verify_dump;
	v->only = o->verify_only;
	v->cfg.swap = (uint32_t)o->verify_offset;
	if (verify_alloc(v, job, depth, err))
		goto out_free;
	return v;
out_free:
	verify_free(v);
	return NULL;
}

void verify_free(struct verify *v)
{
	if (!v)
		return;
	verify_cfg_release(&v->cfg);
	free(v->base);
	free(v->state);
	free(v->io_seq);
	free(v->io_src);
	free(v->scratch);
	free(v->ring);
	free(v);
}

/* The seed of a unit written at offset by write seq: reproducible within the run, not across randseeds. */
static uint64_t unit_seed(const struct verify *v, uint32_t seq, uint64_t offset)
{
	return rng_mix64(rng_mix64(v->seed + seq * 0x9e3779b97f4a7c15ULL) ^ offset);
}

/* The state of the units io covers (*n of them), or NULL when the job keeps none. */
static uint32_t *unit_state(const struct verify *v, const struct io_u *io, uint32_t *n)
{
	const struct target_file *f = &v->files[io->file];
	uint64_t idx;

	*n = io->len / v->cfg.interval;
	if (!v->state || io->op > IO_OP_WRITE || io->offset < f->start)
		return NULL;
	idx = v->base[io->file] + (io->offset - f->start) / v->cfg.interval;
	return idx + *n <= v->base[io->file + 1] ? v->state + idx : NULL;
}

/* verify_offset: the header and its checksum trade places with the bytes there (its own inverse). */
static void unit_swap(const struct verify_cfg *cfg, unsigned char *u)
{
	unsigned char t[VERIFY_HDR_LEN + VERIFY_AREA_MAX];

	memcpy(t, u, cfg->hdr_len);
	memcpy(u, u + cfg->swap, cfg->hdr_len);
	memcpy(u + cfg->swap, t, cfg->hdr_len);
}

void verify_fill(struct verify *v, struct io_u *io)
{
	unsigned char *p = io->buf;
	uint32_t iv = v->cfg.interval, n = io->len / iv;

	/* 0 means "never written" in the state; the counter skips it when it wraps. */
	v->seq = (v->seq + 1) & VERIFY_SEQ_MASK;
	if (!v->seq)
		v->seq = 1;
	v->io_seq[io->index] = v->seq;
	for (uint32_t k = 0; k < n; k++) {
		uint64_t off = io->offset + (uint64_t)k * iv;

		verify_unit_fill(&v->cfg, p + (size_t)k * iv, off, v->seq,
				 unit_seed(v, v->seq, off));
		if (v->cfg.swap)
			unit_swap(&v->cfg, p + (size_t)k * iv);
	}
}

bool verify_claim(struct verify *v, const struct io_u *io)
{
	uint32_t n, *s = unit_state(v, io, &n);

	if (!s)
		return true;
	for (uint32_t k = 0; k < n; k++)
		if (s[k] & VERIFY_BUSY)
			return false;
	for (uint32_t k = 0; k < n; k++)
		s[k] |= VERIFY_BUSY;
	return true;
}

static void backlog_add(struct verify *v, const struct io_u *io)
{
	struct verify_extent *e;

	if (v->ring_n == v->ring_cap)
		return;		/* cannot happen: at most depth writes complete while a batch drains */
	e = &v->ring[(v->ring_head + v->ring_n++) % v->ring_cap];
	*e = (struct verify_extent){ .offset = io->offset, .len = io->len, .file = io->file };
	if (v->ring_n >= v->backlog && !v->backlog_on) {
		v->backlog_on = true;
		v->batch_left = v->batch;
	}
}

static void log_failure(struct verify *v, const struct io_u *io, const unsigned char *unit,
			uint64_t offset, uint32_t want)
{
	struct verify_failure *f;

	if (v->nlog == VERIFY_LOG_MAX)
		return;
	f = &v->log[v->nlog++];
	verify_unit_explain(&v->cfg, unit, offset, want, unit_seed(v, want, offset), v->scratch, f);
	f->file = io->file;
}

/* Writes n bytes at p to NAME.OFFSET.what in the current directory, as fio's verify_dump; says where. */
static void dump_buf(const char *path, uint64_t offset, const char *what, const void *p, size_t n)
{
	const char *base = strrchr(path, '/');
	char name[PATH_MAX];
	FILE *f;

	snprintf(name, sizeof(name), "%s.%" PRIu64 ".%s", base ? base + 1 : path, offset, what);
	f = fopen(name, "w");
	if (!f || fwrite(p, 1, n, f) != n) {
		iowl_warn("verify_dump: cannot write '%s': %s", name, strerror(errno));
	} else {
		iowl_warn("verify_dump: %s data of offset %" PRIu64 " written to '%s'", what,
			  offset, name);
	}
	if (f)
		fclose(f);
}

/* verify_dump: the failed unit as read and as it should be (failure path only). */
static void dump_unit(struct verify *v, const struct io_u *io, const unsigned char *unit,
		      uint64_t offset, uint32_t want)
{
	struct verify_failure f;
	const char *path = v->files[io->file].path;

	verify_unit_explain(&v->cfg, unit, offset, want, unit_seed(v, want, offset), v->scratch,
			    &f);
	dump_buf(path, offset, "received", unit, v->cfg.interval);
	dump_buf(path, offset, "expected", v->scratch, v->cfg.interval);
}

/* Checks the units of a completed read against their last writes (s) or on their own (no s). */
static unsigned check_read(struct verify *v, const struct io_u *io, const uint32_t *s,
			   unsigned src)
{
	unsigned char *p = io->buf;
	uint32_t iv = v->cfg.interval, n = io->len / iv;
	unsigned bad = 0;

	if (v->cfg.mode == VERIFY_NULL)
		return 0;	/* fio's null: pretend, count nothing */
	for (uint32_t k = 0; k < n && !v->halted; k++) {
		uint32_t want = s ? s[k] & VERIFY_SEQ_MASK : 0;
		uint64_t off = io->offset + (uint64_t)k * iv;

		if (s && !want)
			continue;	/* not written by this job, or its write failed */
		if (v->only)
			want = 0;	/* written by an earlier run: checked on its own (fio's verify_only) */
		v->units++;
		v->by_src[src]++;
		if (v->cfg.swap)
			unit_swap(&v->cfg, p + (size_t)k * iv);
		if (verify_unit_check(&v->cfg, p + (size_t)k * iv, off, want,
				      unit_seed(v, want, off)) == VERIFY_OK)
			continue;
		bad++;
		v->errors++;
		log_failure(v, io, p + (size_t)k * iv, off, want);
		if (v->dump)
			dump_unit(v, io, p + (size_t)k * iv, off, want);
		v->halted = v->fatal;
	}
	return bad;
}

unsigned verify_complete(struct verify *v, const struct io_u *io, bool ok)
{
	uint32_t n, *s = unit_state(v, io, &n);
	unsigned src = v->io_src[io->index], bad = 0;

	v->io_src[io->index] = SRC_READ;
	if (io->op == IO_OP_WRITE) {
		/* A failed write leaves the units unknown: nothing is expected of them. */
		for (uint32_t k = 0; s && k < n; k++)
			s[k] = ok ? v->io_seq[io->index] : 0;
		if (ok && v->ring)
			backlog_add(v, io);
		return 0;
	}
	if (io->op == IO_OP_READ && ok && !v->halted)
		bad = check_read(v, io, s, src);
	for (uint32_t k = 0; s && k < n; k++)
		s[k] &= ~VERIFY_BUSY;
	return bad;
}

/* Moves the read-back cursor to the next unit with a known last write.  True if there is one. */
static bool readback_more(struct verify *v)
{
	uint64_t end = v->base[v->nfiles];

	while (v->rb_unit < end && !(v->state[v->rb_unit] & VERIFY_SEQ_MASK))
		v->rb_unit++;
	while (v->rb_file + 1 < v->nfiles && v->rb_unit >= v->base[v->rb_file + 1])
		v->rb_file++;
	return v->rb_unit < end;
}

bool verify_pending(struct verify *v)
{
	if (v->halted)
		return false;
	if (v->readback)
		return readback_more(v);
	return v->backlog_on && v->ring_n;
}

/* The next read of the read-back: a run of written units in one file, as much as a buffer holds. */
static void readback_next(struct verify *v, struct io_u *io)
{
	unsigned f = v->rb_file;
	uint64_t first = v->rb_unit, end = v->base[f + 1];
	uint32_t n = 1;

	while (n < v->max_units && first + n < end && (v->state[first + n] & VERIFY_SEQ_MASK))
		n++;
	io->file = f;
	io->offset = v->files[f].start + (first - v->base[f]) * v->cfg.interval;
	io->len = n * v->cfg.interval;
	v->rb_unit = first + n;
	v->io_src[io->index] = SRC_READBACK;
}

void verify_next(struct verify *v, struct io_u *io)
{
	io->op = IO_OP_READ;
	io->stream = 0;
	if (v->readback) {
		readback_next(v, io);
		return;
	}
	{
		const struct verify_extent *e = &v->ring[v->ring_head];

		io->file = e->file;
		io->offset = e->offset;
		io->len = e->len;
	}
	v->io_src[io->index] = v->flushing ? SRC_READBACK : SRC_BACKLOG;
	/*
	 * A round reads verify_backlog_batch writes, oldest first, and the rest wait for the next
	 * round or the end.  A batch larger than the writes waiting stops when they are read: fio's
	 * manual says some are read twice, fio 3.33 reads each once (256 reads for 256 writes with
	 * verify_backlog=64, verify_backlog_batch=100).
	 */
	v->batch_left--;
	v->ring_head = (v->ring_head + 1) % v->ring_cap;
	if (!--v->ring_n || !v->batch_left)
		v->backlog_on = false;
}

bool verify_finish_writes(struct verify *v)
{
	if (v->halted)
		return false;
	/* With a backlog the earlier batches were read: only the last, partial one is left. */
	if (!v->ring && v->state && v->do_verify) {
		v->readback = true;
		v->rb_unit = 0;
		v->rb_file = 0;
		return readback_more(v);
	}
	v->flushing = v->backlog_on = v->ring_n > 0;
	v->batch_left = v->ring_n;
	return v->flushing;
}

const struct verify_failure *verify_failure_at(const struct verify *v, unsigned i)
{
	return i < v->nlog ? &v->log[i] : NULL;
}

static void print_one(const struct verify *v, const char *name, const struct verify_failure *f)
{
	const struct verify_hdr *w = &f->want, *g = &f->got;
	char seq[16] = "?", seed[24] = "?", job[16] = "?", clone[16] = "?";
	char byte[96] = "no differing byte found";

	if (f->seq_known) {
		snprintf(seq, sizeof(seq), "%" PRIu32, w->seq);
		snprintf(seed, sizeof(seed), "0x%" PRIx64, w->seed);
		snprintf(job, sizeof(job), "%" PRIu32, w->job);
		snprintf(clone, sizeof(clone), "%" PRIu32, w->clone);
	}
	if (f->byte >= 0)
		snprintf(byte, sizeof(byte),
			 "first differing byte at +%" PRId64 " (offset %" PRIu64 "): expected 0x%02x, found 0x%02x",
			 f->byte, f->offset + (uint64_t)f->byte, f->byte_want, f->byte_got);
	iowl_warn("job '%s': verify failed on '%s' at offset=%" PRIu64 ", length=%" PRIu32 ": %s; %s",
		  name, v->files[f->file].path, f->offset, f->len, verify_kind_name(f->kind), byte);
	if (!v->cfg.hdr_len)
		return; /* pattern: no header to show */
	iowl_warn("job '%s':   header expected/found: magic 0x%04x/0x%04x, type %s/%s, length %" PRIu32
		  "/%" PRIu32 ", offset %" PRIu64 "/%" PRIu64 ", seq %s/%" PRIu32
		  ", seed %s/0x%" PRIx64 ", job %s/%" PRIu32 ", clone %s/%" PRIu32
		  ", checksum 0x%016" PRIx64 "/0x%016" PRIx64 " (computed 0x%016" PRIx64
		  "), header crc 0x%08" PRIx32 "/0x%08" PRIx32 " (computed 0x%08" PRIx32 ")",
		  name, w->magic, g->magic, verify_type_name(w->type), verify_type_name(g->type),
		  w->len, g->len, w->offset, g->offset, seq, g->seq, seed, g->seed, job, g->job,
		  clone, g->clone, w->sum, g->sum, f->sum_calc, w->hdr_crc, g->hdr_crc,
		  f->hdr_crc_calc);
}

void verify_print(const struct verify *v, const char *name)
{
	for (unsigned i = 0; i < v->nlog; i++)
		print_one(v, name, &v->log[i]);
	if (v->errors > v->nlog)
		iowl_warn("job '%s': verify: %" PRIu64 " more failed units not shown", name,
			  v->errors - v->nlog);
}

void verify_publish(const struct verify *v, struct verify_totals *t)
{
	unsigned none = VERIFY_NONE;

	if (__atomic_compare_exchange_n(&t->mode, &none, v->cfg.mode, false, __ATOMIC_ACQ_REL,
					__ATOMIC_ACQUIRE))
		t->interval = v->cfg.interval;
	__atomic_add_fetch(&t->units, v->units, __ATOMIC_RELAXED);
	__atomic_add_fetch(&t->errors, v->errors, __ATOMIC_RELAXED);
	__atomic_add_fetch(&t->read_units, v->by_src[SRC_READ], __ATOMIC_RELAXED);
	__atomic_add_fetch(&t->backlog_units, v->by_src[SRC_BACKLOG], __ATOMIC_RELAXED);
	__atomic_add_fetch(&t->readback_units, v->by_src[SRC_READBACK], __ATOMIC_RELAXED);
	if (!v->nlog || __atomic_exchange_n(&t->claimed, 1, __ATOMIC_ACQ_REL))
		return;
	t->first = v->log[0];
	snprintf(t->path, sizeof(t->path), "%s", v->files[v->log[0].file].path);
	t->has_failure = true;
}
