// SPDX-License-Identifier: GPL-2.0
/*
 * XArray helpers for zcache's swap offset index
 *
 * Loads are lockless.  Erase looks the index up locklessly first and takes
 * the lock only if something is there, then looks again under the lock:
 * most invalidations in a swap workload are for slots the cache never
 * held, and those now cost one RCU walk and no lock.  Store and erase
 * report the array's empty transitions to an occupancy callback under the
 * lock, so a reference held while the array is non-empty is exact.
 *
 * Locking: xa_lock is a plain spinlock (the array is never touched from
 * interrupts).  The occupancy callbacks and @release of xa_ext_drain() run
 * under it and must not sleep.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/error-injection.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/xarray.h>

#include "xarray_ext.h"

/*
 * Allocate the node a store found missing (xas_nomem() with the store's
 * @gfp).  Its own function so that fault injection (fail_function) can
 * make it fail and the caller's -ENOMEM path can be tested.
 * Return: 0 to retry the store, -ENOMEM if no node could be had.
 */
static noinline int xa_ext_alloc_node(struct xa_state *xas, gfp_t gfp)
{
	return xas_nomem(xas, gfp) ? 0 : -ENOMEM;
}

ALLOW_ERROR_INJECTION(xa_ext_alloc_node, ERRNO);

/*
 * Whether a store must be retried.  A node is allocated only when the
 * store failed for the lack of one (and then no preallocated node is
 * left in @xas); otherwise xas_nomem() frees any unused one.
 */
static bool xa_ext_retry(struct xa_state *xas, gfp_t gfp)
{
	if (xas_error(xas) == -ENOMEM)
		return xa_ext_alloc_node(xas, gfp) == 0;
	return xas_nomem(xas, gfp);
}

/**
 * xa_ext_replace() - store an entry and hand back the one it replaced
 * @xa:    the array
 * @index: the index
 * @entry: the new entry, not NULL
 * @gfp:   allocation flags for tree nodes
 * @occ:   occupancy callbacks, or NULL
 * @old:   out: the replaced entry, or NULL
 *
 * Context: may sleep if @gfp allows; takes and releases xa_lock.
 * Return: 0; -EBUSY if @occ->first refused; -ENOMEM if no node could be
 * allocated.  On error nothing was stored and *@old is NULL.
 */
int xa_ext_replace(struct xarray *xa, unsigned long index, void *entry,
		   gfp_t gfp, const struct xa_ext_occupancy *occ, void **old)
{
	XA_STATE(xas, xa, index);
	bool took_first;

	do {
		took_first = false;
		*old = NULL;
		xas_lock(&xas);
		if (occ && xa_empty(xa)) {
			if (!occ->first(xa)) {
				xas_unlock(&xas);
				return -EBUSY;
			}
			took_first = true;
		}
		*old = xas_store(&xas, entry);
		if (xas_error(&xas)) {
			*old = NULL;
			if (took_first)
				occ->last(xa);
		}
		xas_unlock(&xas);
	} while (xa_ext_retry(&xas, gfp));

	return xas_error(&xas);
}
EXPORT_SYMBOL_NS_GPL(xa_ext_replace, ZCACHE_INTERNAL);
/* fail_function may make it fail: the caller's -ENOMEM path. */
ALLOW_ERROR_INJECTION(xa_ext_replace, ERRNO);

/**
 * xa_ext_erase() - erase an entry, taking the lock only if there is one
 * @xa:    the array
 * @index: the index
 * @occ:   occupancy callbacks, or NULL
 *
 * Context: any that may take xa_lock; never sleeps.
 * Return: the erased entry, or NULL if @index held none.
 */
void *xa_ext_erase(struct xarray *xa, unsigned long index,
		   const struct xa_ext_occupancy *occ)
{
	XA_STATE(xas, xa, index);
	void *entry;

	if (!xa_load(xa, index))
		return NULL;

	xas_lock(&xas);
	entry = xas_load(&xas);
	if (entry) {
		xas_store(&xas, NULL);
		if (occ && xa_empty(xa))
			occ->last(xa);
	}
	xas_unlock(&xas);
	return entry;
}
EXPORT_SYMBOL_NS_GPL(xa_ext_erase, ZCACHE_INTERNAL);

/**
 * xa_ext_drain() - erase every entry, handing each to @release
 * @xa:      the array
 * @release: called for each entry, under xa_lock
 * @arg:     passed to @release
 * @occ:     occupancy callbacks, or NULL
 *
 * Context: any that may take xa_lock; never sleeps; takes no lock if
 * @xa is empty.
 * Return: how many entries were erased.
 */
unsigned long xa_ext_drain(struct xarray *xa,
			   void (*release)(void *entry, void *arg), void *arg,
			   const struct xa_ext_occupancy *occ)
{
	XA_STATE(xas, xa, 0);
	unsigned long erased = 0;
	void *entry;

	/* The usual case (swapoff after every slot was freed) takes no lock. */
	if (xa_empty(xa))
		return 0;

	xas_lock(&xas);
	xas_for_each(&xas, entry, ULONG_MAX) {
		xas_store(&xas, NULL);
		release(entry, arg);
		erased++;
	}
	if (erased && occ)
		occ->last(xa);
	xas_unlock(&xas);
	return erased;
}
EXPORT_SYMBOL_NS_GPL(xa_ext_drain, ZCACHE_INTERNAL);

/* Levels of a tree that indexes an unsigned long */
#define XA_EXT_MAX_LEVELS	DIV_ROUND_UP(BITS_PER_LONG, XA_CHUNK_SHIFT)

/**
 * xa_ext_count_nodes() - the number of nodes an XArray is made of
 * @xa: the array
 *
 * Entries are walked in index order under RCU, so all the entries below a
 * node are met in one run: remembering the last node met at each level is
 * enough to count every node once.  Exact for an array that does not
 * change during the walk, an estimate otherwise.
 *
 * Context: process context, may sleep; takes the RCU read lock.
 * Return: how many struct xa_node the array holds.
 */
unsigned long xa_ext_count_nodes(struct xarray *xa)
{
	struct xa_node *seen[XA_EXT_MAX_LEVELS] = { };
	XA_STATE(xas, xa, 0);
	unsigned long nodes = 0, walked = 0;
	struct xa_node *node;
	void *entry;

	rcu_read_lock();
	xas_for_each(&xas, entry, ULONG_MAX) {
		if (xas_retry(&xas, entry))
			continue;
		for (node = xas.xa_node; node; node = xa_parent(xa, node)) {
			unsigned int level = node->shift / XA_CHUNK_SHIFT;

			if (WARN_ON_ONCE(level >= XA_EXT_MAX_LEVELS) ||
			    seen[level] == node)
				break;
			seen[level] = node;
			nodes++;
		}
		if (++walked % XA_CHECK_SCHED)
			continue;
		xas_pause(&xas);
		rcu_read_unlock();
		cond_resched();
		rcu_read_lock();
	}
	rcu_read_unlock();
	return nodes;
}
EXPORT_SYMBOL_NS_GPL(xa_ext_count_nodes, ZCACHE_INTERNAL);
