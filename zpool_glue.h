/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The allocator behind zcache's compressed objects
 *
 * zpool is not exported on every kernel zcache supports; zsmalloc's own
 * API is.  This is the small part of zpool zcache needs, with a table of
 * backends so that another allocator fits in beside zsmalloc.
 */
#ifndef _ZCACHE_ZPOOL_GLUE_H
#define _ZCACHE_ZPOOL_GLUE_H

#include <linux/types.h>

struct zcache_pool;

bool zcache_pool_known(const char *allocator);
struct zcache_pool *zcache_pool_create(const char *allocator,
				       const char *name);
void zcache_pool_destroy(struct zcache_pool *pool);
const char *zcache_pool_allocator(struct zcache_pool *pool);
int zcache_pool_malloc(struct zcache_pool *pool, size_t size, gfp_t gfp,
		       unsigned long *handle);
void zcache_pool_free(struct zcache_pool *pool, unsigned long handle);
void *zcache_pool_map(struct zcache_pool *pool, unsigned long handle,
		      bool write);
void zcache_pool_unmap(struct zcache_pool *pool, unsigned long handle);
u64 zcache_pool_total_pages(struct zcache_pool *pool);

#endif /* _ZCACHE_ZPOOL_GLUE_H */
