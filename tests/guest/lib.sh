# SPDX-License-Identifier: GPL-2.0
# Helpers for the guest test groups (busybox sh).  A group prints one
# "ZT: PASS name" or "ZT: FAIL name: why" line per test; the host counts.

ZC=/sys/kernel/debug/zcache
ZP=/sys/module/zcache/parameters
PAGE_KB=4

# What zcache takes in this kernel (attach/compat.h):
# - 6.1 with zswap: frontswap's calls, and swap_readpage() for the slots
#   zcache holds;
# - 6.12 with zswap: zswap_store() and the other zswap_*() calls;
# - without zswap (the cloud flavours): the swap core's own
#   swap_writepage(), and its read function for the slots zcache holds.
# ZEROMAP=1: a 6.12 or 7.3 kernel, whose swap devices keep zero-filled
# pages in their zeromap (7.3: marked in the swap table; they never reach
# zcache) and whose loads from the swap cache are exclusive.
case $(uname -r) in
6.1.*) ZEROMAP=0 ;;
*) ZEROMAP=1 ;;
esac
if [ -d /sys/kernel/debug/frontswap ]; then
	METHOD=frontswap STORE_FN=zswap_frontswap_store LOAD_FN=swap_readpage
elif [ -d /sys/module/zswap ]; then
	METHOD=zswap STORE_FN=zswap_store LOAD_FN=zswap_load
elif [ $ZEROMAP = 0 ]; then
	METHOD=swapcore STORE_FN=swap_writepage LOAD_FN=swap_readpage
else
	METHOD=swapcore STORE_FN=swap_writepage LOAD_FN=swap_read_folio
fi

# Memory the workloads are sized against.  On the debug kernel the host
# passes zcmem=MB: the group then runs in a memory cgroup of that size, so
# a small workload makes the same pressure a large one makes in the whole
# guest (the debug kernel runs about 6x slower).  Reclaim in a cgroup
# calls the same store hook.
ZCMEM=$(sed -n 's/.*zcmem=\([0-9]*\).*/\1/p' /proc/cmdline)
CG=/sys/fs/cgroup
if [ -n "$ZCMEM" ]; then
	mount -t cgroup2 cgroup2 $CG 2>/dev/null
	echo +memory > $CG/cgroup.subtree_control
	mkdir -p $CG/zt
	echo "${ZCMEM}M" > $CG/zt/memory.max
	echo $$ > $CG/zt/cgroup.procs
	MEM_MB=$ZCMEM
	WS_MB=$(( MEM_MB * 5 / 4 ))
else
	# 1.25x the guest's memory, as in the cgroup: past all of it, and
	# the kernel, the initramfs and zcache's pool hold a part of that,
	# so every pass over the working set swaps.
	MEM_MB=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 ))
	WS_MB=$(( MEM_MB * 5 / 4 ))
fi
# MADV_PAGEOUT pushes every page through the cache without pressure.
# Random-access workloads do ops / OPS_DIV operations.
# MANY: a number of pages a workload surely moves.
PO_MB=48 OPS_DIV=1 MANY=1000
[ -n "$ZCMEM" ] && PO_MB=8 OPS_DIV=10 MANY=200

pass() { echo "ZT: PASS $1"; }
fail() { echo "ZT: FAIL $1: $2"; }
info() { echo "ZT: INFO $*"; }

# check NAME CONDITION-COMMAND... : pass if the command succeeds
check() {
	local name=$1
	shift
	if "$@"; then pass "$name"; else fail "$name" "$*"; fi
}

stat_() { cat "$ZC/$1"; }
param() { cat "$ZP/$1"; }

# print every zcache stat on one line, for the log
stats_line() {
	local line="" f
	for f in "$ZC"/*; do line="$line $(basename "$f")=$(cat "$f")"; done
	info "stats:$line"
}

load_zcache() {
	insmod /zcache/zcache.ko "$@"
}

# swap_on DEVICE [PRIORITY]
swap_on() {
	mkswap "$1" >/dev/null || return 1
	if [ -n "${2:-}" ]; then swaptest swapon "$1" "$2"; else swapon "$1"; fi
}

# vda_stat FIELD: read_sectors, write_ios or written_sectors, from the
# swap disk's /sys/block/vda/stat (Documentation/block/stat.rst)
vda_stat() {
	local n
	case $1 in
	read_sectors) n=3 ;;
	write_ios) n=5 ;;
	written_sectors) n=7 ;;
	*) echo "vda_stat: no field $1" >&2; return 1 ;;
	esac
	awk -v n=$n '{ print $n }' /sys/block/vda/stat
}

# swap_used_pages: swap slots in use, on every swap device, in pages
swap_used_pages() {
	awk '/^SwapTotal:/ { t = $2 } /^SwapFree:/ { f = $2 }
	     END { print int((t - f) / 4) }' /proc/meminfo
}

uptime_s() { cut -d' ' -f1 /proc/uptime; }
# elapsed_since T0: print, indented, the seconds since uptime T0
elapsed_since() {
	awk -v t0="$1" '{printf "    %.1f s\n", $1 - t0}' /proc/uptime
}

# oom_kills: how many OOM kills the kernel log holds
oom_kills() { dmesg | grep -c 'oom-kill:constraint='; }

# swaptest_done NAME RC T0 KILLS0: print swaptest's output and the time
# since uptime T0, then pass NAME if swaptest exited 0, else fail it with
# the status; an OOM kill logged since KILLS0 is named with its
# constraint (CONSTRAINT_MEMCG for the debug kernels' memory cgroup,
# CONSTRAINT_NONE for the whole guest) and victim, which is all CI's
# summary of a failure shows: swaptest's own (exit 137), or its fork
# child's (exit 1, "fork child failed").
swaptest_done() {
	local why="swaptest exit $2" memcg
	sed 's/^/    /' /tmp/swaptest.out
	elapsed_since "$3"
	if [ "$2" -eq 0 ]; then
		pass "$1"
		return
	fi
	if [ "$(oom_kills)" -gt "$4" ]; then
		why="$why, OOM kill: $(dmesg | sed -n \
			's/.*oom-kill:constraint=\([A-Z_]*\),.*task=\([^,]*\),pid=\([0-9]*\).*/\1 of \2 (pid \3)/p' |
			tail -n 1)"
		memcg=$(grep -E '^(anon|swapcached|pgscan|pgsteal) ' \
			$CG/zt/memory.stat 2>/dev/null | tr '\n' ' ')
		echo "    after the kill: ${memcg}MemFree $(awk '/^MemFree:/ { print $2 }' /proc/meminfo) kB"
	fi
	fail "$1" "$why"
}

# run_checkpointed NAME SWAPTEST-ARGS... : start swaptest with a
# checkpoint, call the function "at_checkpoint" once the pages are filled,
# then let swaptest verify.  Passes NAME if swaptest verified every page.
run_checkpointed() {
	local name=$1 cp_dir pid rc kills
	shift
	cp_dir=/tmp/cp.$$
	rm -rf "$cp_dir"
	mkdir -p "$cp_dir"
	t0=$(uptime_s) kills=$(oom_kills)
	swaptest "$@" -C "$cp_dir" > /tmp/swaptest.out 2>&1 &
	pid=$!
	while [ ! -f "$cp_dir/filled" ] && kill -0 $pid 2>/dev/null; do
		sleep 0.2
	done
	at_checkpoint
	touch "$cp_dir/go"
	wait $pid
	rc=$?
	swaptest_done "$name" $rc "$t0" $kills
	rm -rf "$cp_dir"
	return $rc
}

# run_plain NAME SWAPTEST-ARGS...
run_plain() {
	local name=$1 rc kills
	shift
	t0=$(uptime_s) kills=$(oom_kills)
	swaptest "$@" > /tmp/swaptest.out 2>&1
	rc=$?
	swaptest_done "$name" $rc "$t0" $kills
	return $rc
}

# with_room COMMAND...: run a workload whose two processes share their
# pages (fork) with room above the debug kernels' memory cgroup:
# memory.high at its size, memory.max half as large again.
# Both processes sweeping the same pages keep most of a 16 MB cgroup's LRU
# referenced, so that its reclaim may find nothing to take for a while,
# which at memory.max is an OOM kill.  On 7.3-debug, after basic's other
# workloads, fork in 3/4 of the cgroup was killed in 7 of 29 runs with
# zcache (0 of 22 with no workload before it), in 3 of 3 with 7.3's own
# zswap (which charges its pool to the cgroup), 0 of 3 with the disk
# alone.  Above memory.high the task reclaims and is throttled instead:
# 0 of 11 killed, memory.peak 17.3 MB, as many swap-ins per run.
with_room() {
	local rc
	if [ -n "$ZCMEM" ]; then
		echo "${ZCMEM}M" > $CG/zt/memory.high
		echo "$(( ZCMEM * 3 / 2 ))M" > $CG/zt/memory.max
	fi
	"$@"
	rc=$?
	if [ -n "$ZCMEM" ]; then
		echo "${ZCMEM}M" > $CG/zt/memory.max
		echo max > $CG/zt/memory.high
	fi
	return $rc
}

# run_fork NAME SWAPTEST-ARGS...: run_plain, with_room
run_fork() { with_room run_plain "$@"; }

# Try to write a parameter as a user would (echo, with its newline);
# succeed only if the write is refused and the value is unchanged.
param_refuses() {
	local p=$1 v=$2 before after
	before=$(param "$p")
	if echo "$v" > "$ZP/$p" 2>/dev/null; then
		echo "    $p accepted '$v'"
		return 1
	fi
	after=$(param "$p")
	if [ "$before" != "$after" ]; then
		echo "    $p changed from '$before' to '$after'"
		return 1
	fi
	return 0
}

# The kernel functions zcache hooks, if any is still in ftrace's table.
hooked_functions() {
	grep -E '^(zswap_|swap_readpage |swap_read_folio |swap_writepage |swap_writeout |swap_range_free |swap_entry_range_free |init_swap_address_space |exit_swap_address_space )' \
		/sys/kernel/tracing/enabled_functions 2>/dev/null
}
# (a shell function: call it from check, not from a child "sh -c")
nothing_hooked() { ! hooked_functions > /dev/null; }

ge() { [ "$1" -ge "$2" ]; }
gt() { [ "$1" -gt "$2" ]; }
eq() { [ "$1" -eq "$2" ]; }
lt() { [ "$1" -lt "$2" ]; }
le() { [ "$1" -le "$2" ]; }

# kmemleak, on kernels that have it (the debug kernel).  Reports need an
# object to be unreferenced for two scans, and at least 5 s old.
KMEMLEAK=/sys/kernel/debug/kmemleak
kmemleak_scan() {
	echo scan > $KMEMLEAK
	sleep 6
	echo scan > $KMEMLEAK
}

# Forget what boot left behind, so only what the group leaks is reported.
# The groups scan when they judge; kmemleak's own thread, which would scan
# every 10 minutes besides (a long pass under KASAN and TCG), is stopped.
kmemleak_baseline() {
	[ -w $KMEMLEAK ] || return 0
	echo scan=off > $KMEMLEAK
	kmemleak_scan
	echo clear > $KMEMLEAK
}

# kmemleak_clean NAME: scan twice; pass if nothing is reported
kmemleak_clean() {
	kmemleak_scan
	if [ -s $KMEMLEAK ]; then
		fail "$1" "kmemleak reports leaks:"
		head -n 40 $KMEMLEAK | sed 's/^/    /'
	else
		pass "$1"
	fi
}

# fault_attr DIR PROBABILITY: a fault-injection capability (failslab,
# fail_page_alloc, fail_function) fails at PROBABILITY% on tasks marked
# make-it-fail, without limit, quietly.  Probability last: the writes
# before it must not be failed themselves.
fault_attr() {
	echo 1 > "$1/task-filter"
	echo 0 > "$1/verbose"
	echo 1 > "$1/interval"
	echo -1 > "$1/times"
	echo 0 > "$1/space"
	echo "$2" > "$1/probability"
}

# offered_compressors NAME...: those of NAMEs the kernel offers (each is
# selected in turn: the last one offered stays selected)
offered_compressors() {
	local c
	for c in "$@"; do
		echo "$c" > $ZP/compressor 2>/dev/null && printf ' %s' "$c"
	done
}

# has_all LIST WORD...: true if every WORD is a word of LIST
has_all() {
	local list=" $1 " w
	shift
	for w in "$@"; do
		case $list in *" $w "*) ;; *) return 1 ;; esac
	done
}

# self_test GROUP: the in-kernel self-test (test_zcache.ko, zcache
# loaded): its cases run as it loads, and each must report ok.  Only this
# load's lines count, those after a mark written to the kernel log just
# before it: a group that ran before it in the same boot left its own
# run's lines there.  Its summary must count as many passed as run.
self_test() {
	local mark
	mark="zctest: self_test $1 at $(uptime_s)"
	echo "$mark" > /dev/kmsg
	if insmod /zcache/test_zcache.ko; then
		pass "$1: in-kernel self-test"
		rmmod test_zcache
	else
		fail "$1: in-kernel self-test" "test_zcache refused to load"
	fi
	dmesg | awk -v mark="$mark" 'index($0, mark) { seen = 1; next }
		seen && /test_zcache:/' > /tmp/self_test.out
	sed 's/^/    /' /tmp/self_test.out
	check "$1: self-test reports every case ok" sh -c \
		'grep -Eq "test_zcache: ([1-9][0-9]*) of \1 tests passed" /tmp/self_test.out &&
		 ! grep -q "test_zcache: not ok" /tmp/self_test.out'
}

# storm_under_load GROUP COMPRESSORS: a storm of parameter changes (each
# of COMPRESSORS in turn, enabled off and on, max_pool_percent down to a
# low limit until a store meets it, zero_pages_enabled and keep_poor_pages
# toggled) while
# four threads of random access swap; passes if every page verified, the
# storm hit the pool limit and stores were refused while disabled.  The
# limit is a share of the whole guest's RAM, so in a memory cgroup (the
# debug kernels) it is 1% and the working set 2.5x the cgroup's: its pool
# (about 7 MiB) outgrows 1% of the guest (3.5 MiB); at 1.25x it was 2 to
# 4 MiB and met the limit only some of the time.
storm_under_load() {
	local tag=$1 low=2 mb=$WS_MB limit0 disabled0 pid
	[ -n "$ZCMEM" ] && low=1 mb=$(( MEM_MB * 5 / 2 ))
	rm -f /tmp/storm.stop
	limit0=$(stat_ pool_limit_hit) disabled0=$(stat_ reject_disabled)
	storm "$2" $low &
	pid=$!
	run_plain "$tag: storm of changes under 4-thread load verified" \
		threads -m $mb -t 4 -o $(( 10000 / OPS_DIV )) -s 32
	touch /tmp/storm.stop
	wait $pid
	check "$tag: storm hit the pool limit" gt "$(stat_ pool_limit_hit)" "$limit0"
	check "$tag: storm refused stores while disabled" \
		gt "$(stat_ reject_disabled)" "$disabled0"
}

# storm COMPRESSORS LOW: storm_under_load's changes, until /tmp/storm.stop
storm() {
	local i=0 c hits n
	while [ ! -f /tmp/storm.stop ]; do
		for c in $1; do echo "$c" > $ZP/compressor; done
		echo 0 > $ZP/enabled
		sleep 0.1
		echo 1 > $ZP/enabled
		# Hold the low limit until a store meets it (2 s at most):
		# a store that lands in a 0.1 s window is luck, not a test.
		hits=$(stat_ pool_limit_hit) n=0
		echo "$2" > $ZP/max_pool_percent
		while [ "$(stat_ pool_limit_hit)" = "$hits" ] && [ $n -lt 20 ]; do
			sleep 0.1
			n=$((n + 1))
		done
		echo 20 > $ZP/max_pool_percent
		echo $(( i % 2 )) > $ZP/zero_pages_enabled
		echo $(( i / 2 % 2 )) > $ZP/keep_poor_pages
		i=$((i + 1))
	done
	echo 1 > $ZP/zero_pages_enabled
	echo 1 > $ZP/keep_poor_pages
	echo "    storm rounds: $i"
}
