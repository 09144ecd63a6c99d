// SPDX-License-Identifier: MIT
/*
 * The checksum area of each verify method, after the 40-byte header, byte for byte as fio 3.33
 * writes it (so that fio verifies what iowl wrote): the hashes from nettle and libxxhash, the
 * CRCs fio uses that no Debian library offers in fio's variants from small tables.
 */
#include <endian.h>
#include <pthread.h>
#include <string.h>

#include <nettle/md5.h>
#include <nettle/sha1.h>
#include <nettle/sha2.h>
#include <nettle/sha3.h>
#include <xxhash.h>

#include "iowl/verify.h"

static uint64_t crc64_tab[256];
static uint32_t crc32_tab[256];
static uint16_t crc16_tab[256];
static uint8_t crc7_tab[256];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

/*
 * fio's CRCs: crc64 is reflected with the Jones polynomial 0xad93d23594c935a9 (0x95ac9329ac4bc9b5
 * reflected), crc32 is MSB-first with 0x04c11db7, crc16 is CRC-16/ARC (0x8005 reflected), crc7
 * is MSB-first with 0x09 (kept shifted left by one in a byte); all start at 0, no final xor.
 */
static void tables_init(void)
{
	for (unsigned i = 0; i < 256; i++) {
		uint64_t c64 = i;
		uint32_t c32 = (uint32_t)i << 24;
		uint16_t c16 = (uint16_t)i;
		uint8_t c7 = (uint8_t)i;

		for (int k = 0; k < 8; k++) {
			c64 = c64 & 1 ? (c64 >> 1) ^ 0x95ac9329ac4bc9b5ULL : c64 >> 1;
			c32 = c32 & 0x80000000U ? (c32 << 1) ^ 0x04c11db7U : c32 << 1;
			c16 = c16 & 1 ? (uint16_t)((c16 >> 1) ^ 0xa001) : (uint16_t)(c16 >> 1);
			c7 = c7 & 0x80 ? (uint8_t)((c7 << 1) ^ 0x12) : (uint8_t)(c7 << 1);
		}
		crc64_tab[i] = c64;
		crc32_tab[i] = c32;
		crc16_tab[i] = c16;
		crc7_tab[i] = c7;
	}
}

void verify_sum_init(void)
{
	pthread_once(&tables_once, tables_init);
}

static void put_le(unsigned char *a, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++, v >>= 8)
		a[i] = (unsigned char)v;
}

static void sum_crc64(const struct verify_cfg *c, const unsigned char *p, size_t n,
		      unsigned char *a)
{
	uint64_t crc = 0;

	(void)c;
	while (n--)
		crc = (crc >> 8) ^ crc64_tab[(crc ^ *p++) & 0xff];
	put_le(a, crc, 8);
}

static void sum_crc32(const struct verify_cfg *c, const unsigned char *p, size_t n,
		      unsigned char *a)
{
	uint32_t crc = 0;

	(void)c;
	while (n--)
		crc = (crc << 8) ^ crc32_tab[((crc >> 24) ^ *p++) & 0xff];
	put_le(a, crc, 4);
}

static void sum_crc16(const struct verify_cfg *c, const unsigned char *p, size_t n,
		      unsigned char *a)
{
	uint16_t crc = 0;

	(void)c;
	while (n--)
		crc = (uint16_t)((crc >> 8) ^ crc16_tab[(crc ^ *p++) & 0xff]);
	put_le(a, crc, 2);
}

static void sum_crc7(const struct verify_cfg *c, const unsigned char *p, size_t n, unsigned char *a)
{
	uint8_t crc = 0;

	(void)c;
	while (n--)
		crc = crc7_tab[crc ^ *p++];
	a[0] = crc >> 1;
}

/* fio's crc32c: Castagnoli from ~0 without the final inversion (the header's checksum too). */
static void sum_crc32c(const struct verify_cfg *c, const unsigned char *p, size_t n,
		       unsigned char *a)
{
	put_le(a, ~c->crc(0, p, n), 4);
}

static void sum_md5(const struct verify_cfg *c, const unsigned char *p, size_t n, unsigned char *a)
{
	struct md5_ctx x;

	(void)c;
	md5_init(&x);
	md5_update(&x, n, p);
	md5_digest(&x, MD5_DIGEST_SIZE, a);
}

/* fio keeps SHA-1 as its five state words in the CPU's order: each word of the digest byte-swapped. */
static void sum_sha1(const struct verify_cfg *c, const unsigned char *p, size_t n, unsigned char *a)
{
	struct sha1_ctx x;
	unsigned char d[SHA1_DIGEST_SIZE];

	(void)c;
	sha1_init(&x);
	sha1_update(&x, n, p);
	sha1_digest(&x, sizeof(d), d);
	for (unsigned w = 0; w < SHA1_DIGEST_SIZE; w += 4) {
		uint32_t v;

		memcpy(&v, d + w, 4);
		v = be32toh(v);
		put_le(a + w, v, 4);
	}
}

/*
 * fio 3.33's sha256 area (64 bytes) is not the SHA-256 digest: it is the last padded block of
 * its SHA-256 run (the bit count appended little-endian) with its first 8 bytes replaced by the
 * low byte of each of the 8 state words at the end.  The same from nettle: the message and
 * that padding fed through sha256_update, then the state read.
 */
static void sum_sha256(const struct verify_cfg *c, const unsigned char *p, size_t n,
		       unsigned char *a)
{
	struct sha256_ctx x;
	unsigned char pad[128] = { 0x80 };
	size_t r = n % 64, np = r < 56 ? 56 - r : 120 - r;

	(void)c;
	put_le(pad + np, (uint64_t)n * 8, 8);
	sha256_init(&x);
	sha256_update(&x, n, p);
	sha256_update(&x, np + 8, pad);
	/* The last block: the message's last r bytes, then the padding's rest. */
	if (np + 8 >= 64) {
		memcpy(a, pad + np + 8 - 64, 64);
	} else {
		memcpy(a, p + n - r, r);
		memcpy(a + r, pad, 64 - r);
	}
	for (unsigned i = 0; i < 8; i++)
		a[i] = (unsigned char)x.state[i];
}

/*
 * fio 3.33's sha512 area (128 bytes) holds its SHA-512 input buffer, never the digest, and fio
 * misses a damaged byte inside the block: iowl stores the real SHA-512 digest in its first 64
 * bytes (the rest zero), so fio cannot verify iowl's sha512 data (README).
 */
static void sum_sha512(const struct verify_cfg *c, const unsigned char *p, size_t n,
		       unsigned char *a)
{
	struct sha512_ctx x;

	(void)c;
	sha512_init(&x);
	sha512_update(&x, n, p);
	sha512_digest(&x, SHA512_DIGEST_SIZE, a);
	memset(a + SHA512_DIGEST_SIZE, 0, 128 - SHA512_DIGEST_SIZE);
}

#define SHA3_SUM(bits)                                                                             \
	static void sum_sha3_##bits(const struct verify_cfg *c, const unsigned char *p, size_t n,  \
				    unsigned char *a)                                              \
	{                                                                                          \
		struct sha3_##bits##_ctx x;                                                        \
                                                                                                   \
		(void)c;                                                                           \
		sha3_##bits##_init(&x);                                                            \
		sha3_##bits##_update(&x, n, p);                                                    \
		sha3_##bits##_digest(&x, SHA3_##bits##_DIGEST_SIZE, a);                            \
	}
SHA3_SUM(224)
SHA3_SUM(256)
SHA3_SUM(384)
SHA3_SUM(512)

/* fio's xxhash: XXH32 with seed 1, little-endian. */
static void sum_xxhash(const struct verify_cfg *c, const unsigned char *p, size_t n,
		       unsigned char *a)
{
	(void)c;
	put_le(a, XXH32(p, n, 1), 4);
}

/* fio 3.33's verify_type numbers and the size of each method's area. */
static const struct verify_method methods[] = {
	{ VERIFY_NONE, "0", 0, 0, NULL },
	{ VERIFY_CRC32C, "crc32c", 5, 4, sum_crc32c },
	{ VERIFY_PATTERN, "pattern", 18, 0, NULL },
	{ VERIFY_MD5, "md5", 2, 16, sum_md5 },
	{ VERIFY_CRC64, "crc64", 3, 8, sum_crc64 },
	{ VERIFY_CRC32, "crc32", 4, 4, sum_crc32 },
	{ VERIFY_CRC16, "crc16", 7, 2, sum_crc16 },
	{ VERIFY_CRC7, "crc7", 8, 1, sum_crc7 },
	{ VERIFY_SHA256, "sha256", 9, 64, sum_sha256 },
	{ VERIFY_SHA512, "sha512", 10, 128, sum_sha512 },
	{ VERIFY_SHA3_224, "sha3-224", 11, 28, sum_sha3_224 },
	{ VERIFY_SHA3_256, "sha3-256", 12, 32, sum_sha3_256 },
	{ VERIFY_SHA3_384, "sha3-384", 13, 48, sum_sha3_384 },
	{ VERIFY_SHA3_512, "sha3-512", 14, 64, sum_sha3_512 },
	{ VERIFY_XXHASH, "xxhash", 15, 4, sum_xxhash },
	{ VERIFY_SHA1, "sha1", 16, 20, sum_sha1 },
	{ VERIFY_META, "meta", 1, 0, NULL },
	{ VERIFY_NULL, "null", 19, 0, NULL },
};

const struct verify_method *verify_method_of(unsigned mode)
{
	for (size_t i = 0; i < sizeof(methods) / sizeof(methods[0]); i++)
		if (methods[i].mode == mode)
			return &methods[i];
	return &methods[0];
}

const struct verify_method *verify_method_by_type(unsigned fio_type)
{
	for (size_t i = 1; i < sizeof(methods) / sizeof(methods[0]); i++)
		if (methods[i].fio_type == fio_type)
			return &methods[i];
	return NULL;
}

unsigned verify_mode_hdr_len(unsigned mode)
{
	if (mode == VERIFY_PATTERN || mode == VERIFY_NULL || mode == VERIFY_NONE)
		return 0;
	return VERIFY_HDR_LEN + verify_method_of(mode)->area;
}
