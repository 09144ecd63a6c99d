/* SPDX-License-Identifier: MIT */
/* The device side of the reports: fio's "Disk stats" block and disk_util JSON, with iostat figures. */
#ifndef IOWL_REPORT_DISK_H
#define IOWL_REPORT_DISK_H

#include <jansson.h>
#include <stdio.h>

#include "iowl/diskstats.h"

/* Prints "Disk stats (read/write):" and one line per device, as fio does; nothing without devices. */
void report_disk_text(FILE *f, const struct disk_set *s);

/* fio's "disk_util" array (a new reference; empty without devices), with iostat -x figures over the run under "iowl". */
json_t *report_disk_json(const struct disk_set *s);

struct run_result;

/*
 * Group g's own device figures, over the phases its jobs ran in (result_group_disks()): the
 * "Disk stats" lines under a heading of its own, and the disk_util array (NULL when there are
 * none).  iowl's addition: fio prints its disk stats once, over the whole run.
 */
void report_disk_group_text(FILE *f, const struct run_result *r, unsigned g);
json_t *report_disk_group_json(const struct run_result *r, unsigned g);

#endif
