# SPDX-License-Identifier: GPL-2.0
# Group "stress" (debug kernel): load and unload under load, round after
# round, and the OOM killer while zcache holds pages.
#
# Unload rounds (zcrounds= on the command line, 18 by default): insmod
# with the round's compressor, swapon, a workload paging out while rmmod
# is tried over and over (stores in flight), rmmod again while the pages
# are held, read back and verify, swapoff, rmmod.  Every third round
# (round 3, 6, ...), where writeback is available, skips the early rmmods
# and drains once the pages are held (enabled=N, drain=Y), trying rmmod
# all along: it must take, with swap on, once the cache is empty; the
# pages then read back from disk.  Rounds 4, 7, 10, ... (hold rounds)
# skip the early rmmods too: their rmmod with the pages held must be
# refused, whatever the kernel's speed.  Each
# rmmod either refuses and leaves zcache working, or detaches and leaves
# nothing hooked; the data verifies every round.  kmemleak is checked after the
# group by init.

ROUNDS=$(sed -n 's/.*zcrounds=\([0-9]*\).*/\1/p' /proc/cmdline)
ROUNDS=${ROUNDS:-18}
COMPRESSORS="lzo lz4 zstd lz4hc deflate lzo-rle"

# rmmod_loop DIR PID: once workload PID starts paging out (DIR/paging),
# try rmmod until DIR/filled appears or it succeeds; prints "detached" if
# it did.
rmmod_loop() {
	while [ ! -f "$1/paging" ] && kill -0 "$2" 2>/dev/null; do :; done
	while [ ! -f "$1/filled" ] && kill -0 "$2" 2>/dev/null; do
		if rmmod zcache 2>/dev/null; then
			echo detached
			return
		fi
	done
}

# drain_unload: drain while trying rmmod; sets why if it never took.
drain_unload() {
	echo N > $ZP/enabled
	echo Y > $ZP/drain || why="$why; drain refused"
	while ! rmmod zcache 2>/dev/null; do
		[ "$(param drain)" = Y ] && continue
		rmmod zcache ||
			why="$why; rmmod refused after the drain ($(stat_ stored_pages) left)"
		break
	done
}

round=1 bad=0 early=0 refused=0 drained=0 drain_rounds=0 hold_rounds=0 hold_refused=0 wb_avail=0
while [ $round -le $ROUNDS ]; do
	# Each compressor in two kinds of round (drain rounds are every
	# third: round % 6 alone would give each compressor one kind).
	comp=$(echo $COMPRESSORS | cut -d' ' -f$(( (round + (round - 1) / 6) % 6 + 1 )))
	why=""
	insmod /zcache/zcache.ko compressor=$comp || why="insmod failed"
	wb_avail=$(stat_ writeback_available)
	swap_on /dev/vda || why="$why; swapon failed"
	cp=/tmp/round.cp
	rm -rf $cp
	mkdir -p $cp
	swaptest pageout -m 2 -s $((200 + round)) -C $cp > /tmp/round.out 2>&1 &
	pid=$!
	# A drain round skips the early rmmods: it must reach the drain; so
	# does a hold round: it must reach the refusal.
	drain_round=0 hold_round=0 detached=""
	if [ $(( round % 3 )) = 0 ] && [ "$wb_avail" = 1 ]; then
		drain_round=1 drain_rounds=$((drain_rounds + 1))
	elif [ $(( round % 3 )) = 1 ] && [ $round -gt 1 ]; then
		hold_round=1 hold_rounds=$((hold_rounds + 1))
	else
		detached=$(rmmod_loop $cp $pid)
	fi
	while [ ! -f $cp/filled ] && kill -0 $pid 2>/dev/null; do sleep 0.1; done
	# (read once, and only while zcache is still loaded)
	[ -n "$detached" ] || held=$(stat_ stored_pages)
	if [ -n "$detached" ]; then
		early=$((early + 1))
	elif [ $drain_round = 1 ]; then
		[ "$held" -gt 0 ] || why="$why; nothing stored to drain"
		drain_unload
		[ -d /sys/module/zcache ] || drained=$((drained + 1))
	elif [ $hold_round = 1 ] && [ "$held" -eq 0 ]; then
		why="$why; a hold round stored nothing"
	elif [ "$held" -gt 0 ]; then
		if rmmod zcache 2>/dev/null; then
			why="$why; rmmod took while $held pages were stored"
		else
			refused=$((refused + 1))
			[ $hold_round = 1 ] && hold_refused=$((hold_refused + 1))
			[ -d $ZC ] || why="$why; refused rmmod left no debugfs"
		fi
	fi
	touch $cp/go
	wait $pid || why="$why; swaptest exit $? ($(tail -n 1 /tmp/round.out))"
	swapoff /dev/vda || why="$why; swapoff failed"
	if [ -d /sys/module/zcache ]; then
		[ "$(stat_ stored_pages)" -eq 0 ] || why="$why; swapoff left $(stat_ stored_pages) pages"
		rmmod zcache || why="$why; rmmod after swapoff failed"
	fi
	[ -d /sys/module/zcache ] && why="$why; module still loaded"
	hooked_functions > /dev/null && why="$why; still hooked: $(hooked_functions | tr '\n' ' ')"
	if [ -n "$why" ]; then
		fail "stress: round $round ($comp)" "${why#; }"
		bad=$((bad + 1))
		[ $bad -ge 3 ] && break
	fi
	round=$((round + 1))
done
info "unload rounds: $((round - 1)) run, $refused rmmods refused with pages stored, $early detached during the first stores, $drained unloaded with swap on after a drain"
check "stress: $ROUNDS unload rounds, each verified and clean" eq $bad 0
# Each round took one of the paths: rmmod detached before the first
# store, it was refused with pages held, or (every third round) a drain
# emptied the cache and rmmod took with swap on.  How often the first
# two are taken depends on the kernel's speed (a KCSAN kernel reaches its
# first store late, so more of its rounds detach early); the hold rounds
# reach the refusal whatever the speed.
check "stress: each round detached early, was refused with pages stored, or drained" \
	eq $(( early + refused + drained )) $(( round - 1 ))
if [ "$wb_avail" = 1 ]; then
	check "stress: rmmod with swap on after a drain, in each of the $drain_rounds drain rounds" \
		eq $drained $drain_rounds
fi
check "stress: rmmod was refused while pages were stored, in each of the $hold_rounds hold rounds" \
	eq $hold_refused $hold_rounds
[ $ROUNDS -ge 4 ] && check "stress: there were hold rounds" gt $hold_rounds 0

# Parameter writes racing rmmod: the files stay writable until after
# zcache's exit has run, so a write must then only record its value; one
# that reached freed state (the pool, the compressor contexts) would be
# reported by KASAN.  Two writers, one per CPU, while rmmod runs.
param_writer() {
	while [ -d /sys/module/zcache ]; do
		for v in $1; do echo "$v" > "$ZP/$2"; done
	done 2>/dev/null
}
race_rounds=$(( ROUNDS / 2 )) bad=0
for r in $(seq 1 $race_rounds); do
	load_zcache || { bad=$((bad + 1)); continue; }
	param_writer "zsmalloc" allocator &
	w1=$!
	param_writer "zstd lz4 lzo" compressor &
	w2=$!
	sleep 0.$(( r % 5 ))
	if ! rmmod zcache; then
		bad=$((bad + 1))
		kill $w1 $w2
	fi
	wait $w1 $w2
done
check "stress: $race_rounds rmmods with parameter writes in flight" eq $bad 0

# OOM: a task in a small cgroup with little swap is OOM-killed while
# zcache holds its pages and those of a survivor.  The kernel lives on,
# the victim's entries are freed, the survivor's pages verify.
check "stress: insmod for the OOM scenario" load_zcache
swap_on /dev/vda
cp=/tmp/oom.cp
rm -rf $cp
mkdir -p $cp
swaptest pageout -m 8 -s 300 -C $cp > /tmp/survivor.out 2>&1 &
survivor=$!
while [ ! -f $cp/filled ] && kill -0 $survivor 2>/dev/null; do sleep 0.1; done
held=$(stat_ stored_pages)
# 2048 pages, of which about 15% random and 10% zero; reclaim in the small
# cgroup may also read a few back (6.12 frees an entry on swap-in).
check "stress: the survivor's pages are in zcache" gt "$held" 1024
mkdir -p $CG/oom
echo "$(( MEM_MB / 2 ))M" > $CG/oom/memory.max
echo "$(( MEM_MB / 2 ))M" > $CG/oom/memory.swap.max
sh -c "echo \$\$ > $CG/oom/cgroup.procs; exec swaptest mixed -m $(( MEM_MB * 2 )) -s 301" \
	> /tmp/victim.out 2>&1 &
victim=$!
peak=0
while kill -0 $victim 2>/dev/null; do
	s=$(stat_ stored_pages)
	[ "$s" -gt $peak ] && peak=$s
	sleep 0.2
done
wait $victim
rc=$?
info "victim exit $rc, stored_pages peak $peak, survivor held $held, now $(stat_ stored_pages)"
check "stress: the victim was OOM-killed (exit 137)" eq $rc 137
check "stress: the OOM killer ran in the victim's cgroup" sh -c \
	"grep -q 'oom_kill [1-9]' $CG/oom/memory.events"
check "stress: zcache held the victim's pages before the kill" gt $peak $(( held + 1000 ))
# (the shell and the tools in the 16 MB cgroup may have a few pages out)
check "stress: the victim's entries are freed (stored_pages back to the survivor's)" \
	[ "$(stat_ stored_pages)" -le $(( held + 256 )) ]
touch $cp/go
wait $survivor
check "stress: the survivor's pages verified after the OOM kill" eq $? 0
sed 's/^/    /' /tmp/survivor.out
rmdir $CG/oom
swapoff /dev/vda
check "stress: swapoff drains stored_pages" eq "$(stat_ stored_pages)" 0
check "stress: rmmod zcache" rmmod zcache
check "stress: nothing left hooked" nothing_hooked
