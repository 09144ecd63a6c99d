/* SPDX-License-Identifier: MIT */
/* blktrace binary traces (blkparse -d): the event layout of blktrace_api.h, and merging traces. */
#ifndef IOWL_BLKTRACE_H
#define IOWL_BLKTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "iowl/err.h"

struct job;

/* blktrace_api.h's struct blk_io_trace, as blkparse -d writes it (native byte order). */
struct blk_io_trace {
	uint32_t magic;
	uint32_t sequence;
	uint64_t time;
	uint64_t sector;
	uint32_t bytes;
	uint32_t action;
	uint32_t pid;
	uint32_t device;
	uint32_t cpu;
	uint16_t error;
	uint16_t pdu_len;
};

#define BLK_IO_TRACE_MAGIC 0x65617400U
#define BLK_IO_TRACE_VERSION 0x07U
#define BLK_TC_ACT(c) ((uint32_t)(c) << 16)
#define BLK_TC_READ (1U << 0)
#define BLK_TC_WRITE (1U << 1)
#define BLK_TC_FLUSH (1U << 2)
#define BLK_TC_PC (1U << 9)
#define BLK_TC_NOTIFY (1U << 10)
#define BLK_TC_DISCARD (1U << 13)
#define BLK_TA_QUEUE 1U

/* True when m is a trace's magic, in this machine's byte order (swap false) or the other. */
bool bt_magic(uint32_t m, bool *swap);

/* Turns an event of the other byte order into this machine's. */
void bt_swap(struct blk_io_trace *t);

/*
 * merge_blktrace_file, as fio describes it: the job's read_iolog traces (logs, n of them) merged
 * into one, in the order of their events' times.  Only queue events of reads, writes and
 * discards are kept, without their payload (pdu_len 0); each trace's times are scaled by its
 * merge_blktrace_scalars percentage and the trace is run merge_blktrace_iters times, each run
 * after the last (its times shifted by the trace's length, the time of its last event).  On
 * success *buf (malloc'd, *len bytes) holds the merged trace in this machine's byte order.
 * Returns 0 or -errno with err set (FILE:LINE of the job for bad lists).
 */
int bt_merge(const struct job *job, char **logs, unsigned n, char **buf, size_t *len,
	     struct iowl_err *err);

/* Writes the merged trace to merge_blktrace_file.  Returns 0 or -errno with err set. */
int bt_merge_write(const struct job *job, struct iowl_err *err);

#endif
