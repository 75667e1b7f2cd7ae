// SPDX-License-Identifier: GPL-2.0
/*
 * Trip each detector of a debug kernel once
 *
 * The positive control of the debug pass.  Loaded on the KASAN kernel
 * (sanitizer=kasan, the default), it makes one KASAN report (a read past
 * the end of a kmalloc object), one lockdep report (two mutexes taken in
 * both orders, which never deadlocks on one thread but is a lock-order
 * inversion) and kmemleak reports (objects whose only pointers are
 * dropped).  On the KCSAN kernel (sanitizer=kcsan) it makes one data-race
 * report: two threads, one per CPU, increment a plain counter.  The suite
 * passes a debug kernel only if its detectors' reports show up, so a
 * kernel whose detectors are off cannot pass as clean.  Only for the debug
 * kernels, and last in their boot: lockdep and KASAN stop reporting after
 * their first report.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/compiler.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>

#define CANARY_LEAKS	16
/* How long the two threads race: KCSAN watches one access in thousands. */
#define CANARY_RACE_MS	3000

static char *sanitizer = "kasan";
module_param(sanitizer, charp, 0444);
MODULE_PARM_DESC(sanitizer, "The kernel's detectors: kasan (KASAN, lockdep, kmemleak) or kcsan");

static DEFINE_MUTEX(canary_lock_a);
static DEFINE_MUTEX(canary_lock_b);

static noinline void canary_kasan(void)
{
	size_t past_end = 16;
	char *buf;

	buf = kmalloc(16, GFP_KERNEL);
	if (!buf)
		return;
	OPTIMIZER_HIDE_VAR(past_end);
	pr_info("kasan canary read %d\n", READ_ONCE(buf[past_end]));
	kfree(buf);
}

static noinline void canary_lockdep(void)
{
	mutex_lock(&canary_lock_a);
	mutex_lock(&canary_lock_b);
	mutex_unlock(&canary_lock_b);
	mutex_unlock(&canary_lock_a);

	mutex_lock(&canary_lock_b);
	mutex_lock(&canary_lock_a);
	mutex_unlock(&canary_lock_a);
	mutex_unlock(&canary_lock_b);
}

/*
 * Past the largest kmalloc cache (KMALLOC_MAX_CACHE_SIZE), so straight
 * from the page allocator, which kmemleak tracks as one object each: a
 * slab object's pointer stays behind in the cache's own arrays (7.3's
 * per-CPU sheaves keep every pointer they hand out until a free
 * overwrites it), and kmemleak, which scans those arrays, then counted
 * each dropped object as referenced (7.3-debug: none reported).  Zeroed:
 * an object fresh from the slab also held the free pointer to the next
 * one, so one stale pointer to the first hid them all (6.1-debug, once).
 * Sixteen, because some stay referenced all the same: 6.12-debug reports
 * 9 to 11 of 16 (and once none of 4), whether the objects are 16 KB or
 * just past 8 KB, and whether or not the stack below this function is
 * zeroed after the allocations; 6.1- and 7.3-debug report all 16.  The
 * group needs one report.
 */
#define CANARY_LEAK_SIZE	(4 * PAGE_SIZE)
/*
 * And as many from a slab cache: on 6.12-debug, after the faults group,
 * kmemleak reported none of the page allocator's (two whole runs and a
 * third boot, cause not found), while it has always reported these.
 */
#define CANARY_SLAB_SIZE	256

static noinline void canary_kmemleak(void)
{
	void *leak;
	int i;

	for (i = 0; i < CANARY_LEAKS; i++) {
		leak = kzalloc(CANARY_LEAK_SIZE, GFP_KERNEL);
		OPTIMIZER_HIDE_VAR(leak);
		leak = kzalloc(CANARY_SLAB_SIZE, GFP_KERNEL);
		OPTIMIZER_HIDE_VAR(leak);
	}
	pr_info("kmemleak canary: %d objects dropped\n", 2 * CANARY_LEAKS);
}

/* Incremented by both threads with plain accesses: the data race. */
static unsigned long canary_racy;

static int canary_race_fn(void *unused)
{
	while (!kthread_should_stop()) {
		canary_racy++;
		barrier();
		cond_resched();
	}
	return 0;
}

static noinline int canary_kcsan(void)
{
	struct task_struct *t[2];
	int i, err, cpu = -1;

	if (num_online_cpus() < 2)
		return -ENODEV;
	for (i = 0; i < ARRAY_SIZE(t); i++) {
		cpu = cpumask_next(cpu, cpu_online_mask);
		t[i] = kthread_create(canary_race_fn, NULL, "canary_race/%d", cpu);
		if (IS_ERR(t[i])) {
			err = PTR_ERR(t[i]);
			while (i--)
				kthread_stop(t[i]);
			return err;
		}
		kthread_bind(t[i], cpu);
		wake_up_process(t[i]);
	}
	msleep(CANARY_RACE_MS);
	for (i = 0; i < ARRAY_SIZE(t); i++)
		kthread_stop(t[i]);
	pr_info("kcsan canary: counter at %lu\n", canary_racy);
	return 0;
}

/* KASAN's report switches lockdep off (LOCKDEP_NOW_UNRELIABLE): last. */
static int __init debug_canary_init(void)
{
	if (!strcmp(sanitizer, "kcsan"))
		return canary_kcsan();
	if (strcmp(sanitizer, "kasan"))
		return -EINVAL;
	canary_lockdep();
	canary_kmemleak();
	canary_kasan();
	return 0;
}

static void __exit debug_canary_exit(void)
{
}

module_init(debug_canary_init);
module_exit(debug_canary_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Trips KASAN, lockdep and kmemleak, or KCSAN, once each (debug kernels only)");
