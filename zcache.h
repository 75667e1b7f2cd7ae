/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Interfaces between the parts of zcache
 *
 * The core (zcache.c) owns policy: what is stored, the limits, the stats
 * and the parameters.  The attach layer (attach/) owns every piece of
 * kernel-version knowledge.  The core hands the attach layer a table of
 * its entry points, as frontswap's backends did, and the attach layer
 * never calls the core by name: the core sits above it.  The core never
 * sees a kernel version.
 */
#ifndef _ZCACHE_H
#define _ZCACHE_H

#include <linux/swap.h>
#include <linux/types.h>

struct folio;
struct page;
struct shrink_control;
struct shrinker;

/**
 * struct zcache_ops - the core's entry points, called by the attach layer
 * @swapon:	a swap type was swapped on
 * @store:	store a page on its way to (type, offset); 0 if stored, or a
 *		negative errno and the page goes to the swap device
 * @load:	fill a page from (type, offset), erasing the entry if
 *		exclusive; 0, -ENOENT if not held, or another errno if the
 *		stored copy cannot be read
 * @invalidate:	forget (type, offset), whose slot was freed
 * @swapoff:	a swap type was swapped off
 * @holds:	whether the core holds (type, offset)
 * @entries:	how many entries the core holds for a swap type
 *
 * The contract is the one frontswap gave its backends: the swap core
 * serialises store, load and invalidate of one (type, offset) through the
 * swap cache page lock and the swap count, so the core needs no per-entry
 * reference counting.  @store and @load may sleep.  @invalidate may run
 * under the swap device's spinlock and never sleeps.  @swapon, @swapoff
 * and @holds are called from ftrace handlers with preemption disabled and
 * take no lock; @entries takes none either.
 */
struct zcache_ops {
	void (*swapon)(unsigned int type);
	int (*store)(unsigned int type, pgoff_t offset, struct page *page);
	int (*load)(unsigned int type, pgoff_t offset, struct page *page,
		    bool exclusive);
	void (*invalidate)(unsigned int type, pgoff_t offset);
	void (*swapoff)(unsigned int type);
	bool (*holds)(unsigned int type, pgoff_t offset);
	unsigned long (*entries)(unsigned int type);
};

/* Attach layer, attach/attach.c */
int zcache_attach(const struct zcache_ops *ops);
void zcache_detach(void);
const char *zcache_attach_method(void);
bool zcache_attach_zero_filtered(void);
bool zcache_attach_frees_missed(void);
void zcache_attach_sync(void);

/* The swap core's calls for writeback, attach/attach.c */
/* who holds a slot that no folio could be had for */
enum zcache_slot {
	ZCACHE_SLOT_USED,	/* in use, or its device is going */
	ZCACHE_SLOT_FREE,	/* no user; its invalidation is on the way */
	ZCACHE_SLOT_BUSY,	/* in use, cache bit held with no folio found */
};

bool zcache_swapcache_ready(void);
struct folio *zcache_swapcache_get(swp_entry_t swp, bool *allocated);
swp_entry_t zcache_swapcache_entry(struct folio *folio);
bool zcache_swapcache_writeback_allowed(struct folio *folio);
int zcache_swapcache_zero_filled(swp_entry_t swp);
enum zcache_slot zcache_swapcache_slot(swp_entry_t swp);
void zcache_swapcache_delete(struct folio *folio);
int zcache_swapcache_write(struct folio *folio);
struct shrinker *zcache_shrinker_create(unsigned long (*count)(struct shrinker *,
							       struct shrink_control *),
					unsigned long (*scan)(struct shrinker *,
							      struct shrink_control *));
void zcache_shrinker_destroy(struct shrinker *shrinker);

#endif /* _ZCACHE_H */
