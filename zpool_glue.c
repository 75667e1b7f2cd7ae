// SPDX-License-Identifier: GPL-2.0
/*
 * Allocator backends for zcache's compressed objects
 *
 * Handles are opaque, non-zero and aligned to at least four bytes, so the
 * core can keep them directly in an XArray slot.  Mapping is atomic: a
 * mapped object must be copied out before anything that may sleep.
 *
 * Locking: the allocator's own locks only; every call may be made under a
 * spinlock except zcache_pool_create() and zcache_pool_destroy().
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/error-injection.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/zsmalloc.h>

#include "zpool_glue.h"

/*********************************
 * backends
 *********************************/
/**
 * struct zcache_pool_ops - what an allocator backend provides
 * @name:        the allocator's name, as the allocator parameter takes it
 * @create:      create a pool; returns the backend's pool or NULL
 * @destroy:     destroy an empty pool
 * @malloc:      allocate @size bytes; returns 0 and a handle, or an errno
 * @free:        free a handle; never sleeps
 * @map:         map a handle for reading or writing; atomic until unmapped
 * @unmap:       unmap it
 * @total_pages: pages the pool takes from the system
 */
struct zcache_pool_ops {
	const char *name;
	void *(*create)(const char *name);
	void (*destroy)(void *pool);
	int (*malloc)(void *pool, size_t size, gfp_t gfp,
		      unsigned long *handle);
	void (*free)(void *pool, unsigned long handle);
	void *(*map)(void *pool, unsigned long handle, bool write);
	void (*unmap)(void *pool, unsigned long handle);
	u64 (*total_pages)(void *pool);
};

struct zcache_pool {
	const struct zcache_pool_ops *ops;
	void *pool;
};

static void *zcache_zs_create(const char *name)
{
	return zs_create_pool(name);
}

static void zcache_zs_destroy(void *pool)
{
	zs_destroy_pool(pool);
}

static int zcache_zs_malloc(void *pool, size_t size, gfp_t gfp,
			    unsigned long *handle)
{
	unsigned long h = zs_malloc(pool, size, gfp);

	/* 6.1 returns an ERR_PTR value, older kernels returned 0 */
	if (!h)
		return -ENOMEM;
	if (IS_ERR_VALUE(h))
		return (int)h;
	*handle = h;
	return 0;
}

static void zcache_zs_free(void *pool, unsigned long handle)
{
	zs_free(pool, handle);
}

static void *zcache_zs_map(void *pool, unsigned long handle, bool write)
{
	return zs_map_object(pool, handle, write ? ZS_MM_WO : ZS_MM_RO);
}

static void zcache_zs_unmap(void *pool, unsigned long handle)
{
	zs_unmap_object(pool, handle);
}

static u64 zcache_zs_total_pages(void *pool)
{
	return zs_get_total_pages(pool);
}

static const struct zcache_pool_ops zcache_pool_backends[] = {
	{
		.name = "zsmalloc",
		.create = zcache_zs_create,
		.destroy = zcache_zs_destroy,
		.malloc = zcache_zs_malloc,
		.free = zcache_zs_free,
		.map = zcache_zs_map,
		.unmap = zcache_zs_unmap,
		.total_pages = zcache_zs_total_pages,
	},
};

static const struct zcache_pool_ops *zcache_pool_find(const char *allocator)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(zcache_pool_backends); i++)
		if (!strcmp(zcache_pool_backends[i].name, allocator))
			return &zcache_pool_backends[i];
	return NULL;
}

/*********************************
 * pool interface
 *********************************/
/**
 * zcache_pool_known() - whether an allocator can back a pool
 * @allocator: its name
 *
 * Context: any.
 * Return: true if zcache has a backend of that name.
 */
bool zcache_pool_known(const char *allocator)
{
	return zcache_pool_find(allocator);
}

/**
 * zcache_pool_create() - create a pool
 * @allocator: backend name, see zcache_pool_known()
 * @name:      name of the pool, for the allocator's own stats
 *
 * Context: process context, may sleep.
 * Return: the pool, or NULL.
 */
struct zcache_pool *zcache_pool_create(const char *allocator,
				       const char *name)
{
	const struct zcache_pool_ops *ops = zcache_pool_find(allocator);
	struct zcache_pool *pool;

	if (!ops)
		return NULL;
	pool = kzalloc(sizeof(*pool), GFP_KERNEL);
	if (!pool)
		return NULL;
	pool->ops = ops;
	pool->pool = ops->create(name);
	if (!pool->pool) {
		kfree(pool);
		return NULL;
	}
	return pool;
}

/**
 * zcache_pool_destroy() - destroy an empty pool
 * @pool: the pool, or NULL
 *
 * Context: process context, may sleep.
 */
void zcache_pool_destroy(struct zcache_pool *pool)
{
	if (!pool)
		return;
	pool->ops->destroy(pool->pool);
	kfree(pool);
}

/**
 * zcache_pool_allocator() - the backend name of a pool
 * @pool: the pool
 *
 * Context: any.
 * Return: a constant string.
 */
const char *zcache_pool_allocator(struct zcache_pool *pool)
{
	return pool->ops->name;
}

/**
 * zcache_pool_malloc() - allocate an object
 * @pool:   the pool
 * @size:   bytes
 * @gfp:    allocation flags
 * @handle: out: the object's handle
 *
 * Context: may sleep if @gfp allows.
 * Return: 0; -ENOSPC if @size is more than the allocator can hold in one
 * object; -ENOMEM; -EINVAL if the backend broke the alignment promise.
 */
int zcache_pool_malloc(struct zcache_pool *pool, size_t size, gfp_t gfp,
		       unsigned long *handle)
{
	int ret = pool->ops->malloc(pool->pool, size, gfp, handle);

	if (ret == -EINVAL)
		return -ENOSPC;
	if (ret)
		return ret;
	if (WARN_ON_ONCE(*handle & 3)) {
		pool->ops->free(pool->pool, *handle);
		return -EINVAL;
	}
	return 0;
}

/* fail_function may make it fail: the store then goes to disk. */
ALLOW_ERROR_INJECTION(zcache_pool_malloc, ERRNO);

/**
 * zcache_pool_free() - free an object
 * @pool:   the pool
 * @handle: a handle from zcache_pool_malloc()
 *
 * Context: any that may take a spinlock; never sleeps.
 */
void zcache_pool_free(struct zcache_pool *pool, unsigned long handle)
{
	pool->ops->free(pool->pool, handle);
}

/**
 * zcache_pool_map() - map an object
 * @pool:   the pool
 * @handle: the object
 * @write:  true to write the whole object, false to read it
 *
 * Context: the mapping is atomic: no sleeping until zcache_pool_unmap().
 * Return: the object's address.
 */
void *zcache_pool_map(struct zcache_pool *pool, unsigned long handle,
		      bool write)
{
	return pool->ops->map(pool->pool, handle, write);
}

/**
 * zcache_pool_unmap() - unmap an object mapped with zcache_pool_map()
 * @pool:   the pool
 * @handle: the object
 *
 * Context: as zcache_pool_map().
 */
void zcache_pool_unmap(struct zcache_pool *pool, unsigned long handle)
{
	pool->ops->unmap(pool->pool, handle);
}

/**
 * zcache_pool_total_pages() - memory the pool takes from the system
 * @pool: the pool
 *
 * Context: any.
 * Return: pages.
 */
u64 zcache_pool_total_pages(struct zcache_pool *pool)
{
	return pool->ops->total_pages(pool->pool);
}
