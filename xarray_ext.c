// SPDX-License-Identifier: GPL-2.0
/*
 * XArray helpers for zcache's swap offset index
 *
 * Loads are lockless.  Erase looks the index up locklessly first and takes
 * the lock only if something is there, then looks again under the lock:
 * most invalidations in a swap workload are for slots the cache never
 * held, and those cost one RCU walk and no lock.
 *
 * Every change of the entry count happens under the lock, and so do the
 * occupancy callbacks on its 0 -> 1 and 1 -> 0 transitions: a reference
 * held while the index holds entries is exact.  The count, not the shape
 * of the tree, decides: an insert whose node allocation fails part way
 * leaves empty nodes linked, and a reserved slot (XA_ZERO_ENTRY) is a
 * node with no entry; neither is counted, and xa_ext_destroy() frees what
 * is left.
 *
 * Generations: xa_ext_replace() marks what it stores young and clears the
 * old mark; erasing an entry clears its marks (xas_store(NULL) does).
 * xa_ext_find_old() hands out old entries and flips the generations once
 * none is left, so that the entries stored since the last flip become the
 * old ones.  An entry stored to go first also carries XA_EXT_FIRST, which
 * xa_ext_find_first() looks for, until it is made young (its second
 * chance, as an old entry's) or replaced by an entry not stored to go
 * first.  Value entries are never marked: they cost nothing to keep.
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

static inline xa_mark_t xa_ext_gen(unsigned int young)
{
	return young ? XA_EXT_GEN_1 : XA_EXT_GEN_0;
}

/*
 * Make the entry at @xas young, under xa_lock, and no longer one to go
 * first; a value entry has no mark.
 */
static void xa_ext_mark_young(struct xa_ext *xe, struct xa_state *xas,
			      void *entry)
{
	if (xa_is_value(entry))
		xas_clear_mark(xas, xa_ext_gen(xe->young));
	else
		xas_set_mark(xas, xa_ext_gen(xe->young));
	xas_clear_mark(xas, xa_ext_gen(!xe->young));
	xas_clear_mark(xas, XA_EXT_FIRST);
}

static void xa_ext_get(struct xa_ext *xe)
{
	WRITE_ONCE(xe->nr_entries, xe->nr_entries + 1);
}

/* One entry went out, under xa_lock: the last one calls @occ->last. */
static void xa_ext_put(struct xa_ext *xe)
{
	WRITE_ONCE(xe->nr_entries, xe->nr_entries - 1);
	if (!xe->nr_entries && xe->occ)
		xe->occ->last(xe);
}

/**
 * xa_ext_init() - initialise an empty index
 * @xe:  the index
 * @occ: occupancy callbacks, or NULL
 *
 * Context: any.
 */
void xa_ext_init(struct xa_ext *xe, const struct xa_ext_occupancy *occ)
{
	xa_init(&xe->xa);
	xe->nr_entries = 0;
	xe->occ = occ;
	xe->young = 0;
}
EXPORT_SYMBOL_NS_GPL(xa_ext_init, ZCACHE_NS);

/**
 * xa_ext_destroy() - free what is left of an index that holds no entry
 * @xe: the index
 *
 * Frees the nodes a failed insert or a reservation left behind.  The
 * caller has drained the index: an entry still held is a bug, and is
 * leaked rather than freed without its owner's @release.
 *
 * Context: process context; no other user of @xe is left.
 */
void xa_ext_destroy(struct xa_ext *xe)
{
	if (WARN_ON_ONCE(xe->nr_entries))
		return;
	xa_destroy(&xe->xa);
}
EXPORT_SYMBOL_NS_GPL(xa_ext_destroy, ZCACHE_NS);

/**
 * xa_ext_reserve() - make sure a slot exists before its entry is ready
 * @xe:    the index
 * @index: the index
 * @gfp:   allocation flags for tree nodes
 *
 * An empty slot gets a reservation (XA_ZERO_ENTRY), which lockless loads
 * read as NULL and which no count includes; a slot that holds an entry is
 * left alone.  Either way a later xa_ext_replace() at @index allocates
 * nothing.  xa_ext_remove() takes a reservation back.
 *
 * Context: may sleep if @gfp allows; takes and releases xa_lock.
 * Return: 0, or -ENOMEM if no node could be allocated.
 */
int xa_ext_reserve(struct xa_ext *xe, unsigned long index, gfp_t gfp)
{
	XA_STATE(xas, &xe->xa, index);

	do {
		xas_lock(&xas);
		if (!xas_load(&xas))
			xas_store(&xas, XA_ZERO_ENTRY);
		xas_unlock(&xas);
	} while (xa_ext_retry(&xas, gfp));

	return xas_error(&xas);
}
EXPORT_SYMBOL_NS_GPL(xa_ext_reserve, ZCACHE_NS);
/* fail_function may make it fail: the store is refused before compressing. */
ALLOW_ERROR_INJECTION(xa_ext_reserve, ERRNO);

/**
 * xa_ext_replace() - store an entry and hand back the one it replaced
 * @xe:    the index
 * @index: the index
 * @entry: the new entry, neither NULL nor an internal entry
 * @first: store the entry to go first (xa_ext_find_first() finds it);
 *         ignored for a value entry
 * @gfp:   allocation flags for tree nodes
 * @old:   out: the replaced entry, or NULL
 *
 * The new entry is young, whatever the old one was (a value entry has no
 * generation), and goes first only if @first says so.  Replacing a
 * reservation or an empty slot adds an entry to the count;
 * if it is the first, @xe->occ->first is asked before it goes in.  A
 * failed node allocation leaves the count as it was, whatever empty nodes
 * it left behind.
 *
 * Context: may sleep if @gfp allows; takes and releases xa_lock.
 * Return: 0; -EBUSY if @xe->occ->first refused; -ENOMEM if no node could
 * be allocated.  On error nothing was stored and *@old is NULL.
 */
int xa_ext_replace(struct xa_ext *xe, unsigned long index, void *entry,
		   bool first, gfp_t gfp, void **old)
{
	const struct xa_ext_occupancy *occ = xe->occ;
	XA_STATE(xas, &xe->xa, index);
	bool took_first;
	void *curr;

	do {
		took_first = false;
		*old = NULL;
		xas_lock(&xas);
		curr = xas_load(&xas);
		if (xa_is_zero(curr))
			curr = NULL;
		if (!curr && !xe->nr_entries && occ) {
			if (!occ->first(xe)) {
				xas_unlock(&xas);
				return -EBUSY;
			}
			took_first = true;
		}
		xas_store(&xas, entry);
		if (xas_error(&xas)) {
			if (took_first)
				occ->last(xe);
			xas_unlock(&xas);
			continue;
		}
		xa_ext_mark_young(xe, &xas, entry);
		if (first && !xa_is_value(entry))
			xas_set_mark(&xas, XA_EXT_FIRST);
		if (curr)
			*old = curr;
		else
			xa_ext_get(xe);
		xas_unlock(&xas);
	} while (xa_ext_retry(&xas, gfp));

	return xas_error(&xas);
}
EXPORT_SYMBOL_NS_GPL(xa_ext_replace, ZCACHE_NS);
/* fail_function may make it fail: the caller's -ENOMEM path. */
ALLOW_ERROR_INJECTION(xa_ext_replace, ERRNO);

/*
 * Erase the entry at @index under the lock; a reservation too if
 * @reservation, else it is left alone.
 */
static void *__xa_ext_remove(struct xa_ext *xe, unsigned long index,
			     bool reservation)
{
	XA_STATE(xas, &xe->xa, index);
	void *entry;

	xas_lock(&xas);
	entry = xas_load(&xas);
	if (entry && (reservation || !xa_is_zero(entry))) {
		xas_store(&xas, NULL);
		if (xa_is_zero(entry))
			entry = NULL;
		else
			xa_ext_put(xe);
	} else {
		entry = NULL;
	}
	xas_unlock(&xas);
	return entry;
}

/**
 * xa_ext_remove() - erase an entry or a reservation with one locked walk
 * @xe:    the index
 * @index: the index
 *
 * Context: any that may take xa_lock; never sleeps.
 * Return: the erased entry, or NULL if @index held none (a reservation
 * is taken back and reads as NULL).
 */
void *xa_ext_remove(struct xa_ext *xe, unsigned long index)
{
	return __xa_ext_remove(xe, index, true);
}
EXPORT_SYMBOL_NS_GPL(xa_ext_remove, ZCACHE_NS);

/**
 * xa_ext_erase() - erase an entry, taking the lock only if there is one
 * @xe:    the index
 * @index: the index
 *
 * A reservation is left alone: it belongs to a store in flight.
 *
 * Context: any that may take xa_lock; never sleeps.
 * Return: the erased entry, or NULL if @index held none.
 */
void *xa_ext_erase(struct xa_ext *xe, unsigned long index)
{
	if (!xa_load(&xe->xa, index))
		return NULL;
	return __xa_ext_remove(xe, index, false);
}
EXPORT_SYMBOL_NS_GPL(xa_ext_erase, ZCACHE_NS);

/**
 * xa_ext_drain() - erase every entry, handing each to @release
 * @xe:      the index
 * @release: called for each entry, under xa_lock
 * @arg:     passed to @release
 *
 * Reservations are taken back too.  The lock is dropped every
 * XA_CHECK_SCHED removals to reschedule, and the walk then starts again
 * from 0: xas_pause() after an erase that freed a node would resume past
 * entries not yet met.  A walk that ended early because the tree shrank
 * is followed by another while entries are left and the last walk
 * removed something (an entry or a reservation).
 *
 * Context: process context, may sleep; takes no lock if @xe holds
 * nothing.
 * Return: how many entries were erased.
 */
unsigned long xa_ext_drain(struct xa_ext *xe,
			   void (*release)(void *entry, void *arg), void *arg)
{
	XA_STATE(xas, &xe->xa, 0);
	unsigned long erased = 0, removed;
	void *entry;

	/* The usual case (swapoff after every slot was freed) takes no lock. */
	if (xa_empty(&xe->xa))
		return 0;

	xas_lock(&xas);
	do {
		/* Entries and reservations: a walk that removed none ends it. */
		removed = 0;
		xas_set(&xas, 0);
		xas_for_each(&xas, entry, ULONG_MAX) {
			xas_store(&xas, NULL);
			if (!xa_is_zero(entry)) {
				xa_ext_put(xe);
				release(entry, arg);
				erased++;
			}
			if (++removed % XA_CHECK_SCHED)
				continue;
			xas_unlock(&xas);
			cond_resched();
			xas_lock(&xas);
			xas_set(&xas, 0);
		}
	} while (removed && xe->nr_entries);
	xas_unlock(&xas);
	return erased;
}
EXPORT_SYMBOL_NS_GPL(xa_ext_drain, ZCACHE_NS);

/* Levels of a tree that indexes an unsigned long */
#define XA_EXT_MAX_LEVELS	DIV_ROUND_UP(BITS_PER_LONG, XA_CHUNK_SHIFT)

/**
 * xa_ext_count_nodes() - the number of nodes an index is made of
 * @xe: the index
 *
 * Entries are walked in index order under RCU, so all the entries below a
 * node are met in one run: remembering the last node met at each level is
 * enough to count every node once.  A node that holds no entry (left by a
 * failed insert) is not met.  Exact for an array that does not change
 * during the walk, an estimate otherwise.
 *
 * Context: process context, may sleep; takes the RCU read lock.
 * Return: how many struct xa_node the array holds.
 */
unsigned long xa_ext_count_nodes(struct xa_ext *xe)
{
	struct xa_node *seen[XA_EXT_MAX_LEVELS] = { };
	struct xarray *xa = &xe->xa;
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
EXPORT_SYMBOL_NS_GPL(xa_ext_count_nodes, ZCACHE_NS);

/* The first entry marked @mark (XA_PRESENT: any) from *@index on, wrapping */
static void *xa_ext_find_wrap(struct xa_ext *xe, unsigned long *index,
			      xa_mark_t mark)
{
	unsigned long start = *index, i = start;
	void *entry;

	entry = xa_find(&xe->xa, &i, ULONG_MAX, mark);
	if (!entry && start) {
		i = 0;
		entry = xa_find(&xe->xa, &i, start - 1, mark);
	}
	if (entry)
		*index = i;
	return entry;
}

/**
 * xa_ext_find_from() - the next entry, from a cursor on
 * @xe:    the index
 * @index: in: where to start looking; out: the index of the entry found
 *
 * Looks from *@index to the end, then from the start; reservations are
 * not entries.  The entry may be gone by the time the caller looks at it.
 *
 * Context: any; takes the RCU read lock.
 * Return: an entry, or NULL if the index holds none.
 */
void *xa_ext_find_from(struct xa_ext *xe, unsigned long *index)
{
	return xa_ext_find_wrap(xe, index, XA_PRESENT);
}
EXPORT_SYMBOL_NS_GPL(xa_ext_find_from, ZCACHE_NS);

/**
 * xa_ext_find_first() - the next entry stored to go first, from a cursor on
 * @xe:    the index
 * @index: in: where to start looking; out: the index of the entry found
 *
 * Looks from *@index to the end, then from the start, for an entry that
 * xa_ext_replace() stored with @first and that has not been made young
 * (or replaced by an entry stored without it) since.  The entry may be
 * gone, or replaced, by the time the caller looks at it;
 * xa_ext_remove_entry() tells.
 *
 * Context: any; takes the RCU read lock.
 * Return: such an entry, or NULL if there is none.
 */
void *xa_ext_find_first(struct xa_ext *xe, unsigned long *index)
{
	return xa_ext_find_wrap(xe, index, XA_EXT_FIRST);
}
EXPORT_SYMBOL_NS_GPL(xa_ext_find_first, ZCACHE_NS);

/**
 * xa_ext_find_old() - the next old entry, from a cursor on
 * @xe:    the index
 * @index: in: where to start looking; out: the index of the entry found
 *
 * Looks from *@index to the end, then from the start.  If no old entry is
 * left the generations flip, under xa_lock, unless an old entry appeared
 * meanwhile: the young entries become old, and the next call finds them.
 * The entry returned may be gone, or replaced, by the time the caller
 * looks at it; xa_ext_remove_entry() tells.
 *
 * Context: any that may take xa_lock; never sleeps.
 * Return: an old entry, or NULL if there was none (the generations have
 * flipped, or the index is empty).
 */
void *xa_ext_find_old(struct xa_ext *xe, unsigned long *index)
{
	void *entry;

	entry = xa_ext_find_wrap(xe, index, xa_ext_gen(!READ_ONCE(xe->young)));
	if (entry)
		return entry;

	xa_lock(&xe->xa);
	if (!xa_marked(&xe->xa, xa_ext_gen(!xe->young)))
		WRITE_ONCE(xe->young, !xe->young);
	xa_unlock(&xe->xa);
	return NULL;
}
EXPORT_SYMBOL_NS_GPL(xa_ext_find_old, ZCACHE_NS);

/**
 * xa_ext_make_young() - give an entry a second chance
 * @xe:    the index
 * @index: the index
 * @entry: the entry expected there
 *
 * Context: any that may take xa_lock; never sleeps.
 * Return: true if @index still held @entry, which is now young, and no
 * longer goes first.
 */
bool xa_ext_make_young(struct xa_ext *xe, unsigned long index, void *entry)
{
	XA_STATE(xas, &xe->xa, index);
	bool found;

	xas_lock(&xas);
	found = xas_load(&xas) == entry;
	if (found)
		xa_ext_mark_young(xe, &xas, entry);
	xas_unlock(&xas);
	return found;
}
EXPORT_SYMBOL_NS_GPL(xa_ext_make_young, ZCACHE_NS);

/**
 * xa_ext_remove_entry() - erase an entry if it is still the one expected
 * @xe:    the index
 * @index: the index
 * @entry: the entry expected there, not NULL
 *
 * Context: any that may take xa_lock; never sleeps.
 * Return: true if @entry was erased; false if @index held anything else.
 */
bool xa_ext_remove_entry(struct xa_ext *xe, unsigned long index,
			 void *entry)
{
	XA_STATE(xas, &xe->xa, index);
	bool found;

	xas_lock(&xas);
	found = entry && xas_load(&xas) == entry;
	if (found) {
		xas_store(&xas, NULL);
		xa_ext_put(xe);
	}
	xas_unlock(&xas);
	return found;
}
EXPORT_SYMBOL_NS_GPL(xa_ext_remove_entry, ZCACHE_NS);
