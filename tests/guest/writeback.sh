# SPDX-License-Identifier: GPL-2.0
# Group "writeback": a full pool writes its coldest pages to the swap
# device.  Every workload verifies every page; after each case the
# accounting identity holds, pswpout grew by at least what was written
# back, and nothing else is wrong (the host judges dmesg, with the
# hung-task detector on).  Ends with a drain and rmmod with swap on.

DBG=/sys/kernel/debug
FF=$DBG/fail_function
WBT=$DBG/zcache-test
[ -w /proc/sys/kernel/hung_task_timeout_secs ] &&
	echo 30 > /proc/sys/kernel/hung_task_timeout_secs
# 4 KiB pages only, and no readahead: pswpin and pswpout count pages
# one for one.
[ -d /sys/kernel/mm/transparent_hugepage ] &&
	echo never > /sys/kernel/mm/transparent_hugepage/enabled
echo 0 > /proc/sys/vm/page-cluster

vmstat_() { awk -v k="$1" '$1 == k {print $2}' /proc/vmstat; }
RAM_MB=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 ))
# MADV_PAGEOUT'd pages that overfill a pool of 1% of RAM (in the debug
# kernels, run outside their small memory cgroup) by a margin: mixed
# pages compress 2.4 to 3 times, depending on the corpus this machine
# gives (10% of them zero), so a 16th of RAM fills the pool about twice
# over, whatever the corpus (a 32nd left some seeds' pages short of it).
FULL_MB=$PO_MB
[ -n "$ZCMEM" ] && FULL_MB=$(( RAM_MB / 16 ))
# A workload under memory pressure whose swapped-out pages overfill a
# pool of 1% of RAM: 1.25x the memory, or in the debug kernels' memory
# cgroup (16 MB of a 512 MB guest) 2.5x.
WB_MB=$(( MEM_MB * 5 / 4 ))
[ -n "$ZCMEM" ] && WB_MB=$(( MEM_MB * 5 / 2 ))

# (One more such line than before this load: a group before this one in
# the boot may have loaded zcache too.)
attached_lines() { dmesg | grep -c 'zcache: attached .*writeback available'; }
attached0=$(attached_lines)
check "writeback: insmod zcache" load_zcache
check "writeback: writeback_available is 1" eq "$(stat_ writeback_available)" 1
check "writeback: dmesg says writeback is available" gt "$(attached_lines)" "$attached0"
check "writeback: writeback_enabled is Y, shrinker_enabled N by default" \
	[ "$(param writeback_enabled)$(param shrinker_enabled)" = YN ]
check "writeback: writeback_enabled refuses 'maybe'" param_refuses writeback_enabled maybe
check "writeback: shrinker_enabled refuses '2'" param_refuses shrinker_enabled 2
check "writeback: drain refuses Y while enabled=Y" param_refuses drain Y
check "writeback: drain refuses 'soon'" param_refuses drain soon
swap_on /dev/vda

# 6.12's swap cache loads erase the entry; 6.1's never do.
if [ $ZEROMAP = 0 ]; then LOADS_ERASE=0; else LOADS_ERASE=1; fi

# Let the worker and the frees of an exited workload settle.
settle() {
	local i s=-1
	for i in 1 2 3 4 5 6 7 8 9 10; do
		[ "$(stat_ stored_pages)" = "$s" ] && [ "$(param drain)" = N ] && return
		s=$(stat_ stored_pages)
		sleep 1
	done
}

# drain_wait SECONDS: enabled=N, then a drain, waited for up to SECONDS;
# $i holds the seconds waited.
drain_wait() {
	echo N > $ZP/enabled
	echo Y > $ZP/drain
	i=0
	while [ "$(param drain)" = Y ] && [ $i -lt "$1" ]; do
		sleep 1
		i=$(( i + 1 ))
	done
}

# Every entry that left the index was counted once.  The counters are
# read one by one: a page the shell's own memory pressure moves between
# two reads skews one reading, so the identity gets five readings a
# second apart to hold once (an accounting error skews every one).
identity() {
	local out i
	for i in 1 2 3 4 5; do
		out=$(( $(stat_ loads) * LOADS_ERASE + $(stat_ invalidates) +
			$(stat_ written_back) + $(stat_ duplicate_entry) +
			$(stat_ stored_pages) ))
		[ "$(stat_ stores)" -eq $out ] && return
		echo "    stores $(stat_ stores) != erasing loads + invalidates + written_back + duplicates + stored ($out)"
		sleep 1
	done
	return 1
}

# case_begin / case_end NAME MIN: the case wrote back at least MIN pages,
# all of them through pswpout, and the counters add up.
case_begin() {
	wb0=$(stat_ written_back) out0=$(vmstat_ pswpout)
	hit0=$(stat_ pool_limit_hit)
	fail0=$(stat_ writeback_fail) skip0=$(stat_ writeback_skip)
	stale0=$(stat_ writeback_stale)
}
case_end() {
	settle
	dwb=$(( $(stat_ written_back) - wb0 ))
	dout=$(( $(vmstat_ pswpout) - out0 ))
	info "$1: written_back +$dwb, pswpout +$dout, fail +$(( $(stat_ writeback_fail) - fail0 )), skip +$(( $(stat_ writeback_skip) - skip0 )), stale +$(( $(stat_ writeback_stale) - stale0 )), pool limit hit +$(( $(stat_ pool_limit_hit) - hit0 ))"
	stats_line
	check "writeback: $1: written_back grew by at least $2" ge $dwb "$2"
	check "writeback: $1: pswpout grew by at least written_back" ge $dout $dwb
	check "writeback: $1: every entry counted once" identity
}

# A pool of 1% of RAM under the mixed workload at 1.25 RAM: always full.
echo 1 > $ZP/max_pool_percent
case_begin
run_plain "writeback: mixed past RAM, pool 1%: every page verified" \
	mixed -m $WB_MB -s 301
case_end "mixed, pool 1%" 1

# Without writeback the same run writes nothing back.
echo N > $ZP/writeback_enabled
case_begin
run_plain "writeback: pageout with writeback_enabled=N: every page verified" \
	pageout -m $PO_MB -s 302
settle
check "writeback: writeback_enabled=N writes nothing back" \
	eq "$(stat_ written_back)" $wb0
echo Y > $ZP/writeback_enabled

# Order: a cold set A paged out first, then a hot set B of the same size
# worked through swap five times, with a pool that holds 1.6 times A:
# writeback must take A, not B.  B's faults hit the cache; A's are served
# by what writeback left of it in the swap cache, or by the disk (without
# memory pressure, a written-back page stays in the swap cache).
# A policy test, run where the pool limit (a percentage of all RAM) can
# be set to 1.6 times a set that fits the group's memory: not in the debug
# kernels' small memory cgroup.  Both sets must be admitted alike: with
# keep_poor_pages, A's poorly compressing pages would be kept (the pool
# has room) and B's refused (it is at its limit), which narrowed the
# hot set's lead to 2657 hits against 2440 on 6.1.  Writeback's order is
# what is tested here, so keep_poor_pages is off for it.
if [ -z "$ZCMEM" ]; then
HC_MB=$(( MEM_MB / 10 ))
echo 50 > $ZP/max_pool_percent
echo N > $ZP/keep_poor_pages
at_checkpoint() {
	pa=$(stat_ pool_total_size)
	pct=$(( (pa * 16 / 10 * 100 + RAM_MB * 1048576 / 2) / (RAM_MB * 1048576) ))
	[ $pct -lt 1 ] && pct=1
	info "hotcold: A takes $pa bytes of pool; pool limit $pct% of RAM"
	echo $pct > $ZP/max_pool_percent
}
case_begin
run_checkpointed "writeback: hot and cold sets: every page verified" \
	hotcold -m $HC_MB -o 5 -s 303
line=$(grep 'swaptest: hotcold' /tmp/swaptest.out)
field() { echo "$line" | sed -n "s/.* $1=\([0-9]*\).*/\1/p"; }
hc_pages=$(( HC_MB * 256 ))
# (A page that compresses poorly goes to disk in either set, and stays in
# the swap cache: the sets are compared with each other.)
a_hits=$(field a_hits) b_hits=$(field b_hits)
check "writeback: hot and cold: the hot set's faults hit the cache more ($b_hits of $hc_pages) than the cold set's ($a_hits)" \
	gt "${b_hits:-0}" $(( ${a_hits:-0} * 11 / 10 ))
check "writeback: hot and cold: a tenth of the cold set at least was written back" \
	ge $(( $(stat_ written_back) - wb0 )) $(( hc_pages / 10 ))
case_end "hot and cold" 1
echo Y > $ZP/keep_poor_pages

# Poor pages first: a set paged out while the pool has room keeps its
# poorly compressing pages (keep_poor_pages); then the limit drops just
# below the pool, and a store refused there kicks writeback.  The pages
# it writes must be those poor ones, whatever their age, until none is
# left.  Taken by age, they would be a tenth or so of the writes (the
# set's share of poor pages), and few of them.  Where the limit, a
# percentage of all RAM, cannot be set that close (the debug kernels'
# small cgroup), not run.
echo 50 > $ZP/max_pool_percent
kick_store() { swaptest pageout -m 1 -s 306 > /tmp/swaptest-kick.out 2>&1; }
at_checkpoint() {
	local pa wb1 wbp1
	pf_kept=$(( $(stat_ poor_kept) - kept0 ))
	pa=$(stat_ pool_total_size)
	# (in kB, as the kernel's totalram: RAM_MB rounds down)
	pct=$(( pa * 100 / ($(awk '/MemTotal/ {print $2}' /proc/meminfo) * 1024) ))
	[ $pct -lt 1 ] && pct=1
	info "poor first: $pf_kept poor pages kept, in a pool of $pa bytes; pool limit $pct% of RAM"
	echo $pct > $ZP/max_pool_percent
	wb1=$(stat_ written_back) wbp1=$(stat_ written_back_poor)
	check "writeback: poor pages first: the pages whose stores kick writeback verified" \
		kick_store
	settle
	pf_wb=$(( $(stat_ written_back) - wb1 ))
	pf_wbp=$(( $(stat_ written_back_poor) - wbp1 ))
}
kept0=$(stat_ poor_kept)
case_begin
run_checkpointed "writeback: poor pages first: every page verified" \
	pageout -m $(( RAM_MB / 8 )) -s 305
# (nine in ten of the writes, or of the poor pages if there were fewer)
poor_first() {
	local n=$pf_wb
	[ "$pf_kept" -lt "$n" ] && n=$pf_kept
	[ $(( pf_wbp * 10 )) -ge $(( n * 9 )) ]
}
check "writeback: poor pages first: the set kept poor pages ($pf_kept)" \
	ge "$pf_kept" $(( MANY / 10 ))
check "writeback: poor pages first: the store refused at the limit made writeback run ($pf_wb written back)" \
	ge "$pf_wb" $(( MANY / 10 ))
check "writeback: poor pages first: writeback took them before any other ($pf_wbp of $pf_wb written back were poor, of $pf_kept kept)" \
	poor_first
case_end "poor pages first" $(( MANY / 10 ))
fi

# Random read-verify-write threads while writeback runs all the time.
echo 1 > $ZP/max_pool_percent
case_begin
run_plain "writeback: 2 threads random read-verify-write, pool 1%: verified" \
	threads -m $WB_MB -t 2 -o $(( 10000 / OPS_DIV )) -s 304
case_end "threads, pool 1%" 1

# fork: copy-on-write pages shared by two processes, written back (half
# the working set: the two processes' copies make the whole of it; in the
# debug kernels' 16 MB memory cgroup, basic's 3/4 of it, with basic's
# room above the cgroup: run_fork).
FORK_MB=$(( WB_MB / 2 ))
[ -n "$ZCMEM" ] && FORK_MB=$(( MEM_MB * 3 / 4 ))
case_begin
run_fork "writeback: fork and copy-on-write, pool 1%: verified" \
	fork -m $FORK_MB -s 305
case_end "fork, pool 1%" 1

# 6.12: a memory cgroup whose memory.zswap.writeback is 0 keeps its
# pages compressed: writeback skips them (6.1 has no such setting).
# The cache is emptied first (swapoff), and in the debug kernels this
# shell leaves its small memory cgroup: the nowb group's pages are then
# the only ones the pool holds, and nothing may be written back.
mount -t cgroup2 cgroup2 $CG 2>/dev/null
echo +memory > $CG/cgroup.subtree_control 2>/dev/null
mkdir -p $CG/nowb
if [ -w $CG/nowb/memory.zswap.writeback ]; then
	echo 0 > $CG/nowb/memory.zswap.writeback
	[ -n "$ZCMEM" ] && echo $$ > $CG/cgroup.procs
	swapoff /dev/vda
	swap_on /dev/vda
	case_begin
	sh -c "echo \$\$ > $CG/nowb/cgroup.procs; exec swaptest pageout -m $FULL_MB -s 307" \
		> /tmp/swaptest.out 2>&1
	rc=$?
	sed 's/^/    /' /tmp/swaptest.out
	check "writeback: memory.zswap.writeback=0: verified" eq $rc 0
	settle
	check "writeback: memory.zswap.writeback=0: nothing written back" \
		eq "$(stat_ written_back)" $wb0
	check "writeback: memory.zswap.writeback=0: its entries were skipped" \
		gt "$(stat_ writeback_skip)" $skip0
	# Writeback gives up a skipped entry's folio with the slot's data in
	# it: a swapoff that finds the folio while the worker holds it (here
	# 300 ms after its lock) maps what it holds.  (A folio given up empty
	# would be mapped as a poisoned entry: SIGBUS on that page.)
	echo 300 > $WBT/writeback_delay_ms
	echo 2 > $WBT/writeback_delay_points
	cp_dir=/tmp/nowb.$$
	mkdir -p $cp_dir
	skip0=$(stat_ writeback_skip)
	sh -c "echo \$\$ > $CG/nowb/cgroup.procs; exec swaptest pageout -m $FULL_MB -s 308 -C $cp_dir" \
		> /tmp/swaptest.out 2>&1 &
	pid=$!
	while [ ! -f $cp_dir/filled ] && kill -0 $pid 2>/dev/null; do
		sleep 0.2
	done
	held_skips=$(( $(stat_ writeback_skip) - skip0 ))
	swapoff /dev/vda
	rc_off=$?
	swap_on /dev/vda
	echo 0 > $WBT/writeback_delay_ms
	echo 0 > $WBT/writeback_delay_points
	touch $cp_dir/go
	wait $pid
	rc=$?
	rm -rf $cp_dir
	sed 's/^/    /' /tmp/swaptest.out
	info "nowb swapoff: $held_skips entries skipped before swapoff, $(( $(stat_ writeback_skip) - skip0 )) in all"
	check "writeback: memory.zswap.writeback=0: swapoff while the worker holds skipped entries' folios" \
		eq $rc_off 0
	check "writeback: memory.zswap.writeback=0: ... every page verified after it" eq $rc 0
	check "writeback: memory.zswap.writeback=0: ... the worker was skipping entries meanwhile" \
		gt "$(stat_ writeback_skip)" $skip0
	[ -n "$ZCMEM" ] && echo $$ > $CG/zt/cgroup.procs
else
	info "no memory.zswap.writeback on this kernel"
fi
rmdir $CG/nowb

# Slot reuse: a drain picks each victim and then waits 300 ms while churn
# frees and rewrites a small set's pages over and over; writeback must
# notice and drop what went stale.  Whether a wait sees its page freed is
# chance: the churn empties the pool in a few seconds, and a run meets one
# or two stale victims.  So up to three runs, until one has.
echo 300 > $WBT/writeback_delay_ms
echo 1 > $WBT/writeback_delay_points
at_checkpoint() {
	echo N > $ZP/enabled
	echo Y > $ZP/drain
}
# (Enough churn that some of the 300 ms waits see their page freed: the
# debug kernels, which divide other workloads' operations by 10, by 5.)
CHURN_OPS=20000
[ -n "$ZCMEM" ] && CHURN_OPS=4000
case_begin
for run in 1 2 3; do
	run_checkpointed "writeback: churn while a drain's victims wait after being picked (run $run): verified" \
		churn -m 2 -o $CHURN_OPS -s $(( 305 + run ))
	echo Y > $ZP/enabled
	[ "$(stat_ writeback_stale)" -gt $stale0 ] && break
	info "churn run $run: no victim went stale"
done
echo 0 > $WBT/writeback_delay_ms
echo 0 > $WBT/writeback_delay_points
check "writeback: enabled=Y ends the drain" [ "$(param drain)" = N ]
case_end "churn" 0
check "writeback: churn: stale victims were dropped (writeback_stale grew, within $run runs)" \
	gt "$(stat_ writeback_stale)" $stale0

# A page stored while a fault held its folio in the swap cache (swaptest
# rezero), then written as zeroes and swapped out again: 6.12's zeromap
# or 7.3's zero mark took the zeroes, not zcache, whose older copy must
# never come back.  A drain then writes back what zcache holds, and every
# page must read as zeroes.  Where the stale copies went is checked too
# (at least half as many as swaptest counted kept, a count it can only
# estimate, rounded up; the counters are global, so this bounds from
# below only): on 7.3 the zeroing swap-out dropped them (invalidates, before
# the drain), on 6.12 the drain found the zeromap's bit (writeback_stale).
# (6.1 has no zeromap: zcache stores the zeroes over its copy.)
at_checkpoint() {
	inv_cp=$(stat_ invalidates) stale_cp=$(stat_ writeback_stale)
	drain_wait 120
}
case_begin
inv_rz=$(stat_ invalidates)
run_checkpointed "writeback: rezero: pages kept in the swap cache past their store, then zeroed, read as zeroes after a drain" \
	rezero -m 1 -s 330
echo Y > $ZP/enabled
kept=$(sed -n 's/.*swaptest: rezero .* kept=\([0-9]*\) .*/\1/p' /tmp/swaptest.out)
check "writeback: rezero: a fault kept some pages in the swap cache past their store (${kept:-none} of 256)" \
	gt "${kept:-0}" 0
case $(uname -r) in
6.1.*) ;;
6.*)
	check "writeback: rezero: the drain dropped the kept pages' stale copies (writeback_stale +$(( $(stat_ writeback_stale) - stale_cp )), ${kept:-0} kept)" \
		ge $(( $(stat_ writeback_stale) - stale_cp )) $(( (${kept:-0} + 1) / 2 )) ;;
*)
	check "writeback: rezero: the zeroing swap-outs dropped the kept pages' copies (invalidates +$(( inv_cp - inv_rz )) before the drain, ${kept:-0} kept)" \
		ge $(( inv_cp - inv_rz )) $(( (${kept:-0} + 1) / 2 )) ;;
esac
case_end "rezero" 0

# swapoff in each delay window: after the pick, with the folio locked,
# after the write was submitted, while MADV_PAGEOUT'd pages wait to be
# read back.  Then kill -9 of the owner in each window.  The pages must
# fill a pool of 1% of RAM, and swapoff must be able to bring them all
# back: in the debug kernels this runs outside their small memory cgroup.
[ -n "$ZCMEM" ] && echo $$ > $CG/cgroup.procs
swapoff_in_window() {
	why=""
	sleep 1
	swapoff /dev/vda || why="swapoff failed"
	[ "$(stat_ stored_pages)" -eq 0 ] ||
		why="$why; swapoff left $(stat_ stored_pages) pages"
	swap_on /dev/vda || why="$why; swapon failed"
	check "writeback: swapoff in delay window $point, round $round${why:+ ($why)}" \
		[ -z "$why" ]
}
for point in 0 1 2; do
	echo 200 > $WBT/writeback_delay_ms
	echo $(( 1 << point )) > $WBT/writeback_delay_points
	for round in 1 2; do
		at_checkpoint() { swapoff_in_window; }
		case_begin
		run_checkpointed "writeback: swapoff in delay window $point, round $round: verified" \
			pageout -m $FULL_MB -s $(( 310 + point * 3 + round ))
		case_end "swapoff at point $point, round $round" 0
	done
	case_begin
	cp_dir=/tmp/kill.$$
	mkdir -p $cp_dir
	swaptest pageout -m $FULL_MB -s $(( 320 + point )) -C $cp_dir \
		> /tmp/swaptest.out 2>&1 &
	pid=$!
	while [ ! -f $cp_dir/filled ] && kill -0 $pid 2>/dev/null; do
		sleep 0.2
	done
	sleep 1
	kill -9 $pid
	wait $pid
	rm -rf $cp_dir
	case_end "kill -9 in delay window $point" 0
	check "writeback: kill -9 in delay window $point: the owner's entries are freed" \
		lt "$(stat_ stored_pages)" 64
done
echo 0 > $WBT/writeback_delay_ms
echo 0 > $WBT/writeback_delay_points
check "writeback: no entry left behind by the killed owners" sh -c \
	'swapoff /dev/vda && [ "$(cat /sys/kernel/debug/zcache/stored_pages)" -eq 0 ]'
swap_on /dev/vda

# Injected failures on the writeback path (kernels with fail_function):
# the victims stay, and still read back.  MADV_PAGEOUT'd pages overfill
# the pool of 1% of RAM without memory pressure (in the debug kernels,
# still outside their small memory cgroup).
if [ -d $FF ]; then
	for f in zcache_wb_victim_picked zcache_wb_folio_locked; do
		echo $f > $FF/inject
		printf '0x%x\n' $(( -12 )) > $FF/$f/retval
		fault_attr $FF 50
		echo 0 > $FF/task-filter
		case_begin
		run_plain "writeback: $f fails 50%: every page verified" \
			pageout -m $FULL_MB -s 330
		echo 0 > $FF/probability
		echo > $FF/inject
		case_end "$f fails 50%" 1
		# Half the attempts fail: about as many as are written back.
		check "writeback: $f fails 50%: the failures are counted" \
			ge $(( $(stat_ writeback_fail) - fail0 )) $(( dwb / 4 ))
	done
fi
[ -n "$ZCMEM" ] && echo $$ > $CG/zt/cgroup.procs

# The shrinker: with a pool that never fills, pages are written back
# under memory pressure (without the shrinker nothing would be: nothing
# else asks for writeback before the pool is full).  The shrinker is
# not memcg-aware, as zswap's is not on 6.1: global reclaim calls it, so
# it is tested where the group runs in the whole guest (stock kernels).
if [ -z "$ZCMEM" ]; then
echo 100 > $ZP/max_pool_percent
echo Y > $ZP/shrinker_enabled
case_begin
run_plain "writeback: mixed at 1x RAM with the shrinker: verified" \
	mixed -m $MEM_MB -s 341
case_end "shrinker" 1
# What was written back, the shrinker asked for: the pool never filled.
check "writeback: shrinker: the pool never reached its limit" \
	eq "$(stat_ pool_limit_hit)" $hit0
echo N > $ZP/shrinker_enabled
fi
echo 20 > $ZP/max_pool_percent

# The worker writes its victims, in offset order, under a block plug: the
# writes of a run of neighbouring slots merge, so the disk completes fewer
# write requests than the pages written back (one each without the plug;
# with it, runs are broken only where a slot holds no entry: 2.7 to 3.7
# pages a request in the suite's last run).  Counted once no write is in
# flight.
writes_settle() {
	local n=0
	while [ "$(awk '{print $2}' /sys/block/vda/inflight)" != 0 ] && [ $n -lt 50 ]; do
		sleep 0.1
		n=$((n + 1))
	done
}

# Drain: with enabled=N every entry goes to the swap device, and rmmod
# succeeds with swap on; the pages then read back from disk.  A quarter
# of them were read back before the drain: on 6.1 their slots have a page
# in the swap cache and a copy in zcache at once, and the drain hands the
# data over to that page (counted in invalidates).
at_checkpoint() {
	held=$(stat_ stored_pages) inv0=$(stat_ invalidates)
	wb0=$(stat_ written_back) wios0=$(vda_stat write_ios)
	drain_wait 600
	writes_settle
	stats_line
	info "drain: $held pages held, $(stat_ stored_pages) left after $i s"
	drained() { [ "$held" -gt 0 ] && [ "$(stat_ stored_pages)" -eq 0 ]; }
	check "writeback: drain empties the cache ($held pages held)" drained
	wb=$(( $(stat_ written_back) - wb0 )) wios=$(( $(vda_stat write_ios) - wios0 ))
	merged() { [ "$wb" -gt 0 ] && [ "$wios" -gt 0 ] && [ $(( wios * 3 )) -le $(( wb * 2 )) ]; }
	check "writeback: the drain's writes merge ($wb pages written back, $wios write requests)" \
		merged
	check "writeback: every entry counted once after the drain" identity
	# (Pages that compressed poorly were never in zcache: half, at least.)
	if [ $ZEROMAP = 0 ]; then
		check "writeback: the drain handed the pages read back over to the swap cache" \
			ge $(( $(stat_ invalidates) - inv0 )) $(( PO_MB * 256 / 4 / 2 ))
	fi
	check "writeback: rmmod succeeds with swap on after the drain" rmmod zcache
	check "writeback: nothing hooked after rmmod" nothing_hooked
}
run_checkpointed "writeback: drained pages read back from disk" \
	pageout -m $PO_MB -R $(( PO_MB * 256 / 4 )) -s 350
check "writeback: swapoff after zcache is gone" swapoff /dev/vda
