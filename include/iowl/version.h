/* SPDX-License-Identifier: MIT */
/* iowl's version, printed by --version and in the reports. */
#ifndef IOWL_VERSION_H
#define IOWL_VERSION_H

#ifndef IOWL_VERSION
#define IOWL_VERSION "0.1"
#endif

#endif
