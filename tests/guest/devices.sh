# SPDX-License-Identifier: GPL-2.0
# Group "devices": two swap devices, one swapped on before insmod and one
# after; swapoff of one while the other is busy; rmmod refused while pages
# are stored; a second insmod; an attach that must fail and leave nothing
# hooked; zdelay0 (make bench's latency-modelled disk) over the second disk;
# zram preferred to the disk, with mTHP on.

# An IPMODIFY user already on a data-path function: zcache must refuse.
insmod /zcache/ipmodify_holder.ko func=$LOAD_FN
check "devices: insmod refused while a livepatch-like user holds $LOAD_FN" \
	sh -c '! insmod /zcache/zcache.ko'
check "devices: the refusal names the function" sh -c \
	"dmesg | grep -q 'cannot attach: $LOAD_FN is already modified'"
check "devices: nothing of zcache left hooked after the refusal" \
	eq "$(hooked_functions | wc -l)" 1
hooked_functions | sed 's/^/    /'
rmmod ipmodify_holder

swap_on /dev/vda 5
check "devices: insmod with a device already swapped on" load_zcache
swap_on /dev/vdb 5
check "devices: second insmod fails cleanly" sh -c '! insmod /zcache/zcache.ko'
check "devices: first instance still attached" [ -d /sys/kernel/debug/zcache ]

# Both devices busy (same priority: pages alternate), then swapoff one of
# them while the workload holds its pages; every page still verifies.
at_checkpoint() {
	stats_line
	grep -E '^/dev/vd' /proc/swaps | sed 's/^/    /'
	check "devices: both devices in use" sh -c \
		'[ $(awk "/^\/dev\/vd/ && \$4 > 0" /proc/swaps | wc -l) -eq 2 ]'
	check "devices: swapoff /dev/vdb while /dev/vda is busy" swapoff /dev/vdb
	stats_line
}
run_checkpointed "devices: two devices, swapoff of one, verified" \
	threads -m $WS_MB -t 2 -o $(( 10000 / OPS_DIV )) -s 41
swap_on /dev/vdb 5

# rmmod while pages are stored is refused, and loses nothing.
at_checkpoint() {
	stats_line
	check "devices: pages stored before rmmod" gt "$(stat_ stored_pages)" 1000
	check "devices: rmmod refused while pages are stored" sh -c '! rmmod zcache'
	check "devices: still loaded after refused rmmod" [ -d /sys/module/zcache ]
}
run_checkpointed "devices: pages stored across a refused rmmod verified" \
	mixed -m $WS_MB -s 42

swapoff /dev/vda
swapoff /dev/vdb
stats_line
check "devices: swapoff of both drains stored_pages" eq "$(stat_ stored_pages)" 0
check "devices: rmmod after swapoff" rmmod zcache
check "devices: nothing left hooked" nothing_hooked

# Load again, swapon after insmod, and unload again.
check "devices: insmod again" load_zcache
swap_on /dev/vda
run_plain "devices: reload, device swapped on after insmod, verified" \
	mixed -m $WS_MB -s 44
swapoff /dev/vda
check "devices: final rmmod" rmmod zcache

# zdelay0, make bench's latency-modelled disk (tests/kmod/zdelay.c), on
# /dev/vdb: a request completes no sooner than its latency after
# submission (a lower bound, which no machine's speed can break, checked
# against latencies the bare disk stays under), the latencies change at
# run time, and what is written through it reads back, directly and as
# swap.
bare=$(swaptest latency /dev/vdb 32)
info "vdb: $bare"
lat_of() { echo "$2" | sed -n "s/.* $1=\([0-9]*\).*/\1/p"; }
br=$(lat_of read_min_us "$bare") bw=$(lat_of write_min_us "$bare")
check "devices: the bare disk reads and writes in under 10000 us at least once" \
	sh -c "[ -n '$br' ] && [ -n '$bw' ] && [ '$br' -lt 10000 ] && [ '$bw' -lt 10000 ]"
check "devices: insmod zdelay over /dev/vdb (read 20000 us, write 10000 us)" \
	insmod /zcache/zdelay.ko target=/dev/vdb read_us=20000 write_us=10000
lat=$(swaptest latency /dev/zdelay0 32)
info "zdelay0: $lat; held back $(cat /sys/module/zdelay/parameters/delayed), late anyway $(cat /sys/module/zdelay/parameters/undelayed)"
check "devices: zdelay0 reads back what was written to it" [ -n "$(lat_of read_min_us "$lat")" ]
check "devices: every write to zdelay0 took 10000 us or more" \
	ge "$(lat_of write_min_us "$lat")" 10000
check "devices: every read from zdelay0 took 20000 us or more" \
	ge "$(lat_of read_min_us "$lat")" 20000
check "devices: zdelay0 counts the completions it held back" \
	gt "$(cat /sys/module/zdelay/parameters/delayed)" 0
check "devices: zdelay0 is rotational as vdb is" [ \
	"$(cat /sys/block/zdelay0/queue/rotational)" = "$(cat /sys/block/vdb/queue/rotational)" ]
# (8 MB, of which 6.12 keeps its zero pages off the disk: at least half
# of the sectors written)
echo 2000 > /sys/module/zdelay/parameters/read_us
echo 1000 > /sys/module/zdelay/parameters/write_us
sectors0=$(awk '{print $7}' /sys/block/vdb/stat)
swap_on /dev/zdelay0
run_plain "devices: swapped out to zdelay0 and read back, verified" \
	pageout -m 8 -s 46
check "devices: the pages went through zdelay0 to /dev/vdb" \
	gt $(( $(awk '{print $7}' /sys/block/vdb/stat) - sectors0 )) 8192
swapoff /dev/zdelay0
check "devices: rmmod zdelay" rmmod zdelay

# zram (a SWP_SYNCHRONOUS_IO device) as the preferred of two swap
# devices, with 64 KiB mTHP on where the kernel has it (6.12): such
# devices are read without the swap cache, and 6.12 swaps large folios in
# from them.  Without zswap zcache stores nothing there (the swap-core
# method leaves those devices alone); with zswap it stores single pages
# there as zswap does, and zswap_never_enabled() keeps large folios from
# being swapped in over them.  Either way every page verifies: nothing
# gets SIGBUS.
check "devices: insmod with zram and vda to swap on" load_zcache
MTHP=/sys/kernel/mm/transparent_hugepage/hugepages-64kB
mthp_swpout() { cat $MTHP/stats/swpout 2>/dev/null || echo 0; }
# (PMD-sized THPs off: 64 KiB folios only, on a mapping that asks for
# large folios)
THP=/sys/kernel/mm/transparent_hugepage
[ -d $THP ] && echo never > $THP/enabled
[ -d $MTHP ] && echo always > $MTHP/enabled
echo 1 > /sys/block/zram0/reset
echo $(( PO_MB * 2 ))M > /sys/block/zram0/disksize
swap_on /dev/zram0 10
swap_on /dev/vda 5
stores0=$(stat_ stores) mthp0=$(mthp_swpout)
run_plain "devices: swapped to zram with mTHP on, verified" pageout -m $PO_MB -H -s 47
info "zram: $(cat /sys/block/zram0/mm_stat); 64 KiB folios swapped out: $(( $(mthp_swpout) - mthp0 )); $(cd $MTHP/stats 2>/dev/null && grep . anon_fault_alloc swpout_fallback 2>/dev/null | tr '\n' ' ')"
if [ $METHOD = swapcore ]; then
	check "devices: zcache stores nothing on zram" eq $(( $(stat_ stores) - stores0 )) 0
else
	info "zcache stored $(( $(stat_ stores) - stores0 )) of the pages on zram (zswap's single pages)"
fi
if [ -d $MTHP ]; then
	check "devices: 64 KiB folios were swapped out to zram" gt $(( $(mthp_swpout) - mthp0 )) 0
	echo never > $MTHP/enabled
fi
swapoff /dev/zram0
swapoff /dev/vda
check "devices: rmmod after the zram run" rmmod zcache
