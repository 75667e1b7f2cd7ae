// SPDX-License-Identifier: GPL-2.0
/*
 * A block device with a disk's latency, for the benchmark's disk models
 *
 * zdelay0 is a bio-based device stacked on the block device named by the
 * target parameter: every bio is cloned to the target as it comes, and the
 * original completes once the target has completed the clone and at least
 * read_us or write_us microseconds have passed since submission.  So each
 * request costs max(the target's own time, the model's latency), requests
 * overlap as on a device with deep queues, and the target merges and
 * splits as it always does.  The wait is an hrtimer (microsecond
 * resolution, no polling: dm-delay counts milliseconds in jiffies, and
 * 6.12's busy-polls), armed only when the target was faster than the model.
 *
 * Both latencies may change at any time; a request takes those in force
 * when it was submitted.  zdelay0 takes the target's logical block size
 * and rotational flag when it is created.  Nothing else is emulated: no
 * discard, no write-zeroes, and no write cache is declared, so the block
 * core completes flushes itself and drops FUA: writes are as durable as
 * the target's cache makes them, which suits swap, not a filesystem.
 * The read-only parameters delayed and undelayed count the completions
 * the model held back and those the target alone made late enough.
 *
 *	insmod zdelay.ko target=/dev/vda read_us=450 write_us=100
 *	swapon /dev/zdelay0
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/sysfs.h>
#include <linux/wait_bit.h>

/*********************************
 * parameters and state
 *********************************/
static char *target;
module_param(target, charp, 0444);
MODULE_PARM_DESC(target, "block device to stack on, e.g. /dev/vda (required)");

static unsigned int read_us;
module_param(read_us, uint, 0644);
MODULE_PARM_DESC(read_us, "least time from submission to completion of a read, in us (default 0)");

static unsigned int write_us;
module_param(write_us, uint, 0644);
MODULE_PARM_DESC(write_us, "least time from submission to completion of any other request, in us (default 0)");

/**
 * struct zdelay_io - one request in flight, in front of its clone
 * @orig:	the request zdelay0 received
 * @deadline:	when @orig may complete at the earliest
 * @timer:	waits for @deadline once the clone has completed early
 * @clone:	the request sent to the target; last: the bio_set's front_pad
 *		ends here
 */
struct zdelay_io {
	struct bio *orig;
	ktime_t deadline;
	struct hrtimer timer;
	struct bio clone;
};

static atomic_long_t zdelay_delayed = ATOMIC_LONG_INIT(0);
static atomic_long_t zdelay_undelayed = ATOMIC_LONG_INIT(0);

static int zdelay_count_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%ld\n", atomic_long_read(kp->arg));
}

static const struct kernel_param_ops zdelay_count_ops = {
	.get = zdelay_count_get,
};

module_param_cb(delayed, &zdelay_count_ops, &zdelay_delayed, 0444);
MODULE_PARM_DESC(delayed, "completions held back until the model's latency had passed");
module_param_cb(undelayed, &zdelay_count_ops, &zdelay_undelayed, 0444);
MODULE_PARM_DESC(undelayed, "completions the target made at or past the model's latency");

static int zdelay_major;
static struct gendisk *zdelay_disk;
static struct bio_set zdelay_bios;
static atomic_t zdelay_inflight = ATOMIC_INIT(0);

/*
 * 6.9 opened block devices as files and gave blk_alloc_disk() the queue
 * limits; BLK_FEAT_ROTATIONAL (6.11) is a macro to test for that API.
 */
#ifdef BLK_FEAT_ROTATIONAL
static struct file *zdelay_target_file;

static struct block_device *zdelay_target_open(void)
{
	zdelay_target_file = bdev_file_open_by_path(target,
						    BLK_OPEN_READ | BLK_OPEN_WRITE,
						    &zdelay_major, NULL);
	if (IS_ERR(zdelay_target_file))
		return ERR_CAST(zdelay_target_file);
	return file_bdev(zdelay_target_file);
}

static void zdelay_target_close(struct block_device *bdev)
{
	fput(zdelay_target_file);
}

static struct gendisk *zdelay_alloc_disk(struct block_device *target)
{
	struct queue_limits lim = {
		.logical_block_size = bdev_logical_block_size(target),
#ifdef ZCACHE_HAVE_BDEV_ROT
		.features = bdev_rot(target) ? BLK_FEAT_ROTATIONAL : 0,
#else
		.features = bdev_nonrot(target) ? 0 : BLK_FEAT_ROTATIONAL,
#endif
	};

	return blk_alloc_disk(&lim, NUMA_NO_NODE);
}
#else
static struct block_device *zdelay_target_open(void)
{
	return blkdev_get_by_path(target, FMODE_READ | FMODE_WRITE | FMODE_EXCL,
				  &zdelay_major);
}

static void zdelay_target_close(struct block_device *bdev)
{
	blkdev_put(bdev, FMODE_READ | FMODE_WRITE | FMODE_EXCL);
}

static struct gendisk *zdelay_alloc_disk(struct block_device *target)
{
	struct gendisk *disk = blk_alloc_disk(NUMA_NO_NODE);

	if (!disk)
		return ERR_PTR(-ENOMEM);
	blk_queue_logical_block_size(disk->queue,
				     bdev_logical_block_size(target));
	if (bdev_nonrot(target))
		blk_queue_flag_set(QUEUE_FLAG_NONROT, disk->queue);
	return disk;
}
#endif

static struct block_device *zdelay_target;

/*********************************
 * requests
 *********************************/
static void zdelay_complete(struct zdelay_io *io)
{
	struct bio *orig = io->orig;

	orig->bi_status = io->clone.bi_status;
	bio_put(&io->clone);
	bio_endio(orig);
	if (atomic_dec_and_test(&zdelay_inflight))
		wake_up_var(&zdelay_inflight);
}

static enum hrtimer_restart zdelay_timer_fn(struct hrtimer *timer)
{
	zdelay_complete(container_of(timer, struct zdelay_io, timer));
	return HRTIMER_NORESTART;
}

/* The clone's completion, in the target's completion context. */
static void zdelay_clone_end(struct bio *clone)
{
	struct zdelay_io *io = container_of(clone, struct zdelay_io, clone);

	if (ktime_before(ktime_get(), io->deadline)) {
		atomic_long_inc(&zdelay_delayed);
		hrtimer_start(&io->timer, io->deadline, HRTIMER_MODE_ABS);
		return;
	}
	atomic_long_inc(&zdelay_undelayed);
	zdelay_complete(io);
}

static void zdelay_submit_bio(struct bio *bio)
{
	unsigned int us = bio_data_dir(bio) == READ ? READ_ONCE(read_us) :
						      READ_ONCE(write_us);
	struct zdelay_io *io;
	struct bio *clone;

	/* From the bio_set's mempool: GFP_NOIO waits rather than fails. */
	clone = bio_alloc_clone(zdelay_target, bio, GFP_NOIO, &zdelay_bios);
	if (unlikely(!clone)) {
		bio_io_error(bio);
		return;
	}
	io = container_of(clone, struct zdelay_io, clone);
	io->orig = bio;
	io->deadline = ktime_add_us(ktime_get(), us);
#ifdef ZCACHE_HAVE_HRTIMER_SETUP
	hrtimer_setup(&io->timer, zdelay_timer_fn, CLOCK_MONOTONIC,
		      HRTIMER_MODE_ABS);
#else
	hrtimer_init(&io->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	io->timer.function = zdelay_timer_fn;
#endif
	clone->bi_end_io = zdelay_clone_end;
	atomic_inc(&zdelay_inflight);
	submit_bio_noacct(clone);
}

static const struct block_device_operations zdelay_fops = {
	.owner		= THIS_MODULE,
	.submit_bio	= zdelay_submit_bio,
};

/*********************************
 * module init and exit
 *********************************/
static int __init zdelay_init(void)
{
	int ret;

	if (!target || !*target) {
		pr_err("target= is required\n");
		return -EINVAL;
	}
	ret = bioset_init(&zdelay_bios, BIO_POOL_SIZE,
			  offsetof(struct zdelay_io, clone), 0);
	if (ret)
		return ret;
	zdelay_target = zdelay_target_open();
	if (IS_ERR(zdelay_target)) {
		ret = PTR_ERR(zdelay_target);
		pr_err("cannot open %s (%d)\n", target, ret);
		goto exit_bioset;
	}
	zdelay_major = register_blkdev(0, KBUILD_MODNAME);
	if (zdelay_major < 0) {
		ret = zdelay_major;
		goto close_target;
	}
	zdelay_disk = zdelay_alloc_disk(zdelay_target);
	if (IS_ERR(zdelay_disk)) {
		ret = PTR_ERR(zdelay_disk);
		goto unregister_major;
	}
	zdelay_disk->major = zdelay_major;
	zdelay_disk->first_minor = 0;
	zdelay_disk->minors = 1;
	zdelay_disk->fops = &zdelay_fops;
	strscpy(zdelay_disk->disk_name, "zdelay0", DISK_NAME_LEN);
	set_capacity(zdelay_disk, bdev_nr_sectors(zdelay_target));
	ret = add_disk(zdelay_disk);
	if (ret)
		goto put_disk;
	pr_info("zdelay0 on %s: read %u us, write %u us\n", target, read_us,
		write_us);
	return 0;

put_disk:
	put_disk(zdelay_disk);
unregister_major:
	unregister_blkdev(zdelay_major, KBUILD_MODNAME);
close_target:
	zdelay_target_close(zdelay_target);
exit_bioset:
	bioset_exit(&zdelay_bios);
	return ret;
}

static void __exit zdelay_exit(void)
{
	/* Nobody has zdelay0 open (the module is pinned while anyone has). */
	del_gendisk(zdelay_disk);
	wait_var_event(&zdelay_inflight, !atomic_read(&zdelay_inflight));
	/*
	 * The last completion may still be returning through this module's
	 * code (an hrtimer callback, or the target's completion, in interrupt
	 * or softirq context: an RCU read-side section, on PREEMPT_RT too,
	 * where both run with bottom halves off): wait for it to leave.
	 */
	synchronize_rcu();
	put_disk(zdelay_disk);
	unregister_blkdev(zdelay_major, KBUILD_MODNAME);
	zdelay_target_close(zdelay_target);
	bioset_exit(&zdelay_bios);
}

module_init(zdelay_init);
module_exit(zdelay_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("zcache benchmark: a block device with a disk's latency");
