/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Writeback: between the core (zcache.c), which calls it by name, and the
 * swap core's calls in the attach layer, which it calls by name.  What it
 * needs of the core comes down as a table of callbacks.
 */
#ifndef _ZCACHE_WRITEBACK_H
#define _ZCACHE_WRITEBACK_H

#include <linux/types.h>

struct page;
struct xa_ext;

/**
 * enum zcache_wb_event - what writeback reports
 * @ZCACHE_WB_WRITTEN: a released entry's page went to the swap device
 * @ZCACHE_WB_WRITTEN_FIRST: of those, one whose entry was stored to go
 *                   first (counted as well as @ZCACHE_WB_WRITTEN)
 * @ZCACHE_WB_INVALIDATED: a released entry's data lives on in a dirty swap
 *                   cache folio, or its slot was freed or is stale
 * @ZCACHE_WB_FAIL:  an entry could not be written back and stays; or its
 *                   write failed after it left the index, and its data
 *                   lives on in a dirty swap cache folio
 * @ZCACHE_WB_SKIP:  an entry's folio was busy (being swapped in, or in the
 *                   swap cache), or its memory cgroup does not allow
 *                   writeback; it stays and becomes young
 * @ZCACHE_WB_STALE: an entry's slot was freed or written again meanwhile
 */
enum zcache_wb_event {
	ZCACHE_WB_WRITTEN,
	ZCACHE_WB_WRITTEN_FIRST,
	ZCACHE_WB_INVALIDATED,
	ZCACHE_WB_FAIL,
	ZCACHE_WB_SKIP,
	ZCACHE_WB_STALE,
};

/**
 * struct zcache_wb_ops - what writeback needs of the core
 * @index:       the index of a swap type, or NULL while it is bypassed
 * @fill:        decompress @entry into @page (which is locked); 0 or an
 *               errno
 * @release:     free @entry, which writeback took out of its index (and
 *               counts as written or invalidated, with @count)
 * @over_target: whether the pool is above the size writeback works down
 *               to
 * @pool_pages:  pages the pool takes now
 * @count:       count an event
 *
 * All may be called from the writeback worker and never sleep, except
 * @fill, which may.  @pool_pages is also called from the shrinker.
 */
struct zcache_wb_ops {
	struct xa_ext *(*index)(unsigned int type);
	int (*fill)(void *entry, struct page *page);
	void (*release)(void *entry);
	bool (*over_target)(void);
	unsigned long (*pool_pages)(void);
	void (*count)(enum zcache_wb_event event);
};

int zcache_wb_init(const struct zcache_wb_ops *ops);
void zcache_wb_start(void);
void zcache_wb_exit(void);
bool zcache_wb_available(void);
void zcache_wb_configure(bool writeback, bool shrinker);
void zcache_wb_kick(void);
bool zcache_wb_writing(void);
int zcache_wb_drain(bool start);
bool zcache_wb_draining(void);

#endif /* _ZCACHE_WRITEBACK_H */
