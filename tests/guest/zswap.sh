# SPDX-License-Identifier: GPL-2.0
# Group "zswap": the kernel booted with zswap enabled, and zswap holds
# pages when zcache loads.  With frontswap (6.1) zcache takes the new
# stores and leaves zswap's pages to zswap; without it (6.5+) zcache
# refuses to attach until zswap is disabled and empty, and leaves to zswap
# any page zswap still holds once it did attach.  Either way every page
# verifies and nothing is lost.

ZS=/sys/kernel/debug/zswap
ZSP=/sys/module/zswap/parameters

# The debug kernel runs this group in the boot of the others: zswap is
# enabled here, as the command line does for the stock kernels, and
# disabled again at the end.
zswap_runtime=0
if [ -n "$ZCMEM" ] && [ "$(cat $ZSP/enabled)" = N ]; then
	echo lzo > $ZSP/compressor && echo zbud > $ZSP/zpool &&
		echo Y > $ZSP/enabled && zswap_runtime=1
fi
zswap_restore() {
	[ $zswap_runtime = 1 ] && echo N > $ZSP/enabled
	return 0
}

# in_namespace_with FILE TARGET MESSAGE: insmod from a mount namespace
# where FILE is bind-mounted over TARGET must fail, saying MESSAGE.
in_namespace_with() {
	local n0
	n0=$(dmesg | grep -c "cannot attach: $3")
	unshare -m sh -c "mount --bind $1 $2 && ! insmod /zcache/zcache.ko" &&
		[ ! -d /sys/module/zcache ] &&
		[ "$(dmesg | grep -c "cannot attach: $3")" -gt "$n0" ]
}

poor_rejects() {
	echo $(( $(stat_ reject_poor_sampled) + $(stat_ reject_compress_poor) ))
}

# rewritten_left_memory: after a rewrite run (-m 4: 512 compressible
# pages), fewer than a quarter of the compressible pages may still be in
# memory after their pageout (swaptest's mincore() count).
rewritten_left_memory() {
	local in_mem
	in_mem=$(sed -n 's/.*swaptest: rewrite pageout left \([0-9]*\) .*/\1/p' /tmp/swaptest.out)
	check "zswap: the rewritten compressible pages left memory at their pageout (${in_mem:-no count}, of 512, stayed)" \
		lt "${in_mem:-512}" 128
}

# rewrite_over_zswap: pages zswap stored whose folios stay in the swap
# cache, mapped again by a fault before reclaim freed them (on 6.12 and
# 7.3 what a zswap_store() still running at the attach leaves behind),
# written anew once zcache is attached.  swapcache_holder.ko keeps every
# folio zswap stores for swaptest in the swap cache; swaptest reads them
# back (mapped again, zswap's copies kept), attach_over_held attaches
# zcache over them, and swaptest writes them anew through their page
# tables, every even page random (zcache refuses it: to the disk), the
# others compressible (zcache stores them, and they are freed at exit).
# Each store must drop zswap's old copy (6.1: frontswap does), or a
# refused page reads back zswap's, and a stored one leaves zswap's copy
# behind its freed slot.  Leaves zswap disabled and zcache unloaded.
rewrite_over_zswap() {
	swap_on /dev/vda
	echo Y > $ZSP/enabled
	check "zswap: insmod swapcache_holder" insmod /zcache/swapcache_holder.ko
	at_checkpoint() {
		held=$(cat /sys/module/swapcache_holder/parameters/held)
		zswap_kept=$(cat $ZS/stored_pages)
		check "zswap: rmmod swapcache_holder" rmmod swapcache_holder
		attach_over_held
		refused=$(poor_rejects)
	}
	run_checkpointed "zswap: pages zswap held in folios mapped again, rewritten under zcache (refused and stored), verified" \
		rewrite -m 4 -s 54
	info "swapcache_holder held $held folios, zswap $zswap_kept pages after the read-back"
	disk_reads=$(sed -n 's/.*swaptest: rewrite pages=.* pswpin=\([0-9]*\) .*/\1/p' /tmp/swaptest.out)
	check "zswap: the stored folios stayed in the swap cache ($held held)" \
		ge "$held" 900
	check "zswap: zswap kept its copies of the pages read back" \
		ge "$zswap_kept" "$held"
	check "zswap: zcache attached over them" eq "$attached" 0
	check "zswap: zcache refused the random rewrites" \
		ge $(( $(poor_rejects) - refused )) 400
	check "zswap: the random rewrites were read back from the disk (${disk_reads:-no} pages)" \
		ge "${disk_reads:-0}" 400
	rewritten_left_memory
	used=$(swap_used_pages)
	left=$(cat $ZS/stored_pages)
	check "zswap: zswap holds no page whose swap slot is free, after the rewrite ($left, $used slots in use)" \
		le "$left" "$used"
	swapoff /dev/vda
	check "zswap: swapoff drains zswap, after the rewrite" \
		eq "$(cat $ZS/stored_pages)" 0
	check "zswap: rmmod zcache after the rewrite" rmmod zcache
	echo N > $ZSP/enabled
}

# rewrite_held: pages zcache stored whose folios stay in the swap cache
# (swapcache_holder, as above), mapped again by the read-back and written
# anew through their page tables: at their next pageout each must take
# the kernel's write path (7.3: zcache drops its old copies in
# swap_writeout()'s redirect, then calls the kernel's), so that the
# compressible ones are stored and their folios freed.  Sent back to the
# active list instead (7.3, until zcache called the kernel's function),
# 468 of 512 stayed in memory for another round of reclaim.  The pages
# zcache refuses go to the disk and stay in the swap cache while written
# (59 of 512 on 7.3).  Expects zswap disabled; leaves zcache unloaded.
rewrite_held() {
	check "zswap: insmod zcache for the rewrite of its own held pages" load_zcache
	swap_on /dev/vda
	check "zswap: insmod swapcache_holder over zcache" \
		insmod /zcache/swapcache_holder.ko
	at_checkpoint() {
		held=$(cat /sys/module/swapcache_holder/parameters/held)
		kept=$(stat_ stored_pages)
		check "zswap: rmmod swapcache_holder (zcache's pages)" rmmod swapcache_holder
	}
	run_checkpointed "zswap: pages zcache held in folios mapped again, rewritten, verified" \
		rewrite -m 4 -s 55
	check "zswap: zcache's stored folios stayed in the swap cache ($held held)" \
		ge "$held" 700
	check "zswap: zcache kept its copies of the pages read back ($kept)" \
		ge "$kept" "$held"
	rewritten_left_memory
	swapoff /dev/vda
	check "zswap: rmmod zcache after the rewrite of its own held pages" rmmod zcache
}

check "zswap: stock zswap enabled" [ "$(cat $ZSP/enabled)" = Y ]
check "zswap: zcache-load refuses while zswap is enabled" sh -c \
	'! zcache-load /zcache/zcache.ko 2>/tmp/zl.err && grep -q "stock zswap is enabled" /tmp/zl.err && [ ! -d /sys/module/zcache ]'
swap_on /dev/vda

if [ $ZEROMAP = 1 ]; then
	# A zswap_store() that began before zswap was disabled may finish
	# after zcache's last look: zcache then runs over pages zswap
	# holds, and must leave their loads and frees to zswap.
	# meminfo_hider.ko makes the kernel's meminfo say that zswap holds
	# nothing, for that one insmod.
	attach_over_held() {
		echo N > $ZSP/enabled
		insmod /zcache/meminfo_hider.ko
		load_zcache
		attached=$?
		rmmod meminfo_hider
	}
	at_checkpoint() {
		zswap_held=$(cat $ZS/stored_pages)
		check "zswap: zswap holds pages" gt "$zswap_held" $MANY
		check "zswap: insmod refused while zswap is enabled" sh -c \
			'! insmod /zcache/zcache.ko && dmesg | grep -q "cannot attach: stock zswap is enabled"'
		# The checks read the kernel's own files, not what the
		# caller's mount namespace shows (a container's LXCFS
		# /proc/meminfo has no Zswapped line).
		echo N > /tmp/enabled.N
		check "zswap: insmod refused while zswap is enabled, from a namespace that shows it disabled" \
			in_namespace_with /tmp/enabled.N $ZSP/enabled "stock zswap is enabled"
		echo N > /sys/module/zswap/parameters/enabled
		check "zswap: insmod refused while disabled zswap still holds pages" sh -c \
			'! insmod /zcache/zcache.ko && dmesg | grep -q "cannot attach: stock zswap holds"'
		grep -v '^Zswapped:' /proc/meminfo > /tmp/meminfo.nozswap
		check "zswap: insmod refused while zswap holds pages, from a namespace whose meminfo has no Zswapped" \
			in_namespace_with /tmp/meminfo.nozswap /proc/meminfo "stock zswap holds"
		sed 's/^Zswapped:.*/Zswapped:             0 kB/' /proc/meminfo > /tmp/meminfo.zero
		check "zswap: insmod refused while zswap holds pages, from a namespace whose meminfo says 0" \
			in_namespace_with /tmp/meminfo.zero /proc/meminfo "stock zswap holds"
		check "zswap: nothing hooked after the refusals" nothing_hooked
		attach_over_held
		zswap_held=$(cat $ZS/stored_pages)
	}
	run_checkpointed "zswap: pages held by zswap, across refused insmods and an attach over them, verified" \
		mixed -m $WS_MB -s 51
	check "zswap: zcache attached over zswap's pages (meminfo_hider)" eq "$attached" 0
	# Every entry zswap holds keeps its swap slot in use (the swap core
	# invalidates a slot before it counts it free), and the workload's
	# slots are free once it has exited: zswap entries the attach
	# leaked (frees that zcache kept from zswap) would show as more
	# entries than slots in use, if there were more of them than the
	# rest of the guest's swapped-out pages (what zswap still holds,
	# which varies from run to run).  Swapoff below catches any leak:
	# it never reaches an entry whose slot is free.  No new store
	# reaches zswap (zcache's redirect takes them all), so its count
	# only falls: read the slots first.
	used=$(swap_used_pages)
	left=$(cat $ZS/stored_pages)
	info "zswap held $zswap_held pages when zcache attached, $left after the read-back; $used swap slots in use"
	check "zswap: zswap holds no page whose swap slot is free" \
		le "$left" "$used"
	check "zswap: zswap freed most of what it held at the attach" \
		lt "$left" $(( zswap_held / 2 ))
	check "zswap: zcache took the new stores" gt "$(stat_ stores)" $MANY
	swapoff /dev/vda
	check "zswap: swapoff drains zswap" eq "$(cat $ZS/stored_pages)" 0
	check "zswap: rmmod zcache after the attach over zswap's pages" rmmod zcache
	# Such a late store can leave zswap's copy in a folio that stays in
	# the swap cache: see rewrite_over_zswap.
	rewrite_over_zswap
	rewrite_held
	check "zswap: insmod once zswap is disabled and empty" load_zcache
	swap_on /dev/vda
	echo Y > /sys/module/zswap/parameters/enabled
	run_plain "zswap: zswap re-enabled under zcache stores nothing, data verified" \
		mixed -m $WS_MB -s 52
	check "zswap: zswap stored nothing while zcache was attached" \
		eq "$(cat $ZS/stored_pages)" 0
	check "zswap: zcache took the stores" gt "$(stat_ stores)" $MANY
	swapoff /dev/vda
	check "zswap: rmmod zcache" rmmod zcache
	zswap_restore
	return 0
fi

at_checkpoint() {
	zswap_held=$(cat $ZS/stored_pages)
	info "zswap holds $zswap_held pages before insmod"
	check "zswap: zswap holds pages" gt "$zswap_held" $MANY
	check "zswap: insmod zcache while zswap holds pages" load_zcache
}
run_checkpointed "zswap: pages held by zswap across insmod verified" \
	mixed -m $WS_MB -s 51
stats_line
info "zswap stored_pages now $(cat $ZS/stored_pages)"
check "zswap: zcache took the new stores" gt "$(stat_ stores)" $MANY
check "zswap: zswap's pages were read back and freed by zswap" \
	lt "$(cat $ZS/stored_pages)" "$zswap_held"

run_plain "zswap: workload with zcache attached over enabled zswap verified" \
	threads -m $WS_MB -t 2 -o $(( 10000 / OPS_DIV )) -s 52
swapoff /dev/vda
check "zswap: swapoff drains zcache" eq "$(stat_ stored_pages)" 0
check "zswap: swapoff drains zswap" eq "$(cat $ZS/stored_pages)" 0
check "zswap: rmmod zcache" rmmod zcache

# zcache attaches with zswap enabled here, over the pages it holds.
attach_over_held() {
	load_zcache
	attached=$?
}
rewrite_over_zswap
rewrite_held
echo Y > $ZSP/enabled

# zswap works on its own again after zcache is gone.
swap_on /dev/vda
before=$(cat $ZS/stored_pages)
at_checkpoint() {
	check "zswap: zswap stores again after rmmod" gt "$(cat $ZS/stored_pages)" $MANY
}
run_checkpointed "zswap: stock zswap after rmmod verified" mixed -m $WS_MB -s 53
swapoff /dev/vda
zswap_restore
