// SPDX-License-Identifier: MIT
/*
 * The checksums: CRC-32C of the headers (hardware where the CPU has it), and the checksum area
 * of each verify method, after the 40-byte header, byte for byte as fio 3.33 writes it (so that
 * fio verifies what iowl wrote): the hashes from nettle and libxxhash, the CRCs fio uses that no
 * Debian library offers in fio's variants from small tables.
 */
#include <endian.h>
#include <pthread.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define VERIFY_HAVE_SSE42 1
#endif

#include <nettle/md5.h>
#include <nettle/sha1.h>
#include <nettle/sha2.h>
#include <nettle/sha3.h>
#include <xxhash.h>

#include "verify/verify_int.h"

/* CRC-32C (Castagnoli, reflected polynomial 0x82f63b78), one byte at a time. */
static const uint32_t crc32c_table[256] = {
	0x00000000, 0xf26b8303, 0xe13b70f7, 0x1350f3f4, 0xc79a971f, 0x35f1141c, 0x26a1e7e8,
	0xd4ca64eb, 0x8ad958cf, 0x78b2dbcc, 0x6be22838, 0x9989ab3b, 0x4d43cfd0, 0xbf284cd3,
	0xac78bf27, 0x5e133c24, 0x105ec76f, 0xe235446c, 0xf165b798, 0x030e349b, 0xd7c45070,
	0x25afd373, 0x36ff2087, 0xc494a384, 0x9a879fa0, 0x68ec1ca3, 0x7bbcef57, 0x89d76c54,
	0x5d1d08bf, 0xaf768bbc, 0xbc267848, 0x4e4dfb4b, 0x20bd8ede, 0xd2d60ddd, 0xc186fe29,
	0x33ed7d2a, 0xe72719c1, 0x154c9ac2, 0x061c6936, 0xf477ea35, 0xaa64d611, 0x580f5512,
	0x4b5fa6e6, 0xb93425e5, 0x6dfe410e, 0x9f95c20d, 0x8cc531f9, 0x7eaeb2fa, 0x30e349b1,
	0xc288cab2, 0xd1d83946, 0x23b3ba45, 0xf779deae, 0x05125dad, 0x1642ae59, 0xe4292d5a,
	0xba3a117e, 0x4851927d, 0x5b016189, 0xa96ae28a, 0x7da08661, 0x8fcb0562, 0x9c9bf696,
	0x6ef07595, 0x417b1dbc, 0xb3109ebf, 0xa0406d4b, 0x522bee48, 0x86e18aa3, 0x748a09a0,
	0x67dafa54, 0x95b17957, 0xcba24573, 0x39c9c670, 0x2a993584, 0xd8f2b687, 0x0c38d26c,
	0xfe53516f, 0xed03a29b, 0x1f682198, 0x5125dad3, 0xa34e59d0, 0xb01eaa24, 0x42752927,
	0x96bf4dcc, 0x64d4cecf, 0x77843d3b, 0x85efbe38, 0xdbfc821c, 0x2997011f, 0x3ac7f2eb,
	0xc8ac71e8, 0x1c661503, 0xee0d9600, 0xfd5d65f4, 0x0f36e6f7, 0x61c69362, 0x93ad1061,
	0x80fde395, 0x72966096, 0xa65c047d, 0x5437877e, 0x4767748a, 0xb50cf789, 0xeb1fcbad,
	0x197448ae, 0x0a24bb5a, 0xf84f3859, 0x2c855cb2, 0xdeeedfb1, 0xcdbe2c45, 0x3fd5af46,
	0x7198540d, 0x83f3d70e, 0x90a324fa, 0x62c8a7f9, 0xb602c312, 0x44694011, 0x5739b3e5,
	0xa55230e6, 0xfb410cc2, 0x092a8fc1, 0x1a7a7c35, 0xe811ff36, 0x3cdb9bdd, 0xceb018de,
	0xdde0eb2a, 0x2f8b6829, 0x82f63b78, 0x709db87b, 0x63cd4b8f, 0x91a6c88c, 0x456cac67,
	0xb7072f64, 0xa457dc90, 0x563c5f93, 0x082f63b7, 0xfa44e0b4, 0xe9141340, 0x1b7f9043,
	0xcfb5f4a8, 0x3dde77ab, 0x2e8e845f, 0xdce5075c, 0x92a8fc17, 0x60c37f14, 0x73938ce0,
	0x81f80fe3, 0x55326b08, 0xa759e80b, 0xb4091bff, 0x466298fc, 0x1871a4d8, 0xea1a27db,
	0xf94ad42f, 0x0b21572c, 0xdfeb33c7, 0x2d80b0c4, 0x3ed04330, 0xccbbc033, 0xa24bb5a6,
	0x502036a5, 0x4370c551, 0xb11b4652, 0x65d122b9, 0x97baa1ba, 0x84ea524e, 0x7681d14d,
	0x2892ed69, 0xdaf96e6a, 0xc9a99d9e, 0x3bc21e9d, 0xef087a76, 0x1d63f975, 0x0e330a81,
	0xfc588982, 0xb21572c9, 0x407ef1ca, 0x532e023e, 0xa145813d, 0x758fe5d6, 0x87e466d5,
	0x94b49521, 0x66df1622, 0x38cc2a06, 0xcaa7a905, 0xd9f75af1, 0x2b9cd9f2, 0xff56bd19,
	0x0d3d3e1a, 0x1e6dcdee, 0xec064eed, 0xc38d26c4, 0x31e6a5c7, 0x22b65633, 0xd0ddd530,
	0x0417b1db, 0xf67c32d8, 0xe52cc12c, 0x1747422f, 0x49547e0b, 0xbb3ffd08, 0xa86f0efc,
	0x5a048dff, 0x8ecee914, 0x7ca56a17, 0x6ff599e3, 0x9d9e1ae0, 0xd3d3e1ab, 0x21b862a8,
	0x32e8915c, 0xc083125f, 0x144976b4, 0xe622f5b7, 0xf5720643, 0x07198540, 0x590ab964,
	0xab613a67, 0xb831c993, 0x4a5a4a90, 0x9e902e7b, 0x6cfbad78, 0x7fab5e8c, 0x8dc0dd8f,
	0xe330a81a, 0x115b2b19, 0x020bd8ed, 0xf0605bee, 0x24aa3f05, 0xd6c1bc06, 0xc5914ff2,
	0x37faccf1, 0x69e9f0d5, 0x9b8273d6, 0x88d28022, 0x7ab90321, 0xae7367ca, 0x5c18e4c9,
	0x4f48173d, 0xbd23943e, 0xf36e6f75, 0x0105ec76, 0x12551f82, 0xe03e9c81, 0x34f4f86a,
	0xc69f7b69, 0xd5cf889d, 0x27a40b9e, 0x79b737ba, 0x8bdcb4b9, 0x988c474d, 0x6ae7c44e,
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
__attribute__((target("sse4.2"))) uint32_t verify_crc32c_hw(uint32_t crc, const void *buf,
							    size_t len)
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
