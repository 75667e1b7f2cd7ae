# SPDX-License-Identifier: GPL-2.0
# Group "canary" (debug kernels): the positive control.  On the KASAN
# kernel debug_canary.ko makes one KASAN report, one lockdep report and
# kmemleak reports; on the KCSAN kernel one data-race report.  Each
# detector must show its own, or a clean debug run would prove nothing.

if [ -e /sys/kernel/debug/kcsan ]; then
	check "canary: insmod debug_canary sanitizer=kcsan" \
		insmod /zcache/debug_canary.ko sanitizer=kcsan
	check "canary: KCSAN reports the data race" sh -c \
		'dmesg | grep -q "BUG: KCSAN: data-race in canary_race_fn"'
	dmesg | grep -m 1 -A 10 'BUG: KCSAN: data-race in canary_race_fn' |
		sed 's/^/    /'
else
	check "canary: insmod debug_canary" insmod /zcache/debug_canary.ko
	kmemleak_scan
	check "canary: KASAN reports the out-of-bounds read" sh -c \
		'dmesg | grep -q "BUG: KASAN: slab-out-of-bounds in canary_kasan"'
	check "canary: lockdep reports the lock inversion" sh -c \
		'dmesg | grep -q "WARNING: possible circular locking dependency detected"'
	check "canary: lockdep then switched itself off" \
		grep -Eq 'debug_locks: +0$' /proc/lockdep_stats
	# A stale pointer left on a stack hides an object from a scan only as
	# long as it stays there: one more scan before saying none was found.
	grep -q 'canary_kmemleak' $KMEMLEAK || kmemleak_scan
	check "canary: kmemleak reports the dropped objects" \
		grep -q 'canary_kmemleak' $KMEMLEAK
	grep -m 1 -A 12 'unreferenced object' $KMEMLEAK | sed 's/^/    /'
fi
