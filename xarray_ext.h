/* SPDX-License-Identifier: GPL-2.0 */
/*
 * XArray helpers for an index that pins its owner
 *
 * An index that is not empty holds a reference on something (zcache holds
 * its module) and drops it when it becomes empty again.  The helpers keep
 * that occupancy and the array's content consistent by deciding both
 * under the array's lock.
 */
#ifndef _ZCACHE_XARRAY_EXT_H
#define _ZCACHE_XARRAY_EXT_H

#include <linux/xarray.h>

/**
 * struct xa_ext_occupancy - callbacks on an array's empty transitions
 * @first: called under xa_lock before the first entry goes in; returning
 *         false refuses the store
 * @last:  called under xa_lock after the last entry went out
 */
struct xa_ext_occupancy {
	bool (*first)(struct xarray *xa);
	void (*last)(struct xarray *xa);
};

int xa_ext_replace(struct xarray *xa, unsigned long index, void *entry,
		   gfp_t gfp, const struct xa_ext_occupancy *occ, void **old);
void *xa_ext_erase(struct xarray *xa, unsigned long index,
		   const struct xa_ext_occupancy *occ);
unsigned long xa_ext_drain(struct xarray *xa,
			   void (*release)(void *entry, void *arg), void *arg,
			   const struct xa_ext_occupancy *occ);
unsigned long xa_ext_count_nodes(struct xarray *xa);

#endif /* _ZCACHE_XARRAY_EXT_H */
