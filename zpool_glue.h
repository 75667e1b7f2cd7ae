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

/**
 * struct zcache_pool_layout - how an object gives its length
 * @head: bytes at the start of every object that hold its length
 * @len:  the object's whole length, from those bytes; never sleeps
 */
struct zcache_pool_layout {
	size_t head;
	size_t (*len)(const void *head);
};

bool zcache_pool_known(const char *allocator);
struct zcache_pool *zcache_pool_create(const char *allocator,
				       const char *name,
				       const struct zcache_pool_layout *layout);
void zcache_pool_destroy(struct zcache_pool *pool);
const char *zcache_pool_allocator(struct zcache_pool *pool);
int zcache_pool_malloc(struct zcache_pool *pool, size_t size, gfp_t gfp,
		       int nid, unsigned long *handle);
void zcache_pool_free(struct zcache_pool *pool, unsigned long handle);
void zcache_pool_write(struct zcache_pool *pool, unsigned long handle,
		       const void *src, size_t len);
const void *zcache_pool_read_begin(struct zcache_pool *pool,
				   unsigned long handle, void *copy,
				   size_t *len);
void zcache_pool_read_head(struct zcache_pool *pool, unsigned long handle,
			   void *head);
void zcache_pool_read_end(struct zcache_pool *pool, unsigned long handle,
			  size_t len, const void *mem);
bool zcache_pool_read_may_sleep(struct zcache_pool *pool);
u64 zcache_pool_total_pages(struct zcache_pool *pool);

#endif /* _ZCACHE_ZPOOL_GLUE_H */
