// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU compression contexts over the crypto API
 *
 * One struct zcomp_cpu per possible CPU holds a mutex, a scratch buffer of
 * two pages and one transform per algorithm in use; the buffer and the
 * transforms exist only while the CPU is online.  A caller takes its CPU's
 * context with zcomp_cpu_get(), which may sleep, and then compresses into
 * the scratch buffer, or decompresses a stored object.  The mutex, not
 * preemption, keeps the context private, so the acomp drivers may sleep
 * and the code is the same on PREEMPT_RT.
 *
 * Two interfaces of the crypto API, chosen per algorithm when it is first
 * prepared.  Where the kernel has a synchronous implementation (crypto_comp:
 * in software, every algorithm zcache knows, on 6.1 and 6.12) and no
 * asynchronous (hardware) one, zcache calls it directly on buffers, as
 * zram does on 6.1: the compressor reads the page through a local mapping
 * and writes the scratch buffer, and decompresses straight from the
 * allocator's mapping into the page, since it never sleeps.  The acomp
 * interface over the same compressor costs copies: on 6.1, the scomp layer
 * copies the input into its per-CPU scratch, compresses into a second
 * scratch and copies the result out, in each direction (6.12 skips them
 * for a single lowmem entry only).  An algorithm with an asynchronous
 * implementation, or one with no crypto_comp at all, goes through acomp,
 * which may sleep: zcomp_sleepable() tells the caller which it is.  Later
 * kernels (7.3) have no crypto_comp: there every algorithm goes through
 * acomp, which takes the data where it lies (a single-page source, a
 * virtual address) and copies nothing.
 * zcomp_prefer_acomp() makes the algorithms prepared afterwards use acomp
 * all the same, for the self-test and to measure what the copies cost.
 *
 * CPU hotplug, as in mm/zswap.c and drivers/block/zram/zcomp.c: two
 * dynamic multi-instance states of the PREPARE section, whose callbacks
 * run in process context on a control CPU, before a CPU comes up and
 * after it is dead.  The scratch buffers are the only instance of one
 * state, the algorithms in use are the instances of the other (each added
 * by zcomp_prepare() and removed by zcomp_release()).  The hotplug core
 * brings a CPU's states up in ascending order and down in descending
 * order, so the buffers are the state with the higher number: a CPU's
 * buffer exists only while every algorithm in use has its transform on
 * that CPU, and zcomp_cpu_get() hands out only a context whose buffer it
 * finds, under the context's mutex.  Every callback that frees takes that
 * mutex, so a context is never freed under its user; a task that picked a
 * CPU's context and was migrated off it before the CPU died finds the
 * buffer gone and takes its new CPU's context instead (mm/zswap.c of 6.12
 * does the same with its request).
 *
 * Lock order: zcomp_prepare_lock > cpu_hotplug_lock > zcomp_cpu.lock >
 * (allocator locks).  Allocations are made before taking zcomp_cpu.lock:
 * they may reclaim, and reclaim may store a page and take a context.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <crypto/acompress.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/crypto.h>
#include <linux/error-injection.h>
#include <linux/export.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "zcomp.h"

/*********************************
 * data structures
 *********************************/
/**
 * struct zcomp_alg - one algorithm's transform on one CPU
 * @comp:	the synchronous transform, if the algorithm is synchronous
 * @tfm:	otherwise the acomp transform
 * @req:	and its request, reused for every call
 */
struct zcomp_alg {
	struct crypto_comp *comp;
	struct crypto_acomp *tfm;
	struct acomp_req *req;
};

/**
 * struct zcomp_cpu - one CPU's compression context
 * @lock:	serialises users of this context; they may sleep
 * @wait:	completion for asynchronous acomp drivers
 * @buffer:	scratch, 2 * PAGE_SIZE: compressors may overrun one page;
 *		NULL while the CPU is not online: the context is not usable
 * @alg:	per algorithm id; NULL while the algorithm is not in use or
 *		the CPU is not online
 */
struct zcomp_cpu {
	struct mutex lock;	/* serialises users of this context */
	struct crypto_wait wait;
	u8 *buffer;
	struct zcomp_alg alg[ZCOMP_MAX_ALGS];
};

/**
 * struct zcomp_inst - an algorithm's instance of the hotplug state
 * @node:	in the state's list of instances while the algorithm is in use
 * @id:		the algorithm
 */
struct zcomp_inst {
	struct hlist_node node;
	int id;
};

/*
 * The algorithms zcache knows, by id.  The id is stored in every object:
 * never reorder this table, only append.
 */
static const char * const zcomp_names[ZCOMP_MAX_ALGS] = {
	"lzo", "lzo-rle", "lz4", "lz4hc", "zstd", "deflate", "842",
};

static struct zcomp_cpu __percpu *zcomp_cpus;
static DEFINE_MUTEX(zcomp_prepare_lock);
static unsigned long zcomp_prepared;	/* bitmap of ids, read locklessly */
/* Ids that use crypto_comp: set before an algorithm's transforms exist */
static unsigned long zcomp_sync_ids;
/* zcomp_prefer_acomp(), under zcomp_prepare_lock */
static bool zcomp_acomp_preferred;
/* References taken by zcomp_prepare(), under zcomp_prepare_lock */
static unsigned int zcomp_users[ZCOMP_MAX_ALGS];

/* The two hotplug states (see the top of this file) and their instances */
static int zcomp_algs_state = -1;
static int zcomp_buffers_state = -1;
static struct zcomp_inst zcomp_insts[ZCOMP_MAX_ALGS];
static struct hlist_node zcomp_buffers_node;

/*********************************
 * the synchronous interface
 *********************************/
/*
 * crypto_comp is gone from later kernels (7.3 has none; Kbuild's feature
 * test ZCACHE_HAVE_CRYPTO_COMP): there no algorithm is synchronous to
 * zcache, and every one goes through acomp.
 */
#ifdef ZCACHE_HAVE_CRYPTO_COMP
static bool zcomp_sync_exists(const char *name)
{
	return crypto_has_comp(name, 0, 0);
}

static struct crypto_comp *zcomp_sync_alloc(const char *name)
{
	return crypto_alloc_comp(name, 0, 0);
}

static void zcomp_sync_free(struct crypto_comp *comp)
{
	crypto_free_comp(comp);
}

static int zcomp_sync_compress(struct crypto_comp *comp, const u8 *src,
			       unsigned int slen, u8 *dst, unsigned int *dlen)
{
	return crypto_comp_compress(comp, src, slen, dst, dlen);
}

static int zcomp_sync_decompress(struct crypto_comp *comp, const u8 *src,
				 unsigned int slen, u8 *dst,
				 unsigned int *dlen)
{
	return crypto_comp_decompress(comp, src, slen, dst, dlen);
}
#else
static bool zcomp_sync_exists(const char *name)
{
	return false;
}

static struct crypto_comp *zcomp_sync_alloc(const char *name)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static void zcomp_sync_free(struct crypto_comp *comp)
{
}

static int zcomp_sync_compress(struct crypto_comp *comp, const u8 *src,
			       unsigned int slen, u8 *dst, unsigned int *dlen)
{
	return -EOPNOTSUPP;
}

static int zcomp_sync_decompress(struct crypto_comp *comp, const u8 *src,
				 unsigned int slen, u8 *dst,
				 unsigned int *dlen)
{
	return -EOPNOTSUPP;
}
#endif

/*********************************
 * algorithms
 *********************************/
/**
 * zcomp_lookup() - the id of a known algorithm
 * @name: algorithm name, e.g. "lz4"
 *
 * Context: any.
 * Return: the id, or -EINVAL if zcache does not know the name.
 */
int zcomp_lookup(const char *name)
{
	int id;

	for (id = 0; id < ZCOMP_MAX_ALGS; id++)
		if (zcomp_names[id] && !strcmp(zcomp_names[id], name))
			return id;
	return -EINVAL;
}
EXPORT_SYMBOL_NS_GPL(zcomp_lookup, ZCACHE_NS);

/**
 * zcomp_name() - the name of an algorithm id
 * @id: a valid id
 *
 * Context: any.
 * Return: the name, or "?" for an id zcache does not know.
 */
const char *zcomp_name(int id)
{
	if (id < 0 || id >= ZCOMP_MAX_ALGS || !zcomp_names[id])
		return "?";
	return zcomp_names[id];
}
EXPORT_SYMBOL_NS_GPL(zcomp_name, ZCACHE_NS);

/**
 * zcomp_available() - whether the kernel offers an algorithm
 * @id: a valid id
 *
 * May load the algorithm's module through the crypto API.
 *
 * Context: process context, may sleep.
 * Return: true if a synchronous or an acomp implementation exists.
 */
bool zcomp_available(int id)
{
	return zcomp_sync_exists(zcomp_name(id)) ||
	       crypto_has_acomp(zcomp_name(id), 0, 0);
}
EXPORT_SYMBOL_NS_GPL(zcomp_available, ZCACHE_NS);

/**
 * zcomp_ready() - whether an algorithm's contexts exist on every online CPU
 * @id: a valid id
 *
 * Context: any.
 * Return: true from the success of zcomp_prepare(@id) until its last
 * reference is released.
 */
bool zcomp_ready(int id)
{
	return test_bit(id, &zcomp_prepared);
}
EXPORT_SYMBOL_NS_GPL(zcomp_ready, ZCACHE_NS);

/**
 * zcomp_nr_contexts() - on how many CPUs an algorithm has a transform
 * @id: a valid id
 *
 * For tests and diagnostics: with the algorithm in use, the number of
 * online CPUs; otherwise 0.
 *
 * Context: any; the answer may be stale once returned.
 * Return: the number of CPUs whose context holds a transform of @id.
 */
unsigned int zcomp_nr_contexts(int id)
{
	unsigned int n = 0;
	int cpu;

	if (id < 0 || id >= ZCOMP_MAX_ALGS || !zcomp_cpus)
		return 0;
	for_each_possible_cpu(cpu) {
		struct zcomp_alg *alg = &per_cpu_ptr(zcomp_cpus, cpu)->alg[id];

		if (READ_ONCE(alg->comp) || READ_ONCE(alg->tfm))
			n++;
	}
	return n;
}
EXPORT_SYMBOL_NS_GPL(zcomp_nr_contexts, ZCACHE_NS);

/*********************************
 * CPU hotplug callbacks
 *********************************/
static int zcomp_alg_alloc_sync(struct zcomp_cpu *zc, int id,
				unsigned int cpu)
{
	struct crypto_comp *comp;

	comp = zcomp_sync_alloc(zcomp_names[id]);
	if (IS_ERR(comp)) {
		pr_err("cannot allocate %s for CPU %u (%ld)\n",
		       zcomp_names[id], cpu, PTR_ERR(comp));
		return PTR_ERR(comp);
	}
	mutex_lock(&zc->lock);
	WRITE_ONCE(zc->alg[id].comp, comp);
	mutex_unlock(&zc->lock);
	return 0;
}

static int zcomp_alg_alloc(struct zcomp_cpu *zc, int id, unsigned int cpu)
{
	struct zcomp_alg *alg = &zc->alg[id];
	struct crypto_acomp *tfm;
	struct acomp_req *req;

	if (test_bit(id, &zcomp_sync_ids))
		return zcomp_alg_alloc_sync(zc, id, cpu);

	tfm = crypto_alloc_acomp_node(zcomp_names[id], 0, 0, cpu_to_node(cpu));
	if (IS_ERR(tfm)) {
		pr_err("cannot allocate %s for CPU %u (%ld)\n",
		       zcomp_names[id], cpu, PTR_ERR(tfm));
		return PTR_ERR(tfm);
	}
	req = acomp_request_alloc(tfm);
	if (!req) {
		pr_err("cannot allocate a %s request for CPU %u\n",
		       zcomp_names[id], cpu);
		crypto_free_acomp(tfm);
		return -ENOMEM;
	}
	acomp_request_set_callback(req, CRYPTO_TFM_REQ_MAY_BACKLOG,
				   crypto_req_done, &zc->wait);

	mutex_lock(&zc->lock);
	WRITE_ONCE(alg->tfm, tfm);
	alg->req = req;
	mutex_unlock(&zc->lock);
	return 0;
}

static void zcomp_alg_free(struct zcomp_cpu *zc, int id)
{
	struct zcomp_alg *alg = &zc->alg[id];
	struct crypto_acomp *tfm;
	struct crypto_comp *comp;
	struct acomp_req *req;

	/* Wait for the context's user, then free outside the mutex. */
	mutex_lock(&zc->lock);
	comp = alg->comp;
	tfm = alg->tfm;
	req = alg->req;
	WRITE_ONCE(alg->comp, NULL);
	WRITE_ONCE(alg->tfm, NULL);
	alg->req = NULL;
	mutex_unlock(&zc->lock);

	if (comp)
		zcomp_sync_free(comp);
	if (req)
		acomp_request_free(req);
	if (tfm)
		crypto_free_acomp(tfm);
}

static int zcomp_buffer_alloc(struct zcomp_cpu *zc, unsigned int cpu)
{
	u8 *buffer = kmalloc_node(PAGE_SIZE * 2, GFP_KERNEL, cpu_to_node(cpu));

	if (!buffer)
		return -ENOMEM;
	mutex_lock(&zc->lock);
	zc->buffer = buffer;
	mutex_unlock(&zc->lock);
	return 0;
}

static void zcomp_buffer_free(struct zcomp_cpu *zc)
{
	u8 *buffer;

	mutex_lock(&zc->lock);
	buffer = zc->buffer;
	zc->buffer = NULL;
	mutex_unlock(&zc->lock);
	kfree(buffer);
}

/*
 * Startup callback of both states: a CPU is coming up, or an instance is
 * being added while the CPU is up.  On failure the hotplug core undoes
 * what succeeded, and the CPU stays down or the instance is not added.
 */
static int zcomp_cpu_prepare(unsigned int cpu, struct hlist_node *node)
{
	struct zcomp_cpu *zc = per_cpu_ptr(zcomp_cpus, cpu);

	if (node == &zcomp_buffers_node)
		return zcomp_buffer_alloc(zc, cpu);
	return zcomp_alg_alloc(zc, hlist_entry(node, struct zcomp_inst, node)->id,
			       cpu);
}

/* Teardown callback of both states: a CPU is dead, or an instance goes. */
static int zcomp_cpu_dead(unsigned int cpu, struct hlist_node *node)
{
	struct zcomp_cpu *zc = per_cpu_ptr(zcomp_cpus, cpu);

	if (node == &zcomp_buffers_node)
		zcomp_buffer_free(zc);
	else
		zcomp_alg_free(zc, hlist_entry(node, struct zcomp_inst, node)->id);
	return 0;
}

/*********************************
 * algorithms in use
 *********************************/
/*
 * Whether @name has a synchronous implementation to call directly and no
 * asynchronous one (a hardware offload) that acomp would pick instead.
 * zcomp_sync_exists() loaded the algorithm's module if it has one; the
 * second lookup loads nothing (hardware drivers load by device).
 */
static bool zcomp_sync_available(const char *name)
{
	return zcomp_sync_exists(name) &&
	       !crypto_has_acomp(name, CRYPTO_ALG_ASYNC,
				 CRYPTO_ALG_ASYNC | CRYPTO_NOLOAD);
}

/**
 * zcomp_prepare() - take a reference on an algorithm, creating its contexts
 * @id: a valid id
 *
 * The first reference chooses the interface (see the top of this file)
 * and creates a transform of @id on every online CPU; until the last
 * reference is released, every CPU that comes online gets one too.  On
 * failure nothing of the algorithm is left allocated and no reference is
 * taken.
 *
 * Context: process context, may sleep; not under cpus_read_lock().
 * Return: 0, or a negative errno from the crypto API.
 */
int zcomp_prepare(int id)
{
	int ret = 0;

	if (id < 0 || id >= ZCOMP_MAX_ALGS || !zcomp_names[id])
		return -EINVAL;

	mutex_lock(&zcomp_prepare_lock);
	if (zcomp_users[id])
		goto take_ref;
	/* No transform of @id exists: the callbacks read this from now on. */
	if (!zcomp_acomp_preferred && zcomp_sync_available(zcomp_names[id]))
		set_bit(id, &zcomp_sync_ids);
	else
		clear_bit(id, &zcomp_sync_ids);
	ret = cpuhp_state_add_instance(zcomp_algs_state, &zcomp_insts[id].node);
	if (ret)
		goto unlock;
	/* Publish only after every online CPU has its transform. */
	smp_mb__before_atomic();
	set_bit(id, &zcomp_prepared);
take_ref:
	zcomp_users[id]++;
unlock:
	mutex_unlock(&zcomp_prepare_lock);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(zcomp_prepare, ZCACHE_NS);
/* fail_function may make it fail: the compressor switch is refused. */
ALLOW_ERROR_INJECTION(zcomp_prepare, ERRNO);

/**
 * zcomp_release() - drop a reference taken with zcomp_prepare()
 * @id: an algorithm the caller prepared
 *
 * The last reference frees the algorithm's transform on every CPU.  The
 * caller guarantees that nobody uses @id any more: no context holder is
 * about to compress or decompress with it (see zcomp_cpu_sync()).
 *
 * Context: process context, may sleep; not under cpus_read_lock().
 */
void zcomp_release(int id)
{
	if (id < 0 || id >= ZCOMP_MAX_ALGS)
		return;

	mutex_lock(&zcomp_prepare_lock);
	if (WARN_ON_ONCE(!zcomp_users[id]) || --zcomp_users[id])
		goto unlock;
	clear_bit(id, &zcomp_prepared);
	cpuhp_state_remove_instance(zcomp_algs_state, &zcomp_insts[id].node);
unlock:
	mutex_unlock(&zcomp_prepare_lock);
}
EXPORT_SYMBOL_NS_GPL(zcomp_release, ZCACHE_NS);

/**
 * zcomp_prefer_acomp() - use acomp even where a synchronous interface exists
 * @acomp: true to prefer acomp, false for the default choice
 *
 * For the self-test (acomp's path would otherwise not run on a kernel
 * whose compressors are all synchronous) and to measure what acomp's
 * copies cost.  It applies to the algorithms whose first reference is
 * taken afterwards; an algorithm in use keeps its interface.
 *
 * Context: process context, may sleep.
 */
void zcomp_prefer_acomp(bool acomp)
{
	mutex_lock(&zcomp_prepare_lock);
	zcomp_acomp_preferred = acomp;
	mutex_unlock(&zcomp_prepare_lock);
}
EXPORT_SYMBOL_NS_GPL(zcomp_prefer_acomp, ZCACHE_NS);

/*********************************
 * per-CPU contexts
 *********************************/
/**
 * zcomp_cpu_get() - take the current CPU's compression context
 *
 * The task may migrate afterwards; the context stays its own until
 * zcomp_cpu_put(), and its CPU's hotplug callbacks wait for that.
 *
 * Context: process context, may sleep.
 * Return: the context, locked, with its buffer and a transform of every
 * algorithm that is ready.
 */
struct zcomp_cpu *zcomp_cpu_get(void)
{
	struct zcomp_cpu *zc;

	for (;;) {
		zc = raw_cpu_ptr(zcomp_cpus);
		mutex_lock(&zc->lock);
		if (likely(zc->buffer))
			return zc;
		/*
		 * The task was migrated between picking the context and
		 * locking it, and the CPU it picked went down meanwhile: its
		 * callbacks freed the buffer (the last state up, the first
		 * down) before the transforms.  The task now runs on an
		 * online CPU, whose context is complete: take that one.
		 */
		mutex_unlock(&zc->lock);
	}
}
EXPORT_SYMBOL_NS_GPL(zcomp_cpu_get, ZCACHE_NS);

/**
 * zcomp_cpu_put() - release a context taken with zcomp_cpu_get()
 * @zc: the context
 *
 * Context: process context.
 */
void zcomp_cpu_put(struct zcomp_cpu *zc)
{
	mutex_unlock(&zc->lock);
}
EXPORT_SYMBOL_NS_GPL(zcomp_cpu_put, ZCACHE_NS);

/**
 * zcomp_cpu_sync() - wait for every context's current holder
 *
 * Every task that held a context when zcomp_cpu_sync() was called has put
 * it by the time it returns, and anything it wrote before zcomp_cpu_put()
 * is visible to the caller.  A task that takes a context afterwards sees
 * whatever the caller wrote before calling.  What a user reads under the
 * context's mutex (which algorithm to use) is thus settled: zcache
 * switches its compressor, calls this, and knows that no store still
 * compresses with the old one.
 *
 * Context: process context, may sleep; not holding a context.
 */
void zcomp_cpu_sync(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct zcomp_cpu *zc = per_cpu_ptr(zcomp_cpus, cpu);

		mutex_lock(&zc->lock);
		mutex_unlock(&zc->lock);
	}
}
EXPORT_SYMBOL_NS_GPL(zcomp_cpu_sync, ZCACHE_NS);

/**
 * zcomp_cpu_buffer() - the scratch buffer of a context
 * @zc: a context taken with zcomp_cpu_get()
 *
 * Context: the caller holds @zc.
 * Return: 2 * PAGE_SIZE bytes.
 */
u8 *zcomp_cpu_buffer(struct zcomp_cpu *zc)
{
	return zc->buffer;
}
EXPORT_SYMBOL_NS_GPL(zcomp_cpu_buffer, ZCACHE_NS);

/**
 * zcomp_sleepable() - whether a context's calls with an algorithm may sleep
 * @zc: a context taken with zcomp_cpu_get()
 * @id: a valid id
 *
 * A synchronous (crypto_comp) transform never sleeps: zcomp_decompress()
 * may then read from an atomic mapping.  acomp counts as sleeping: an
 * asynchronous driver waits for its completion, and where the kernel has
 * no crypto_comp (7.3) a synchronous one takes a per-CPU BH spinlock, a
 * sleeping lock on PREEMPT_RT.  The answer comes from the transform that
 * the call would use, so the two cannot disagree.
 *
 * Context: the caller holds @zc.
 * Return: false if @id is ready and synchronous, true otherwise.
 */
bool zcomp_sleepable(struct zcomp_cpu *zc, int id)
{
	return !zc->alg[id].comp;
}
EXPORT_SYMBOL_NS_GPL(zcomp_sleepable, ZCACHE_NS);

/**
 * zcomp_compress() - compress a page into the context's buffer
 * @zc:   a context taken with zcomp_cpu_get()
 * @id:   a ready algorithm
 * @page: the page to compress
 * @dlen: out: the compressed length
 *
 * The data starts ZCOMP_HEADROOM bytes into zcomp_cpu_buffer(@zc).
 *
 * Context: the caller holds @zc; may sleep if zcomp_sleepable(@zc, @id).
 * Return: 0, or a negative errno from the algorithm.
 */
int zcomp_compress(struct zcomp_cpu *zc, int id, struct page *page,
		   unsigned int *dlen)
{
	struct zcomp_alg *alg = &zc->alg[id];
	struct scatterlist input, output;
	const u8 *src;
	int ret;

	if (alg->comp) {
		*dlen = PAGE_SIZE * 2 - ZCOMP_HEADROOM;
		src = kmap_local_page(page);
		ret = zcomp_sync_compress(alg->comp, src, PAGE_SIZE,
					  zc->buffer + ZCOMP_HEADROOM, dlen);
		kunmap_local(src);
		return ret;
	}
	if (WARN_ON_ONCE(!alg->req))	/* @id not prepared: a caller's bug */
		return -EINVAL;
	sg_init_table(&input, 1);
	sg_set_page(&input, page, PAGE_SIZE, 0);
	sg_init_one(&output, zc->buffer + ZCOMP_HEADROOM,
		    PAGE_SIZE * 2 - ZCOMP_HEADROOM);
	acomp_request_set_params(alg->req, &input, &output, PAGE_SIZE,
				 PAGE_SIZE * 2 - ZCOMP_HEADROOM);
	crypto_init_wait(&zc->wait);
	ret = crypto_wait_req(crypto_acomp_compress(alg->req), &zc->wait);
	*dlen = alg->req->dlen;
	return ret;
}
EXPORT_SYMBOL_NS_GPL(zcomp_compress, ZCACHE_NS);
/* fail_function may make it fail: the store then goes to disk. */
ALLOW_ERROR_INJECTION(zcomp_compress, ERRNO);

/**
 * zcomp_decompress() - decompress into a page
 * @zc:   a context taken with zcomp_cpu_get()
 * @id:   the ready algorithm the data was compressed with
 * @src:  the compressed data; in an atomic mapping only if
 *        zcomp_sleepable(@zc, @id) is false
 * @slen: its length
 * @page: the page to fill
 *
 * Context: the caller holds @zc; may sleep if zcomp_sleepable(@zc, @id).
 * Return: 0 if exactly one page came out, a negative errno otherwise.
 */
int zcomp_decompress(struct zcomp_cpu *zc, int id, const u8 *src,
		     unsigned int slen, struct page *page)
{
	struct zcomp_alg *alg = &zc->alg[id];
	struct scatterlist output;
#ifndef CRYPTO_ACOMP_REQ_SRC_NONDMA
	struct scatterlist input;
#endif
	unsigned int dlen = PAGE_SIZE;
	u8 *dst;
	int ret;

	if (alg->comp) {
		dst = kmap_local_page(page);
		ret = zcomp_sync_decompress(alg->comp, src, slen, dst, &dlen);
		kunmap_local(dst);
	} else {
		if (WARN_ON_ONCE(!alg->req))	/* @id not prepared */
			return -EINVAL;
		sg_init_table(&output, 1);
		sg_set_page(&output, page, PAGE_SIZE, 0);
#ifdef CRYPTO_ACOMP_REQ_SRC_NONDMA
		/* Any mapping will do: the algorithm reads it, no DMA does. */
		acomp_request_set_params(alg->req, NULL, &output, slen,
					 PAGE_SIZE);
		acomp_request_set_src_nondma(alg->req, src, slen);
#else
		sg_init_one(&input, src, slen);
		acomp_request_set_params(alg->req, &input, &output, slen,
					 PAGE_SIZE);
#endif
		crypto_init_wait(&zc->wait);
		ret = crypto_wait_req(crypto_acomp_decompress(alg->req),
				      &zc->wait);
		dlen = alg->req->dlen;
	}
	if (!ret && dlen != PAGE_SIZE)
		ret = -EIO;
	return ret;
}
EXPORT_SYMBOL_NS_GPL(zcomp_decompress, ZCACHE_NS);
/* fail_function may make it fail: the read of that page fails (SIGBUS). */
ALLOW_ERROR_INJECTION(zcomp_decompress, ERRNO);

/*********************************
 * compressibility estimate
 *********************************/
/*
 * One byte of every ZCOMP_SAMPLE_STRIDE is sampled, its position within
 * the stride rotating so that a structure repeating at the stride (an
 * array of integers) cannot alias with the sample.  For bytes drawn
 * uniformly at random, the sum of the squared byte counts of the sample is
 * about n + n * (n - 1) / 256 (1534 for 512 samples, standard deviation
 * about 45), so its order-2 (collision) entropy, log2(n * n / sum), is
 * about 7.4 bits per byte.  The limit, n * n / 144, is 6 deviations above
 * that; on this project's corpus of real text and binaries, the only page
 * below it was one that lz4 could not shrink at all.
 */
#define ZCOMP_SAMPLE_STRIDE	8
#define ZCOMP_SAMPLES		(PAGE_SIZE / ZCOMP_SAMPLE_STRIDE)
#define ZCOMP_RANDOM_SUM_MAX	(ZCOMP_SAMPLES * ZCOMP_SAMPLES / 144)

/* Where sample @i is taken: its stride, at a position that rotates. */
static inline unsigned int zcomp_sample_pos(unsigned int i)
{
	return i * ZCOMP_SAMPLE_STRIDE + ((i * 5) & (ZCOMP_SAMPLE_STRIDE - 1));
}

/**
 * zcomp_looks_incompressible() - whether a page is not worth compressing
 * @zc:  a context taken with zcomp_cpu_get(); its buffer is used as scratch
 * @src: the page's contents, mapped
 *
 * A sample of the page's bytes is judged by its collision entropy: above
 * 7.1 bits per byte, no compressor zcache offers saves a quarter of
 * the page, so the caller may send the page to disk without spending a
 * compression on it.  A page whose sample repeats itself (a block copied
 * twice) is left to the compressor, which finds the repeat.  Sampling
 * stops as soon as the page is sure not to look random.
 *
 * Context: the caller holds @zc.
 * Return: true if the page looks random.
 */
bool zcomp_looks_incompressible(struct zcomp_cpu *zc, const u8 *src)
{
	u16 *count = (u16 *)zc->buffer;
	unsigned long sum = 0;
	unsigned int i, pos, c;

	/*
	 * The sum of squares grows by 2c + 1 as a count c goes up by one,
	 * and never shrinks: once past the limit, the page is not random,
	 * however the rest of the sample falls.  Text crosses it after
	 * about a third of the sample.
	 */
	memset(count, 0, 256 * sizeof(*count));
	for (i = 0; i < ZCOMP_SAMPLES; i++) {
		c = count[src[zcomp_sample_pos(i)]]++;
		sum += 2 * c + 1;
		if (sum > ZCOMP_RANDOM_SUM_MAX)
			return false;
	}
	/*
	 * Sample i + n / 2 sits PAGE_SIZE / 2 after sample i, at the same
	 * position within its stride: the halves of the sample are equal
	 * if the page's sampled bytes repeat at half a page.
	 */
	for (i = 0; i < ZCOMP_SAMPLES / 2; i++) {
		pos = zcomp_sample_pos(i);
		if (src[pos] != src[pos + PAGE_SIZE / 2])
			return true;
	}
	return false;
}
EXPORT_SYMBOL_NS_GPL(zcomp_looks_incompressible, ZCACHE_NS);

/*********************************
 * init and exit
 *********************************/
/**
 * zcomp_init() - set up every online CPU's context, without algorithms
 *
 * Registers the hotplug states; from here on a CPU that comes online gets
 * its scratch buffer, and one that goes down gives it back.
 *
 * Context: process context, may sleep.
 * Return: 0, -ENOMEM, or an errno of the hotplug core (no state left).
 */
int zcomp_init(void)
{
	int cpu, ret, first, second, id;

	zcomp_cpus = alloc_percpu(struct zcomp_cpu);
	if (!zcomp_cpus)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		struct zcomp_cpu *zc = per_cpu_ptr(zcomp_cpus, cpu);

		mutex_init(&zc->lock);
		crypto_init_wait(&zc->wait);
	}
	for (id = 0; id < ZCOMP_MAX_ALGS; id++)
		zcomp_insts[id].id = id;

	ret = cpuhp_setup_state_multi(CPUHP_BP_PREPARE_DYN,
				      "zcache/zcomp:prepare",
				      zcomp_cpu_prepare, zcomp_cpu_dead);
	if (ret < 0)
		goto free_cpus;
	first = ret;
	ret = cpuhp_setup_state_multi(CPUHP_BP_PREPARE_DYN,
				      "zcache/zcomp:prepare",
				      zcomp_cpu_prepare, zcomp_cpu_dead);
	if (ret < 0)
		goto remove_first_state;
	second = ret;
	/*
	 * Dynamic states are numbered in order of setup unless a lower one
	 * was freed in between; the buffers take whichever is higher.
	 */
	zcomp_algs_state = min(first, second);
	zcomp_buffers_state = max(first, second);

	ret = cpuhp_state_add_instance(zcomp_buffers_state, &zcomp_buffers_node);
	if (ret)
		goto remove_second_state;
	return 0;

remove_second_state:
	cpuhp_remove_multi_state(second);
remove_first_state:
	cpuhp_remove_multi_state(first);
free_cpus:
	free_percpu(zcomp_cpus);
	zcomp_cpus = NULL;
	zcomp_algs_state = -1;
	zcomp_buffers_state = -1;
	return ret;
}

/**
 * zcomp_exit() - free every context and every algorithm still in use
 *
 * Every zcomp_prepare() should have been matched by zcomp_release(); an
 * algorithm still referenced is freed anyway, with a warning.
 *
 * Context: process context, no user of any context left.
 */
void zcomp_exit(void)
{
	int id;

	mutex_lock(&zcomp_prepare_lock);
	for (id = 0; id < ZCOMP_MAX_ALGS; id++) {
		if (WARN_ON_ONCE(zcomp_users[id])) {
			zcomp_users[id] = 0;
			clear_bit(id, &zcomp_prepared);
			cpuhp_state_remove_instance(zcomp_algs_state,
						    &zcomp_insts[id].node);
		}
	}
	mutex_unlock(&zcomp_prepare_lock);

	cpuhp_state_remove_instance(zcomp_buffers_state, &zcomp_buffers_node);
	cpuhp_remove_multi_state(zcomp_buffers_state);
	cpuhp_remove_multi_state(zcomp_algs_state);
	free_percpu(zcomp_cpus);
	zcomp_cpus = NULL;
	zcomp_algs_state = -1;
	zcomp_buffers_state = -1;
}
