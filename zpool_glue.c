// SPDX-License-Identifier: GPL-2.0
/*
 * Allocator backends for zcache's compressed objects
 *
 * Handles are opaque, non-zero and aligned to at least four bytes, so the
 * core can keep them directly in an XArray slot.  An object is written
 * whole, and read between zcache_pool_read_begin() and _end(): an atomic
 * section on 6.1 and 6.12 (zs_map_object()), one that may sleep on 7.3
 * (zcache_pool_read_may_sleep()).  7.3's zsmalloc reads an object only by
 * its length, which zcache keeps in the object: the pool's layout says
 * how to find it.
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

/*
 * zsmalloc's interfaces (Kbuild's feature tests):
 * - ZCACHE_HAVE_ZS_OBJ_RW: zs_obj_write() and zs_obj_read_begin()/_end(),
 *   which take the object's length, in place of zs_map_object();
 * - ZCACHE_HAVE_ZS_MALLOC_NID: zs_malloc() takes the node to allocate on.
 */

/*********************************
 * backends
 *********************************/
/**
 * struct zcache_pool_ops - what an allocator backend provides
 * @name:        the allocator's name, as the allocator parameter takes it
 * @create:      create a pool; returns the backend's pool or NULL
 * @destroy:     destroy an empty pool
 * @malloc:      allocate @size bytes on node @nid (NUMA_NO_NODE: any);
 *               returns 0 and a handle, or an errno
 * @free:        free a handle; never sleeps
 * @write:       write a whole object from a buffer; never sleeps
 * @read_begin:  the first @len bytes of an object, in place or copied to
 *               @copy; until @read_end, as @read_may_sleep says
 * @read_end:    end what @read_begin began, with the same @len
 * @total_pages: pages the pool takes from the system
 * @read_by_len: @read_begin gives only the @len bytes asked for (else
 *               the whole object, whatever @len is)
 * @read_may_sleep: a reader may sleep between @read_begin and @read_end
 *               (else the section is atomic)
 */
struct zcache_pool_ops {
	const char *name;
	void *(*create)(const char *name);
	void (*destroy)(void *pool);
	int (*malloc)(void *pool, size_t size, gfp_t gfp, int nid,
		      unsigned long *handle);
	void (*free)(void *pool, unsigned long handle);
	void (*write)(void *pool, unsigned long handle, const void *src,
		      size_t len);
	const void *(*read_begin)(void *pool, unsigned long handle,
				  size_t len, void *copy);
	void (*read_end)(void *pool, unsigned long handle, size_t len,
			 const void *mem);
	u64 (*total_pages)(void *pool);
	bool read_by_len;
	bool read_may_sleep;
};

struct zcache_pool {
	const struct zcache_pool_ops *ops;
	const struct zcache_pool_layout *layout;
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

static int zcache_zs_malloc(void *pool, size_t size, gfp_t gfp, int nid,
			    unsigned long *handle)
{
#ifdef ZCACHE_HAVE_ZS_MALLOC_NID
	unsigned long h = zs_malloc(pool, size, gfp, nid);
#else
	unsigned long h = zs_malloc(pool, size, gfp);
#endif

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

#ifdef ZCACHE_HAVE_ZS_OBJ_RW
/* A reader holds the zspage's read count, not a lock: it may sleep. */
#define ZCACHE_ZS_READ_BY_LEN	true
#define ZCACHE_ZS_READ_MAY_SLEEP	true

static void zcache_zs_write(void *pool, unsigned long handle,
			    const void *src, size_t len)
{
	zs_obj_write(pool, handle, (void *)src, len);
}

static const void *zcache_zs_read_begin(void *pool, unsigned long handle,
					size_t len, void *copy)
{
	return zs_obj_read_begin(pool, handle, len, copy);
}

static void zcache_zs_read_end(void *pool, unsigned long handle, size_t len,
			       const void *mem)
{
	zs_obj_read_end(pool, handle, len, (void *)mem);
}
#else
/* zs_map_object() maps the whole object, whatever length is asked for. */
#define ZCACHE_ZS_READ_BY_LEN	false
#define ZCACHE_ZS_READ_MAY_SLEEP	false

static void zcache_zs_write(void *pool, unsigned long handle,
			    const void *src, size_t len)
{
	memcpy(zs_map_object(pool, handle, ZS_MM_WO), src, len);
	zs_unmap_object(pool, handle);
}

static const void *zcache_zs_read_begin(void *pool, unsigned long handle,
					size_t len, void *copy)
{
	return zs_map_object(pool, handle, ZS_MM_RO);
}

static void zcache_zs_read_end(void *pool, unsigned long handle, size_t len,
			       const void *mem)
{
	zs_unmap_object(pool, handle);
}
#endif

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
		.write = zcache_zs_write,
		.read_begin = zcache_zs_read_begin,
		.read_end = zcache_zs_read_end,
		.total_pages = zcache_zs_total_pages,
		.read_by_len = ZCACHE_ZS_READ_BY_LEN,
		.read_may_sleep = ZCACHE_ZS_READ_MAY_SLEEP,
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
 * @layout:    how an object gives its length; kept, not copied
 *
 * Context: process context, may sleep.
 * Return: the pool, or NULL.
 */
struct zcache_pool *zcache_pool_create(const char *allocator,
				       const char *name,
				       const struct zcache_pool_layout *layout)
{
	const struct zcache_pool_ops *ops = zcache_pool_find(allocator);
	struct zcache_pool *pool;

	if (!ops)
		return NULL;
	pool = kzalloc(sizeof(*pool), GFP_KERNEL);
	if (!pool)
		return NULL;
	pool->ops = ops;
	pool->layout = layout;
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
 * @nid:    the node to allocate on, if the allocator can; NUMA_NO_NODE
 * @handle: out: the object's handle
 *
 * Context: may sleep if @gfp allows.
 * Return: 0; -ENOSPC if @size is more than the allocator can hold in one
 * object; -ENOMEM; -EINVAL if the backend broke the alignment promise.
 */
int zcache_pool_malloc(struct zcache_pool *pool, size_t size, gfp_t gfp,
		       int nid, unsigned long *handle)
{
	int ret = pool->ops->malloc(pool->pool, size, gfp, nid, handle);

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
 * zcache_pool_write() - write a whole object
 * @pool:   the pool
 * @handle: the object, of at least @len bytes
 * @src:    its contents
 * @len:    their length
 *
 * Context: any that may take a spinlock; never sleeps.
 */
void zcache_pool_write(struct zcache_pool *pool, unsigned long handle,
		       const void *src, size_t len)
{
	pool->ops->write(pool->pool, handle, src, len);
}

/**
 * zcache_pool_read_begin() - begin reading a whole object
 * @pool:   the pool
 * @handle: the object
 * @copy:   PAGE_SIZE bytes the object may be copied into (one that spans
 *          two of the allocator's pages)
 * @len:    out: the object's length, by the pool's layout
 *
 * The length is read from the object's head, and trusted up to PAGE_SIZE:
 * zcache's objects are never longer.
 *
 * Context: begins a section that zcache_pool_read_end() ends, in which
 * the caller may sleep only if zcache_pool_read_may_sleep() says so.
 * Return: the object's bytes, or NULL (nothing to end) if its head gives
 * a length over PAGE_SIZE.
 */
const void *zcache_pool_read_begin(struct zcache_pool *pool,
				   unsigned long handle, void *copy,
				   size_t *len)
{
	const struct zcache_pool_layout *layout = pool->layout;
	const void *mem;

	mem = pool->ops->read_begin(pool->pool, handle, layout->head, copy);
	*len = layout->len(mem);
	if (*len > PAGE_SIZE || *len < layout->head) {
		pool->ops->read_end(pool->pool, handle, layout->head, mem);
		return NULL;
	}
	if (*len == layout->head)
		return mem;
	/* The head gave the length; now the whole object. */
	if (pool->ops->read_by_len) {
		pool->ops->read_end(pool->pool, handle, layout->head, mem);
		mem = pool->ops->read_begin(pool->pool, handle, *len, copy);
	}
	return mem;
}

/**
 * zcache_pool_read_head() - copy out an object's head
 * @pool:   the pool
 * @handle: the object
 * @head:   out: the object's first bytes, as many as the layout's head
 *
 * Context: any that may take a spinlock; never sleeps.
 */
void zcache_pool_read_head(struct zcache_pool *pool, unsigned long handle,
			   void *head)
{
	size_t len = pool->layout->head;
	const void *mem;

	mem = pool->ops->read_begin(pool->pool, handle, len, head);
	if (mem != head)
		memcpy(head, mem, len);
	pool->ops->read_end(pool->pool, handle, len, mem);
}

/**
 * zcache_pool_read_end() - end what zcache_pool_read_begin() began
 * @pool:   the pool
 * @handle: the object
 * @len:    the length zcache_pool_read_begin() gave
 * @mem:    the bytes it returned
 *
 * Context: ends the section.
 */
void zcache_pool_read_end(struct zcache_pool *pool, unsigned long handle,
			  size_t len, const void *mem)
{
	pool->ops->read_end(pool->pool, handle, len, mem);
}

/**
 * zcache_pool_read_may_sleep() - whether a reader may sleep
 * @pool: the pool
 *
 * Context: any.
 * Return: true if the caller may sleep between zcache_pool_read_begin()
 * and zcache_pool_read_end().
 */
bool zcache_pool_read_may_sleep(struct zcache_pool *pool)
{
	return pool->ops->read_may_sleep;
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
