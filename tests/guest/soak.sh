# SPDX-License-Identifier: GPL-2.0
# Group "soak" (make soak; not part of make check): a long randomized run
# on the debug kernel.  zcsoak=SECONDS and zcseed=SEED on the command line;
# the same seed replays the same sequence of steps.  Each step is one of:
# a verified workload (mode, size and seed drawn), a parameter change, a
# workload under fault injection, swapoff/swapon, rmmod/insmod.  Every
# workload must verify; every rmmod with pages stored must be refused.

SOAK_S=$(sed -n 's/.*zcsoak=\([0-9]*\).*/\1/p' /proc/cmdline)
SEED=$(sed -n 's/.*zcseed=\([0-9]*\).*/\1/p' /proc/cmdline)
SOAK_S=${SOAK_S:-600} SEED=${SEED:-1}
DBG=/sys/kernel/debug
info "soak: seed $SEED for ${SOAK_S} s (replay: make soak SOAK_SEED=$SEED)"

# rnd N: RND = the next number in 0..N-1 of the seeded sequence.
# pick WORD...: PICK = one of the words.  (Not $(...): a subshell would
# lose the sequence's state.)
rnd_state=$SEED
rnd() {
	rnd_state=$(( (rnd_state * 1103515245 + 12345) % 2147483648 ))
	RND=$(( (rnd_state / 65536) % $1 ))
}
pick() {
	rnd $#
	shift "$RND"
	PICK=$1
}

check "soak: insmod zcache" load_zcache
swap_on /dev/vda
[ -d /sys/kernel/mm/transparent_hugepage ] &&
	echo madvise > /sys/kernel/mm/transparent_hugepage/enabled
end=$(( $(cut -d. -f1 /proc/uptime) + SOAK_S ))
step=0 bad=0
while [ "$(cut -d. -f1 /proc/uptime)" -lt $end ] && [ $bad -lt 3 ]; do
	step=$((step + 1))
	pick workload workload workload param param faults swapcycle reload
	what=$PICK
	rnd $(( MEM_MB + 1 ))
	mb=$(( MEM_MB / 2 + RND ))
	rnd 100000
	s=$RND
	case $what in
	workload)
		pick mixed zero random threads fork pageout thp
		mode=$PICK
		desc="$mode ${mb}M seed $s"
		case $mode in
		threads) rnd 3; swaptest threads -m $mb -t $(( 2 + RND )) -o $(( 5000 / OPS_DIV )) -s $s ;;
		fork)    with_room swaptest fork -m $mb -s $s ;;
		*)       swaptest $mode -m $mb -s $s ;;
		esac > /tmp/soak.out 2>&1 ;;
	param)
		pick compressor enabled max_pool_percent zero_pages_enabled accept_threshold_percent
		p=$PICK
		case $p in
		compressor) pick lzo lzo-rle lz4 lz4hc zstd deflate; v=$PICK ;;
		enabled|zero_pages_enabled) pick Y Y N; v=$PICK ;;
		max_pool_percent) rnd 40; v=$(( 1 + RND )) ;;
		accept_threshold_percent) rnd 51; v=$(( 50 + RND )) ;;
		esac
		desc="$p=$v"
		echo "$v" > $ZP/$p && [ "$(param $p)" = "$v" ] > /tmp/soak.out 2>&1 ;;
	faults)
		pick failslab fail_page_alloc
		kind=$PICK
		pick 1 5 10 25 50
		prob=$PICK
		desc="$kind $prob% under mixed ${mb}M seed $s"
		echo N > $DBG/failslab/ignore-gfp-wait
		echo N > $DBG/fail_page_alloc/ignore-gfp-highmem
		fault_attr $DBG/$kind $prob
		swaptest mixed -m $mb -s $s -F > /tmp/soak.out 2>&1
		rc=$?
		echo 0 > $DBG/$kind/probability
		[ $rc -eq 0 ] ;;
	swapcycle)
		desc="swapoff with $(stat_ stored_pages) pages stored, swapon"
		swapoff /dev/vda && [ "$(stat_ stored_pages)" -eq 0 ] && swap_on /dev/vda ;;
	reload)
		desc="rmmod (refused if pages are stored), swapoff, rmmod, insmod"
		{
			if rmmod zcache 2>/dev/null; then
				! hooked_functions && load_zcache
			else
				[ "$(stat_ stored_pages)" -gt 0 ] &&
					swapoff /dev/vda && rmmod zcache &&
					! hooked_functions && load_zcache &&
					swap_on /dev/vda
			fi
		} > /tmp/soak.out 2>&1 ;;
	esac
	rc=$?
	info "soak step $step: $what: $desc: exit $rc"
	if [ $rc -ne 0 ]; then
		fail "soak: step $step ($what: $desc)" "exit $rc, seed $SEED"
		sed 's/^/    /' /tmp/soak.out
		bad=$((bad + 1))
	fi
	[ -d /sys/module/zcache ] || load_zcache
	grep -q '^/dev/vda' /proc/swaps || swap_on /dev/vda
done
stats_line
check "soak: $step steps, every one verified (seed $SEED)" eq $bad 0
check "soak: no decompression failures" eq "$(stat_ decompress_fail)" 0
swapoff /dev/vda
check "soak: swapoff drains stored_pages" eq "$(stat_ stored_pages)" 0
check "soak: rmmod zcache" rmmod zcache
