// SPDX-License-Identifier: MIT
/* The on-disk unit (fio 3.33's header layout): headers, payloads, the checks of a unit read back and the explanation of a failed one. */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "iowl/pattern/rng.h"
#include "verify/verify_int.h"

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

	rng_fill(p, n, &x);
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
		return true; /* meta: the header only */
	payload_sum(cfg, p, area);
	if (!memcmp(area, p + VERIFY_HDR_LEN, cfg->method->area))
		return true;
	return cfg->mode == VERIFY_SHA512 && fio_sha512_ok(cfg, p);
}

enum verify_kind verify_unit_check(const struct verify_cfg *cfg, const void *unit, uint64_t offset,
				   uint32_t want_seq, uint64_t want_seed)
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
		[VERIFY_OK] = "intact",
		[VERIFY_NO_HEADER] = "no verify header",
		[VERIFY_HEADER_CRC] = "header checksum mismatch",
		[VERIFY_MISPLACED] = "misplaced block",
		[VERIFY_STALE] = "stale block",
		[VERIFY_NEWER] = "block from an unknown newer write",
		[VERIFY_CORRUPT] = "corrupt payload",
		[VERIFY_NOT_ZERO] = "trimmed block not zeroed",
	};

	return kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "unknown failure";
}

const char *verify_kind_key(unsigned kind)
{
	static const char *const keys[] = {
		[VERIFY_OK] = "ok",
		[VERIFY_NO_HEADER] = "no_header",
		[VERIFY_HEADER_CRC] = "header_crc",
		[VERIFY_MISPLACED] = "misplaced",
		[VERIFY_STALE] = "stale",
		[VERIFY_NEWER] = "newer",
		[VERIFY_CORRUPT] = "corrupt",
		[VERIFY_NOT_ZERO] = "not_zero",
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
