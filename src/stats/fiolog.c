// SPDX-License-Identifier: MIT
/* fio-format log lines without printf, iowl-to-fio histogram bins, and fio's log file names. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "iowl/fiolog.h"

/* Number of decimal digits of v (1 for 0). */
static unsigned dec_len(uint64_t v)
{
	unsigned n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/* Writes v in decimal at p and returns the end; the division by 10 compiles to a multiply. */
static char *put_u64(char *p, uint64_t v)
{
	char *end = p + dec_len(v);

	for (char *q = end; q > p; v /= 10)
		*--q = (char)('0' + v % 10);
	return end;
}

/* fio prints the sample value with PRId64 although it is unsigned. */
static char *put_s64(char *p, uint64_t v)
{
	if ((int64_t)v >= 0)
		return put_u64(p, v);
	*p++ = '-';
	return put_u64(p, 0 - v);
}

/* "0x%04x": lowercase hex, at least four digits. */
static char *put_hex4(char *p, uint32_t v)
{
	static const char digits[] = "0123456789abcdef";
	unsigned n = 4;

	while (n < 8 && v >> (4 * n))
		n++;
	*p++ = '0';
	*p++ = 'x';
	for (unsigned i = n; i > 0; i--)
		*p++ = digits[(v >> (4 * (i - 1))) & 15];
	return p;
}

static char *put_sep(char *p)
{
	*p++ = ',';
	*p++ = ' ';
	return p;
}

/* Everything up to the priority field: "time, value, ddir, bs, [offset, ]". */
static char *put_head(char *p, const struct fiolog_entry *e, bool log_offset)
{
	p = put_sep(put_u64(p, e->time_ms));
	p = put_sep(put_s64(p, e->value));
	p = put_sep(put_u64(p, e->ddir));
	p = put_sep(put_u64(p, e->bs));
	if (log_offset)
		p = put_sep(put_u64(p, e->offset));
	return p;
}

static size_t put_end(char *buf, char *p)
{
	*p++ = '\n';
	*p = '\0';
	return (size_t)(p - buf);
}

size_t fiolog_format(char *buf, const struct fiolog_entry *e, bool log_offset)
{
	return put_end(buf, put_u64(put_head(buf, e, log_offset), e->prio));
}

size_t fiolog_format_prio(char *buf, const struct fiolog_entry *e, bool log_offset)
{
	return put_end(buf, put_hex4(put_head(buf, e, log_offset), e->prio));
}

/* fio's bin for value v (its plat_val_to_idx()): exact below 128, then 64 bins per octave. */
static unsigned fio_bin(uint64_t v)
{
	unsigned msb, shift, i;

	if (v < 2 * FIOLOG_HIST_VAL)
		return (unsigned)v;
	msb = 63U - (unsigned)__builtin_clzll(v);
	if (msb >= FIOLOG_HIST_GROUPS + FIOLOG_HIST_BITS - 1)
		return FIOLOG_HIST_NR - 1;
	shift = msb - FIOLOG_HIST_BITS;
	i = ((shift + 1) << FIOLOG_HIST_BITS) + (unsigned)((v >> shift) & (FIOLOG_HIST_VAL - 1));
	return i < FIOLOG_HIST_NR ? i : FIOLOG_HIST_NR - 1;
}

void fiolog_hist_bins(const struct hist *h, uint64_t out[FIOLOG_HIST_NR])
{
	memset(out, 0, FIOLOG_HIST_NR * sizeof(out[0]));
	for (unsigned i = 0; i < HIST_NR; i++) {
		if (h->count[i])
			out[fio_bin(hist_bin_low(i))] += h->count[i];
	}
}

size_t fiolog_hist_format(char *buf, uint64_t time_ms, uint32_t ddir, uint64_t bs,
			  const uint64_t bins[FIOLOG_HIST_NR], unsigned coarseness)
{
	unsigned c = coarseness < FIOLOG_HIST_COARSE_MAX ? coarseness : FIOLOG_HIST_COARSE_MAX;
	unsigned stride = 1U << c;
	char *p = buf;

	p = put_sep(put_u64(p, time_ms));
	p = put_sep(put_u64(p, ddir));
	p = put_sep(put_u64(p, bs));
	for (unsigned j = 0; j < FIOLOG_HIST_NR; j += stride) {
		uint64_t sum = 0;

		for (unsigned k = 0; k < stride; k++)
			sum += bins[j + k];
		if (j)
			p = put_sep(p);
		p = put_u64(p, sum);
	}
	return put_end(buf, p);
}

static const char *const kind_names[] = {
	[FIOLOG_BW] = "bw",
	[FIOLOG_IOPS] = "iops",
	[FIOLOG_LAT] = "lat",
	[FIOLOG_SLAT] = "slat",
	[FIOLOG_CLAT] = "clat",
	[FIOLOG_CLAT_HIST] = "clat_hist",
};

int fiolog_name(char *buf, size_t len, const char *name, const char *jobname,
		enum fiolog_kind kind, unsigned job_nr, bool per_job_logs)
{
	const char *kn = (unsigned)kind <= FIOLOG_CLAT_HIST ? kind_names[kind] : "?";
	int n;

	if (!name || !*name)
		name = jobname;
	if (per_job_logs)
		n = snprintf(buf, len, "%s_%s.%u.log", name, kn, job_nr);
	else
		n = snprintf(buf, len, "%s_%s.log", name, kn);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}
