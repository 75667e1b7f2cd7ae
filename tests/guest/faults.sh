# SPDX-License-Identifier: GPL-2.0
# Group "faults" (debug kernel): allocations fail under zcache while pages
# are swapped through it.  failslab and fail_page_alloc at 1%, 10% and 50%
# on the workload's own task (task-filter + swaptest -F: its MADV_PAGEOUT
# or its reclaim makes the stores), then fail_function on zcache's own
# allocation paths.  Each
# run must verify every page, count every refused store as a reject, and
# send every refused store to disk: pswpout grows by exactly the rejects
# (and by what writeback wrote, which it counts in written_back).
# kmemleak then finds nothing (checked by init after the group).

DBG=/sys/kernel/debug
FF=$DBG/fail_function
FAULT_MB=$(( MEM_MB * 5 / 4 ))

# Every store either lands in zcache or is refused with one reason.
rejects() {
	echo $(( $(stat_ pool_limit_hit) + $(stat_ reject_compress_poor) +
		$(stat_ reject_compress_fail) + $(stat_ reject_alloc_fail) +
		$(stat_ reject_disabled) ))
}
pswpout() { awk '/^pswpout / {print $2}' /proc/vmstat; }

# faulty_run NAME COUNTER MIN SWAPTEST-ARGS...: a workload under the faults
# set up; passes if it verifies, COUNTER grew by at least MIN, and every
# refused store was written to disk.
faulty_run() {
	local name=$1 counter=$2 min=$3 c0 r0 o0 dc dr dout
	shift 3
	c0=$(stat_ "$counter") r0=$(rejects) o0=$(pswpout)
	w0=$(stat_ written_back)
	run_plain "faults: $name: every page verified" "$@" -s $seed -F
	dc=$(( $(stat_ "$counter") - c0 )) dr=$(( $(rejects) - r0 ))
	# What writeback wrote went to disk too.
	dout=$(( $(pswpout) - o0 - ($(stat_ written_back) - w0) ))
	info "$name: $counter +$dc, rejects +$dr, pswpout +$dout, stores $(stat_ stores)"
	check "faults: $name: failures counted in $counter" ge $dc "$min"
	check "faults: $name: every refused store went to disk" eq $dout $dr
	seed=$((seed + 1))
}

# Whole THPs go to disk without a reject; keep to 4 KiB pages so that
# pswpout and the rejects match one for one.
[ -d /sys/kernel/mm/transparent_hugepage ] &&
	echo never > /sys/kernel/mm/transparent_hugepage/enabled
check "faults: insmod zcache" load_zcache
swap_on /dev/vda
seed=80

# No faults: the accounting identity holds on its own.
faulty_run "baseline, no faults" reject_alloc_fail 0 mixed -m $FAULT_MB

# The allocator's pages (no direct reclaim, highmem|movable) and the
# tree's and the allocator's slab objects.  MADV_PAGEOUT sends every page
# through a store in this task; one run under memory pressure.
echo N > $DBG/fail_page_alloc/ignore-gfp-highmem
echo Y > $DBG/fail_page_alloc/ignore-gfp-wait
echo 0 > $DBG/fail_page_alloc/min-order
for p in 1 10 50; do
	fault_attr $DBG/fail_page_alloc $p
	faulty_run "fail_page_alloc ${p}%" reject_alloc_fail $(( p / 10 )) pageout -m $PO_MB
	echo 0 > $DBG/fail_page_alloc/probability
done
echo N > $DBG/failslab/ignore-gfp-wait
for p in 1 10 50; do
	fault_attr $DBG/failslab $p
	faulty_run "failslab ${p}%" reject_alloc_fail 1 pageout -m $PO_MB
	echo 0 > $DBG/failslab/probability
done
fault_attr $DBG/failslab 10
faulty_run "failslab 10% under memory pressure" reject_alloc_fail 1 mixed -m $FAULT_MB
echo 0 > $DBG/failslab/probability

# zcache's own paths, by fail_function on the functions it marks
# ALLOW_ERROR_INJECTION: a tree node, a pool object, a compression.
# ff_inject FUNCTION ERRNO PROBABILITY (retval takes an unsigned number)
ff_inject() {
	echo "$1" > $FF/inject
	printf '0x%x\n' $(( $2 )) > "$FF/$1/retval"
	fault_attr $FF "$3"
}
ff_clear() { echo > $FF/inject; }

check "faults: fail_function offers zcache's injection points" sh -c \
	"for f in xa_ext_alloc_node xa_ext_reserve xa_ext_replace zcache_pool_malloc zcomp_compress zcomp_decompress zcomp_prepare; do grep -q \"^\$f\" $DBG/error_injection/list || exit 1; done"
ff_inject xa_ext_replace -12 25
faulty_run "tree insert fails 25% (xa_ext_replace)" reject_alloc_fail 100 pageout -m $PO_MB
ff_clear
# xas_store() first tries a node with GFP_NOWAIT under the lock; only if
# that fails does xa_ext_alloc_node() allocate one (GFP_KERNEL) for a
# retry.  failslab on non-sleeping allocations alone fails the first (and
# some of the swap cache's: those pages stay in memory), fail_function the
# second; its notices (verbose 1, no stack) show that the path ran.
echo Y > $DBG/failslab/ignore-gfp-wait
fault_attr $DBG/failslab 50
ff_inject xa_ext_alloc_node -12 100
echo 1 > $FF/verbose
ff_hits=$(dmesg | grep -c 'name fail_function')
faulty_run "no tree node (GFP_NOWAIT by failslab, then xa_ext_alloc_node)" \
	reject_alloc_fail 1 pageout -m $PO_MB
check "faults: xa_ext_alloc_node was reached and failed" \
	gt "$(dmesg | grep -c 'name fail_function')" "$ff_hits"
ff_clear
echo 0 > $DBG/failslab/probability
echo N > $DBG/failslab/ignore-gfp-wait
ff_inject zcache_pool_malloc -12 25
faulty_run "pool allocation fails 25% (zcache_pool_malloc)" reject_alloc_fail 100 pageout -m $PO_MB
ff_clear
ff_inject zcomp_compress -22 25
faulty_run "compression fails 25% (zcomp_compress)" reject_compress_fail 100 pageout -m $PO_MB
ff_clear

# A compressor whose contexts cannot be set up is refused; the old one
# stays and keeps working.
before=$(param compressor)
ff_inject zcomp_prepare -12 100
echo 0 > $FF/task-filter	# the shell's own write below
check "faults: compressor switch refused when its contexts fail" sh -c \
	"! echo deflate > $ZP/compressor"
check "faults: the compressor stays $before" [ "$(param compressor)" = "$before" ]
check "faults: the refusal is logged" sh -c \
	'dmesg | grep -q "zcache: compressor: cannot set up deflate (-12)"'
ff_clear
run_plain "faults: after the refused switch, $before verified" \
	pageout -m $PO_MB -s 90

# Contexts half set up when a slab allocation fails are freed again: try
# each compressor under failslab 50% (kmemleak checks the leftovers).
fault_attr $DBG/failslab 50
switched=0 refused=0
for c in lzo-rle lz4hc zstd deflate lzo-rle lz4hc zstd deflate; do
	if sh -c "echo 1 > /proc/self/make-it-fail; echo $c > $ZP/compressor" 2>/dev/null; then
		switched=$((switched + 1))
		[ "$(param compressor)" = $c ] || fail "faults: switch to $c" "took, but reads $(param compressor)"
	else
		refused=$((refused + 1))
	fi
done
echo 0 > $DBG/failslab/probability
info "compressor switches under failslab 50%: $switched took, $refused refused"
check "faults: failslab refused some compressor switches" gt $refused 0
echo lz4 > $ZP/compressor
run_plain "faults: after the failed switches, lz4 verified" pageout -m $PO_MB -s 91

stats_line
check "faults: no decompression failures" eq "$(stat_ decompress_fail)" 0

# A fresh, empty index: swap off and on again.
fresh_swap() {
	swapoff /dev/vda
	swap_on /dev/vda
}

# failslab on the index's own nodes only: slub_debug=A,radix_tree_node on
# the command line marks that cache, cache-filter keeps failslab to it.
FS=$DBG/failslab
echo Y > $FS/cache-filter
echo Y > $FS/ignore-gfp-wait

# The slot is reserved before the page is compressed: a store that cannot
# have an index node (failslab takes half of those xas_store() tries under
# the lock, fail_function every retry) is refused before any compression.
# Every compression fails here, so a store that reached it could only be
# counted in reject_compress_fail: reject_alloc_fail grows only if the
# slot came first.  (failslab also fails some of the swap cache's own
# node allocations: those pages stay in memory.)  On the debug kernel the
# shell leaves its memory cgroup meanwhile, so that no reclaim of another
# task, whose allocations may fail for real, adds to reject_alloc_fail.
fresh_swap
[ -n "$ZCMEM" ] && echo $$ > $CG/cgroup.procs
fault_attr $FS 50
ff_inject xa_ext_alloc_node -12 100
ff_inject zcomp_compress -22 100
faulty_run "no index node, every compression failing: refused before compressing" \
	reject_alloc_fail 1 pageout -m $PO_MB
ff_clear
echo 0 > $FS/probability
[ -n "$ZCMEM" ] && echo $$ > $CG/zt/cgroup.procs

# A load that fails fails the read: the task gets SIGBUS for that page
# alone (the slot was never written: reading it would return garbage),
# the failure is counted and warned about once.
df0=$(stat_ decompress_fail)
at_checkpoint() {
	info "expect one decompression warning"
	ff_inject zcomp_decompress -5 100
	echo 1 > $FF/times
}
run_checkpointed "faults: a failed load raises SIGBUS on that page alone, the others verify" \
	pageout -m 2 -s 96 -F -B 1
ff_clear
check "faults: the failed load is counted" eq "$(stat_ decompress_fail)" $(( df0 + 1 ))
check "faults: the failed load is warned about" sh -c \
	'dmesg | grep -q "zcache: cannot decompress swap type "'

# The module reference follows the entries, not the index's nodes.  Each
# cycle starts from an empty index whose first store lands past offset 512
# (a filler that went to disk holds the first slots), so the insert links
# two levels of nodes; failslab fails a quarter of the workload's
# non-sleeping node allocations, and some inserts fail after linking a
# node.  rmmod must be refused while pages are held, every page must
# verify, and rmmod must succeed once swapoff has drained the index.  Out
# of the memory cgroup: under its pressure reclaim of the workload's
# corpus, outside the make-it-fail window, would make the first store.
[ -n "$ZCMEM" ] && echo $$ > $CG/cgroup.procs
fault_attr $FS 25
echo 1000000 > $FS/times	# counts down: how many allocations failed
cycles=8 bad=0
for c in $(seq 1 $cycles); do
	why=""
	fresh_swap
	echo N > $ZP/enabled
	rm -rf /tmp/filler /tmp/cyc
	mkdir -p /tmp/filler /tmp/cyc
	swaptest pageout -m 3 -s $((400 + c)) -C /tmp/filler > /tmp/filler.out 2>&1 &
	filler=$!
	while [ ! -f /tmp/filler/filled ] && kill -0 $filler 2>/dev/null; do sleep 0.1; done
	echo Y > $ZP/enabled
	swaptest pageout -m 2 -s $((420 + c)) -F -C /tmp/cyc > /tmp/cyc.out 2>&1 &
	pid=$!
	while [ ! -f /tmp/cyc/filled ] && kill -0 $pid 2>/dev/null; do sleep 0.1; done
	held=$(stat_ stored_pages)
	[ "$held" -gt 0 ] || why="$why; nothing stored"
	rmmod zcache 2>/dev/null && why="$why; rmmod took while $held pages were stored"
	touch /tmp/cyc/go /tmp/filler/go
	wait $pid || why="$why; workload: $(tail -n 1 /tmp/cyc.out)"
	wait $filler || why="$why; filler: $(tail -n 1 /tmp/filler.out)"
	if [ -d /sys/module/zcache ]; then
		swapoff /dev/vda
		[ "$(stat_ stored_pages)" -eq 0 ] || why="$why; swapoff left pages"
		rmmod zcache || why="$why; rmmod refused after swapoff"
	fi
	load_zcache || why="$why; insmod failed"
	swap_on /dev/vda
	if [ -n "$why" ]; then
		fail "faults: partial insert cycle $c" "${why#; }"
		bad=$((bad + 1))
	fi
done
echo 0 > $FS/probability
injected=$(( 1000000 - $(cat $FS/times) ))
echo -1 > $FS/times
echo N > $FS/cache-filter
echo N > $FS/ignore-gfp-wait
[ -n "$ZCMEM" ] && echo $$ > $CG/zt/cgroup.procs
info "partial insert cycles: $bad of $cycles bad; $injected index node allocations failed"
check "faults: failslab failed index node allocations in the cycles" gt $injected 0
check "faults: $cycles cycles of failed index inserts, the reference balanced" eq $bad 0

swapoff /dev/vda
check "faults: swapoff drains stored_pages" eq "$(stat_ stored_pages)" 0
check "faults: swapoff empties the pool" eq "$(stat_ pool_total_size)" 0
check "faults: rmmod zcache" rmmod zcache
check "faults: nothing left hooked" nothing_hooked

# Without zswap, frees the observer does not see (a future kernel that
# inlined the observed function into a caller): fail_function stands in
# for that, and a killed process's slots are freed unseen.  zcache's audit
# of its entries against the slots in use must notice, say so, stop
# storing and still serve every page it holds; swapoff frees the rest.
if [ $METHOD = swapcore ]; then
	check "faults: insmod for the unseen frees" load_zcache
	swap_on /dev/vda
	# (every task: the frees of a killed workload may land in any)
	ff_inject zcache_swap_core_free_seen -5 100
	echo 0 > $FF/task-filter
	for s in 1 2 3; do
		rm -rf /tmp/cp.unseen
		mkdir -p /tmp/cp.unseen
		swaptest pageout -m $PO_MB -s $((460 + s)) -C /tmp/cp.unseen > /tmp/unseen.out 2>&1 &
		pid=$!
		while [ ! -f /tmp/cp.unseen/filled ] && kill -0 $pid 2>/dev/null; do
			sleep 0.2
		done
		kill -9 $pid
		wait $pid
	done
	ff_clear
	echo 1 > $FF/task-filter
	info "after 3 killed workloads, frees unseen: stored_pages $(stat_ stored_pages), swap in use $(awk '$1 == "/dev/vda" {print $4}' /proc/swaps) kB"
	run_plain "faults: pages stored after unseen frees verified" pageout -m $PO_MB -s 464
	run_plain "faults: pages stored after unseen frees verified, again" pageout -m $PO_MB -s 465
	check "faults: the audit says frees go unseen" sh -c \
		"dmesg | grep -q 'frees are not all seen at swap_'"
	stores0=$(stat_ stores)
	run_plain "faults: after the audit, pages go to disk and verify" pageout -m $PO_MB -s 466
	check "faults: after the audit, zcache stores nothing" eq $(( $(stat_ stores) - stores0 )) 0
	swapoff /dev/vda
	i=0
	while [ "$(stat_ stored_pages)" -ne 0 ] && [ $i -lt 20 ]; do
		sleep 0.5
		i=$((i + 1))
	done
	check "faults: swapoff frees the entries of the unseen frees" eq "$(stat_ stored_pages)" 0
	check "faults: rmmod after the unseen frees" rmmod zcache
fi
