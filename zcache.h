/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Interfaces between the parts of zcache
 *
 * The core (zcache.c) owns policy: what is stored, the limits, the stats
 * and the parameters.  The attach layer (attach/) owns every piece of
 * kernel-version knowledge and calls the core through the frontswap-style
 * entry points below.  The core never sees a kernel version.
 */
#ifndef _ZCACHE_H
#define _ZCACHE_H

#include <linux/types.h>

struct page;

/*
 * Core entry points, called by the attach layer.
 *
 * Their contract is the one frontswap gave its backends: the swap core
 * serialises store, load and invalidate of one (type, offset) through the
 * swap cache page lock and the swap count, so the core needs no per-entry
 * reference counting.  zcache_invalidate() may run under the swap device's
 * spinlock and never sleeps; zcache_swapon()/zcache_swapoff() and
 * zcache_holds() are called from ftrace handlers with preemption disabled
 * and never sleep either.
 */
void zcache_swapon(unsigned int type);
int zcache_store(unsigned int type, pgoff_t offset, struct page *page);
int zcache_load(unsigned int type, pgoff_t offset, struct page *page,
		bool exclusive);
void zcache_invalidate(unsigned int type, pgoff_t offset);
void zcache_swapoff(unsigned int type);
bool zcache_holds(unsigned int type, pgoff_t offset);

/* Attach layer, attach/attach.c */
int zcache_attach(void);
void zcache_detach(void);
const char *zcache_attach_method(void);

#endif /* _ZCACHE_H */
