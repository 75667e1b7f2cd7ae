# SPDX-License-Identifier: GPL-2.0
# The benchmark's guest side (zctest=bench, sourced by the test VM's init).
#
# Kernel command line:
#   zbench_backends=B,B,...  disk zswap-default zswap-lz4 zswap-zstd zram
#                            zswap-lz4-shrink (6.12: zswap's shrinker on)
#                            zcache-COMP zcache-COMP-pPERCENT
#                            zcache-COMP-nowb (writeback_enabled=N)
#                            zcache-COMP-cPERCENT (max_compressed_percent)
#                            zcache-COMP-strict (keep_poor_pages=N)
#   zbench_workloads=W,W,... mixed zero random threads build
#   zbench_reps=N            repetitions, interleaved: every backend runs a
#                            workload before any runs it again
#   zbench_only=W:B+B;...    restrict workload W to backends B (optional)
#   zbench_profile=F,F,...   time these kernel functions with the
#                            function_graph tracer (a profile boot: its
#                            runs are not figures); F,F;F,F,... gives
#                            one set a repetition, in turn
#   zbench_lat=R,W           swap to zdelay0 over the disk: a device whose
#                            reads take at least R us and writes W us on a
#                            real machine, scaled by the guest's slowdown
#   zbench_hostcal=L,C       the host's zcalib figures (lz4_ns, copy_ns)
#                            that the slowdown is measured against
#
# One "ZB: RUN key=value ..." line per run; the host makes the tables.  A
# run whose data does not verify prints ok=0 and is not a figure.  A
# profile boot adds one "ZB: PROF ... func=F calls=N mean_us=T" line per
# run and function called; a latency-modelled disk, one "ZB: MODEL" line.

arg() { tr ' ' '\n' < /proc/cmdline | sed -n "s/^$1=//p"; }
BACKENDS=$(arg zbench_backends | tr ',' ' ')
WORKLOADS=$(arg zbench_workloads | tr ',' ' ')
REPS=$(arg zbench_reps)
ONLY=$(arg zbench_only)
PROFILE_SETS=$(arg zbench_profile)
LAT=$(arg zbench_lat)
HOSTCAL=$(arg zbench_hostcal)
TR=/sys/kernel/tracing
# Working sets of 1.25x the guest's RAM: past it, and still within what
# zram (which holds everything in RAM, without a limit) can keep.
WS_MB=$(( MEM_MB * 5 / 4 ))
ZSW=/sys/module/zswap/parameters
ZSWD=/sys/kernel/debug/zswap

# Stock zswap's defaults, as this kernel was built, before anything changes
# them.  (Kernels without zpool, 7.3's, have zsmalloc alone and no zpool
# parameter.)
ZSWAP_DEF="$(cat $ZSW/compressor)/$(cat $ZSW/zpool 2>/dev/null || echo zsmalloc)"
echo 0 > $ZSW/enabled 2>/dev/null
info "bench: zswap defaults $ZSWAP_DEF, backends $BACKENDS, workloads $WORKLOADS, $REPS reps"

# The swap disk behaves like an SSD: non-rotational (the swap core then
# uses its SSD cluster allocator; swapon is not asked to discard).
echo 0 > /sys/block/vda/queue/rotational
SWAPDEV=/dev/vda

# A latency-modelled disk: the device's latencies times the guest's
# slowdown, the geometric mean of zcalib's two figures here over the
# host's, so that a page read from the disk costs the guest what it costs
# a real machine next to its CPU.  zdelay0 completes each request no
# sooner than that after its submission (tests/kmod/zdelay.c).
if [ -n "$LAT" ]; then
	cal=$(zcalib) || { fail "bench: zcalib runs in the guest" "$cal"; cal=""; }
	# (busybox's awk has no sqrt(): Newton's method)
	model=$(echo "$LAT $HOSTCAL $cal" | tr ',=' '  ' | awk '
		function root(x,  r, i) {
			r = x < 1 ? 1 : x
			for (i = 0; i < 60; i++)
				r = (r + x / r) / 2
			return r
		}
		# R W hostlz4 hostcopy lz4_ns G copy_ns G
		$3 > 0 && $4 > 0 && $6 > 0 && $8 > 0 {
			f = root(($6 / $3) * ($8 / $4))
			printf "factor=%.2f read_us=%d write_us=%d", f, $1 * f + 0.5, $2 * f + 0.5
		}')
	[ -n "$model" ] || cal=""
	info "bench: guest $cal, host $HOSTCAL, device $LAT us: $model"
	if [ -n "$cal" ] && insmod /zcache/zdelay.ko target=/dev/vda \
		$(echo "$model" | cut -d' ' -f2-); then
		SWAPDEV=/dev/zdelay0
		echo 0 > /sys/block/zdelay0/queue/rotational
		echo "ZB: MODEL device_us=$LAT $model"
	else
		fail "bench: zdelay0 over vda" "no latency-modelled disk"
		# Not a figure of this model: every run says so.
		BACKENDS=""
	fi
fi
# Requests the disk completed: /sys/block/vda/stat's reads and writes.
disk_ios() { awk '{print $1, $5}' /sys/block/vda/stat; }

mount -t cgroup2 cgroup2 $CG 2>/dev/null
echo +memory > $CG/cgroup.subtree_control

vmstat_() { awk -v k="$1" '$1 == k {print $2}' /proc/vmstat; }
# user and system time of the whole guest, in USER_HZ ticks
cpu_ticks() { awk '/^cpu / {print $2 + $3, $4 + $7 + $8}' /proc/stat; }

wanted() {	# wanted WORKLOAD BACKEND: does zbench_only allow the pair?
	local rule
	for rule in $(echo "$ONLY" | tr ';' ' '); do
		[ "${rule%%:*}" = "$1" ] || continue
		echo "+${rule#*:}+" | grep -q "+$2+"
		return
	done
	return 0
}

# ---- backends ----
zswap_set() {	# zswap_set COMPRESSOR/ZPOOL
	echo "${1%/*}" > $ZSW/compressor &&
		if [ -e $ZSW/zpool ]; then
			echo "${1#*/}" > $ZSW/zpool
		else
			[ "${1#*/}" = zsmalloc ]
		fi &&
		echo 20 > $ZSW/max_pool_percent && echo 1 > $ZSW/enabled
}

backend_up() {
	case $1 in
	disk)		;;
	zswap-default)	zswap_set "$ZSWAP_DEF" || return 1 ;;
	zswap-lz4)	zswap_set lz4/zsmalloc || return 1 ;;
	zswap-zstd)	zswap_set zstd/zsmalloc || return 1 ;;
	zswap-lz4-shrink)
		[ -w $ZSW/shrinker_enabled ] || return 1
		zswap_set lz4/zsmalloc && echo Y > $ZSW/shrinker_enabled || return 1
		;;
	zram)
		echo 1 > /sys/block/zram0/reset
		echo lz4 > /sys/block/zram0/comp_algorithm || return 1
		echo $(( WS_MB + 64 ))M > /sys/block/zram0/disksize || return 1
		swap_on /dev/zram0
		return
		;;
	zcache-*-nowb)
		c=${1#zcache-}
		insmod /zcache/zcache.ko compressor=${c%-nowb} writeback_enabled=N || return 1
		;;
	zcache-*-strict)
		c=${1#zcache-}
		insmod /zcache/zcache.ko compressor=${c%-strict} \
			keep_poor_pages=N || return 1
		;;
	zcache-*-c*)
		c=${1#zcache-}
		insmod /zcache/zcache.ko compressor=${c%-c*} \
			max_compressed_percent=${c##*-c} || return 1
		;;
	zcache-*-p*)
		c=${1#zcache-}
		insmod /zcache/zcache.ko compressor=${c%-p*} max_pool_percent=${c##*-p} || return 1
		;;
	zcache-*)	insmod /zcache/zcache.ko compressor=${1#zcache-} || return 1 ;;
	*)		return 1 ;;
	esac
	swap_on $SWAPDEV
}

backend_down() {
	swapoff $SWAPDEV 2>/dev/null
	swapoff /dev/zram0 2>/dev/null
	case $1 in
	zswap-*)
		echo 0 > $ZSW/enabled
		[ -w $ZSW/shrinker_enabled ] && echo N > $ZSW/shrinker_enabled
		;;
	zram)		echo 1 > /sys/block/zram0/reset ;;
	zcache-*)	rmmod zcache ;;
	esac
	echo 3 > /proc/sys/vm/drop_caches
}

# Faults the cache served, and pages it wrote back, so far: zcache's own
# counters (they start at insmod), else zswap's (6.12: vmstat's zswpin and
# zswpwb; 6.1: frontswap's loads, zswap's written_back_pages).
cache_hits() {
	if [ -r $ZC/loads ]; then stat_ loads
	elif [ -r /sys/kernel/debug/frontswap/loads ]; then cat /sys/kernel/debug/frontswap/loads
	else vmstat_ zswpin | grep . || echo 0
	fi
}
cache_written_back() {
	if [ -r $ZC/written_back ]; then stat_ written_back
	elif [ -r $ZSWD/written_back_pages ]; then cat $ZSWD/written_back_pages
	else vmstat_ zswpwb | grep . || echo 0
	fi
}

# Pages the cache took, so far (zram's are pswpout): zcache's stores,
# frontswap's (6.1) or vmstat's zswpout (6.12).
cache_stores() {
	if [ -r $ZC/stores ]; then stat_ stores
	elif [ -r /sys/kernel/debug/frontswap/succ_stores ]; then cat /sys/kernel/debug/frontswap/succ_stores
	else vmstat_ zswpout | grep . || echo 0
	fi
}

# zswap's counters live as long as the kernel: runs report differences.
zswap_rejects() {
	local rej=0 f
	for f in $ZSWD/reject_* $ZSWD/pool_limit_hit; do
		[ -r "$f" ] && rej=$(( rej + $(cat "$f") ))
	done
	echo $rej
}

# Each backend's own figures while the workload holds its pages:
# pages held, zero pages among them, pool bytes, rejects (zcache: by
# reason), metadata bytes.
backend_stats() {
	local d
	case $1 in
	zcache-*)
		echo "held=$(stat_ stored_pages) zero=$(stat_ zero_pages)" \
			"pool=$(stat_ pool_total_size)" \
			"rejects=$(( $(stat_ pool_limit_hit) + $(stat_ reject_compress_poor) + $(stat_ reject_compress_fail) + $(stat_ reject_alloc_fail) ))" \
			"limit=$(stat_ pool_limit_hit) poor=$(stat_ reject_compress_poor)" \
			"sampled=$(stat_ reject_poor_sampled) allocfail=$(stat_ reject_alloc_fail)" \
			"meta=$(stat_ metadata_bytes)"
		;;
	zswap-*)
		d=$ZSWD
		local zero=0 size
		[ -r $d/same_filled_pages ] && zero=$(cat $d/same_filled_pages)
		# A zswap entry is a slab object of its own (6.1: with its
		# rbtree node inside); zero pages get one too.
		size=$(cat /sys/kernel/slab/zswap_entry/slab_size 2>/dev/null || echo 0)
		echo "held=$(cat $d/stored_pages) zero=$zero pool=$(cat $d/pool_total_size)" \
			"rejects=$(( $(zswap_rejects) - zswap_rejects0 ))" \
			"meta=$(( $(cat $d/stored_pages) * size ))"
		;;
	zram)
		# orig compr mem_used limit max same compacted huge
		set -- $(cat /sys/block/zram0/mm_stat)
		echo "held=$(( $1 / 4096 )) zero=$6 pool=$3 rejects=0 huge=$8"
		;;
	*)	echo "held=0 zero=0 pool=0 rejects=0" ;;
	esac
}

# ---- profile ----
# The function_graph tracer on PROFILE's functions (those this kernel and
# the backend have), in a ring buffer that keeps the newest 2 MiB a CPU:
# the end of the run.  Each call's time includes the tracer's own cost of
# the traced calls nested in it.
profile_start() {
	local f n
	[ -n "$PROFILE_SETS" ] || return 0
	# (this repetition's set: the sets in turn)
	n=$(echo "$PROFILE_SETS" | tr ';' '\n' | wc -l)
	PROFILE_SET=$(( (rep - 1) % n + 1 ))
	PROFILE=$(echo "$PROFILE_SETS" | tr ';' '\n' |
		sed -n "${PROFILE_SET}p" | tr ',' ' ')
	grep -q " $TR tracefs" /proc/mounts || mount -t tracefs nodev $TR
	echo nop > $TR/current_tracer
	: > $TR/set_ftrace_filter
	for f in $PROFILE; do
		echo "$f" >> $TR/set_ftrace_filter 2>/dev/null
	done
	# An empty filter (it reads "#### all functions enabled ####")
	# would trace every function.
	grep -qv '^#' $TR/set_ftrace_filter || return 0
	echo 2048 > $TR/buffer_size_kb
	echo 1 > $TR/options/funcgraph-tail
	echo 0 > $TR/options/funcgraph-irqs
	echo function_graph > $TR/current_tracer
	: > $TR/trace
	echo 1 > $TR/tracing_on
}

# profile_stop: one "ZB: PROF" line per function the run called
profile_stop() {
	[ -n "$PROFILE_SETS" ] || return 0
	echo 0 > $TR/tracing_on
	# " 1) + 12.345 us   |    name [module]();"  a call without traced calls
	# " 1) + 12.345 us   |  } /* name [module] */"  the end of one with them
	awk -v run="rep=$rep set=$PROFILE_SET workload=$workload backend=$backend" '
		/ us / {
			for (i = 2; i <= NF; i++)
				if ($i == "us") { d = $(i - 1); break }
			f = $0
			sub(/^[^|]*\| */, "", f)
			if (f ~ /^\} \/\* /) {
				sub(/^\} \/\* /, "", f)
				sub(/ \*\/$/, "", f)
			} else if (f ~ /\(\);$/) {
				sub(/\(\);$/, "", f)
			} else {
				next
			}
			sub(/ \[.*\]$/, "", f)
			n[f]++
			t[f] += d
		}
		END {
			for (f in n)
				printf "ZB: PROF %s func=%s calls=%d mean_us=%.1f\n", run, f, n[f], t[f] / n[f]
		}' $TR/trace
	echo nop > $TR/current_tracer
	: > $TR/set_ftrace_filter
	echo 1 > $TR/buffer_size_kb
}

# ---- workloads ----
SEED=100
CPDIR=/tmp/bench.cp

# run_swaptest ARGS...: swaptest with a checkpoint; the backend's figures
# are read while it holds its pages.  Prints swaptest's output.
run_swaptest() {
	rm -rf $CPDIR
	mkdir -p $CPDIR
	swaptest "$@" -C $CPDIR > /tmp/bench.out 2>&1 &
	local pid=$!
	while [ ! -f $CPDIR/filled ] && kill -0 $pid 2>/dev/null; do sleep 0.2; done
	backend_stats "$backend" > /tmp/bench.stats
	touch $CPDIR/go
	wait $pid
}

# A build-like load: short-lived jobs, two at a time (make -j2), each
# filling and re-reading its own mixed data, in a memory cgroup half the
# size of what they use together.
run_build() {
	local job=0 pids="" p status=0 t0
	mkdir -p $CG/build
	echo $(( MEM_MB / 2 ))M > $CG/build/memory.max
	t0=$(uptime_s)
	echo held=0 > /tmp/bench.stats
	while [ $job -lt 6 ]; do
		sh -c "echo \$\$ > $CG/build/cgroup.procs; exec swaptest mixed -m $(( MEM_MB * 3 / 8 )) -s $(( SEED + job ))" \
			> /tmp/bench.job$job 2>&1 &
		pids="$pids $!"
		job=$((job + 1))
		[ $(( job % 2 )) = 0 ] || continue
		# The backend's figures at the peak of what it held
		while kill -0 $pids 2>/dev/null; do
			backend_stats "$backend" > /tmp/bench.now
			[ "$(sed -n 's/^held=\([0-9]*\).*/\1/p' /tmp/bench.now)" -gt \
			  "$(sed -n 's/^held=\([0-9]*\).*/\1/p' /tmp/bench.stats)" ] &&
				cp /tmp/bench.now /tmp/bench.stats
			sleep 1
		done
		for p in $pids; do wait $p || status=1; done
		pids=""
	done
	echo "swaptest: time build=$(awk -v t0="$t0" '{printf "%.3f", $1 - t0}' /proc/uptime)"
	rmdir $CG/build
	cat /tmp/bench.job*
	rm -f /tmp/bench.job*
	return $status
}

run_workload() {
	case $1 in
	mixed)		run_swaptest mixed -m $WS_MB -s $SEED ;;
	zero)		run_swaptest mixed -Z 60 -m $WS_MB -s $SEED ;;
	random)		run_swaptest random -m $WS_MB -s $SEED ;;
	threads)	run_swaptest threads -m $WS_MB -t 2 -o 30000 -s $SEED ;;
	build)		run_build > /tmp/bench.out 2>&1 ;;
	esac
}

# A run after which the kernel is newly tainted (a WARN, an oops survived)
# is named, with the kernel's last messages, whatever the console's
# loglevel hid: one "ZB: TAINT" line, then those lines.  (Loading an
# out-of-tree or unsigned module, O and E, is not news.)
tainted() { echo $(( $(cat /proc/sys/kernel/tainted) & ~(4096 | 8192) )); }
taint_check() {
	local t
	t=$(tainted)
	[ "$t" = "$taint0" ] && return 0
	echo "ZB: TAINT rep=$rep workload=$workload backend=$backend tainted=$taint0..$t"
	dmesg | grep -v ' zdelay: \| zcache: \(attached\|detached\)' | tail -n 80 | sed 's/^/    /'
	taint0=$t
}

rep=1
bad=0
taint0=$(tainted)
while [ $rep -le "$REPS" ]; do
	for workload in $WORKLOADS; do
		for backend in $BACKENDS; do
			wanted $workload $backend || continue
			if ! backend_up $backend; then
				echo "ZB: RUN rep=$rep workload=$workload backend=$backend ok=0 why=setup"
				backend_down $backend
				taint_check
				continue
			fi
			zswap_rejects0=$(zswap_rejects)
			hits0=$(cache_hits) wb0=$(cache_written_back) cst0=$(cache_stores)
			pswpin0=$(vmstat_ pswpin) pswpout0=$(vmstat_ pswpout)
			cpu0=$(cpu_ticks) dio0=$(disk_ios)
			profile_start
			run_workload $workload
			ok=$?
			profile_stop
			# (build: the whole build's time, not its jobs')
			times=$(sed -n 's/^swaptest: time //p' /tmp/bench.out | head -n 1)
			# zcache's traffic over the whole run
			traffic=""
			[ -r $ZC/stores ] &&
				traffic="stores=$(stat_ stores) loads=$(stat_ loads)"
			echo "ZB: RUN rep=$rep workload=$workload backend=$backend ok=$([ $ok = 0 ] && echo 1 || echo 0)" \
				"$traffic" \
				"$times" \
				"pswpin=$(( $(vmstat_ pswpin) - pswpin0 )) pswpout=$(( $(vmstat_ pswpout) - pswpout0 ))" \
				"hits=$(( $(cache_hits || echo 0) - ${hits0:-0} )) wb=$(( $(cache_written_back || echo 0) - ${wb0:-0} ))" \
				"cstores=$(( $(cache_stores || echo 0) - ${cst0:-0} ))" \
				"$(echo "$cpu0 $(cpu_ticks)" | awk '{printf "user=%.2f sys=%.2f", ($3 - $1) / 100, ($4 - $2) / 100}')" \
				"$(echo "$dio0 $(disk_ios)" | awk '{printf "dio_r=%d dio_w=%d", $3 - $1, $4 - $2}')" \
				"$(cat /tmp/bench.stats)"
			if [ $ok != 0 ]; then
				bad=$((bad + 1))
				sed 's/^/    /' /tmp/bench.out
			fi
			backend_down $backend
			taint_check
		done
	done
	rep=$((rep + 1))
done
[ "$SWAPDEV" = /dev/zdelay0 ] &&
	info "bench: zdelay0 held back $(cat /sys/module/zdelay/parameters/delayed) completions, $(cat /sys/module/zdelay/parameters/undelayed) came late enough alone"
check "bench: every run verified its data" eq $bad 0
