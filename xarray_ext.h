/* SPDX-License-Identifier: GPL-2.0 */
/*
 * XArray helpers for an index that pins its owner
 *
 * An index that holds entries holds a reference on something (zcache holds
 * its module) and drops it when it holds none again.  The helpers count
 * the entries under the array's lock and report the 0 -> 1 and 1 -> 0
 * transitions of that count, never whether the array has nodes: a failed
 * insert can leave empty nodes behind, and a reserved slot is a node
 * holding no entry.
 *
 * Entries other than value entries also carry a generation, as an XArray
 * mark (XA_EXT_GEN_0 or XA_EXT_GEN_1): an entry is young when stored, and
 * becomes old when the index flips its generations, which it does once no
 * old entry is left.  An entry may also be stored to go first
 * (XA_EXT_FIRST): xa_ext_find_first() finds it until it is made young or
 * replaced by an entry not stored to go first.
 * Marks cost no memory beyond the bits every node has.
 */
#ifndef _ZCACHE_XARRAY_EXT_H
#define _ZCACHE_XARRAY_EXT_H

#include <linux/xarray.h>

struct xa_ext;

/* The two generation marks, and the mark of the entries to go first */
#define XA_EXT_GEN_0	XA_MARK_0
#define XA_EXT_GEN_1	XA_MARK_1
#define XA_EXT_FIRST	XA_MARK_2

/**
 * struct xa_ext_occupancy - callbacks on an index's empty transitions
 * @first: called under xa_lock before the first entry goes in; returning
 *         false refuses the store
 * @last:  called under xa_lock after the last entry went out
 */
struct xa_ext_occupancy {
	bool (*first)(struct xa_ext *xe);
	void (*last)(struct xa_ext *xe);
};

/**
 * struct xa_ext - an XArray that counts the entries it holds
 * @xa:         the array
 * @nr_entries: entries held, reserved slots not included; written under
 *              xa_lock, may be read locklessly with xa_ext_entries()
 * @occ:        occupancy callbacks, or NULL
 * @young:      1 if XA_EXT_GEN_1 marks the young generation, 0 if
 *              XA_EXT_GEN_0 does; written under xa_lock
 */
struct xa_ext {
	struct xarray xa;
	unsigned long nr_entries;
	const struct xa_ext_occupancy *occ;
	unsigned int young;
};

void xa_ext_init(struct xa_ext *xe, const struct xa_ext_occupancy *occ);
void xa_ext_destroy(struct xa_ext *xe);
int xa_ext_reserve(struct xa_ext *xe, unsigned long index, gfp_t gfp);
int xa_ext_replace(struct xa_ext *xe, unsigned long index, void *entry,
		   bool first, gfp_t gfp, void **old);
void *xa_ext_erase(struct xa_ext *xe, unsigned long index);
void *xa_ext_remove(struct xa_ext *xe, unsigned long index);
unsigned long xa_ext_drain(struct xa_ext *xe,
			   void (*release)(void *entry, void *arg), void *arg);
unsigned long xa_ext_count_nodes(struct xa_ext *xe);
void *xa_ext_find_from(struct xa_ext *xe, unsigned long *index);
void *xa_ext_find_first(struct xa_ext *xe, unsigned long *index);
void *xa_ext_find_old(struct xa_ext *xe, unsigned long *index);
bool xa_ext_make_young(struct xa_ext *xe, unsigned long index, void *entry);
bool xa_ext_remove_entry(struct xa_ext *xe, unsigned long index,
			 void *entry);

/**
 * xa_ext_load() - the entry at an index, locklessly
 * @xe:    the index
 * @index: the index
 *
 * A reserved slot reads as NULL.
 *
 * Context: any; takes the RCU read lock.
 * Return: the entry, or NULL.
 */
static inline void *xa_ext_load(struct xa_ext *xe, unsigned long index)
{
	return xa_load(&xe->xa, index);
}

/**
 * xa_ext_entries() - how many entries an index holds
 * @xe: the index
 *
 * Context: any.  Without xa_lock the value may be stale by the time the
 * caller looks at it.
 * Return: the number of entries, reserved slots not included.
 */
static inline unsigned long xa_ext_entries(const struct xa_ext *xe)
{
	return READ_ONCE(xe->nr_entries);
}

#endif /* _ZCACHE_XARRAY_EXT_H */
