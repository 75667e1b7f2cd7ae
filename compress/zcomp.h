/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Zcache's narrow interface to the crypto API
 *
 * Algorithms are known by a small id that fits in the object header, so
 * every stored object says how it was compressed.  Each CPU has one
 * context: a scratch buffer and a transform per algorithm in use, and they
 * exist only while the CPU is online (CPU hotplug callbacks create them
 * before a CPU runs anything and free them after it is dead).  An
 * algorithm's transforms exist from zcomp_prepare() to the matching
 * zcomp_release(): the users count their references, and it is theirs to
 * release an algorithm only when no stored object still needs it.  A
 * synchronous algorithm is called directly and never sleeps; an
 * asynchronous one goes through acomp and may (zcomp_sleepable()).
 */
#ifndef _ZCACHE_ZCOMP_H
#define _ZCACHE_ZCOMP_H

#include <linux/types.h>

struct page;
struct zcomp_cpu;

/* Ids must fit in ZCACHE_HDR_COMP (3 bits) */
#define ZCOMP_MAX_ALGS	8
#define ZCOMP_NAME_MAX	16
/*
 * zcomp_compress() writes after the first ZCOMP_HEADROOM bytes of the
 * context's buffer: the caller's header goes in front of the data, and
 * the two are stored in one piece.
 */
#define ZCOMP_HEADROOM	8

int zcomp_init(void);
void zcomp_exit(void);

int zcomp_lookup(const char *name);
const char *zcomp_name(int id);
bool zcomp_available(int id);
int zcomp_prepare(int id);
void zcomp_release(int id);
void zcomp_prefer_acomp(bool acomp);
bool zcomp_ready(int id);
unsigned int zcomp_nr_contexts(int id);

struct zcomp_cpu *zcomp_cpu_get(void);
void zcomp_cpu_put(struct zcomp_cpu *zc);
void zcomp_cpu_sync(void);
u8 *zcomp_cpu_buffer(struct zcomp_cpu *zc);
bool zcomp_sleepable(struct zcomp_cpu *zc, int id);
int zcomp_compress(struct zcomp_cpu *zc, int id, struct page *page,
		   unsigned int *dlen);
int zcomp_decompress(struct zcomp_cpu *zc, int id, const u8 *src,
		     unsigned int slen, struct page *page);
bool zcomp_looks_incompressible(struct zcomp_cpu *zc, const u8 *src);

#endif /* _ZCACHE_ZCOMP_H */
