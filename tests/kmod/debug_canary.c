// SPDX-License-Identifier: GPL-2.0
/*
 * Trip each detector of the debug kernel once
 *
 * The positive control of the debug pass.  Loaded once, it makes one
 * KASAN report (a read past the end of a kmalloc object), one lockdep
 * report (two mutexes taken in both orders, which never deadlocks on one
 * thread but is a lock-order inversion) and kmemleak reports (objects
 * whose only pointers are dropped).  The suite passes the debug kernel
 * only if all three show up, so a kernel whose detectors are off cannot
 * pass as clean.  Only for the debug kernel, and last in its boot: lockdep
 * and KASAN stop reporting after their first report.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/compiler.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>

#define CANARY_LEAKS	4

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

static noinline void canary_kmemleak(void)
{
	void *leak;
	int i;

	for (i = 0; i < CANARY_LEAKS; i++) {
		leak = kmalloc(256, GFP_KERNEL);
		OPTIMIZER_HIDE_VAR(leak);
	}
	pr_info("kmemleak canary: %d objects dropped\n", CANARY_LEAKS);
}

/* KASAN's report switches lockdep off (LOCKDEP_NOW_UNRELIABLE): last. */
static int __init debug_canary_init(void)
{
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
MODULE_DESCRIPTION("Trips KASAN, lockdep and kmemleak once each (debug kernel only)");
