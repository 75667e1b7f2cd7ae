#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/bench.sh - make bench: zcache against stock zswap, zram and disk
# swap, in one VM run per kernel and disk model, reported as ratios.
#
# For each kernel line in BENCH_KERNELS (default "6.1 6.12 7.3 6.1-cloud
# 6.12-cloud"; any name tests/run.sh takes, trixie-6.12 among them): fetch Debian's newest image, build zcache, then boot the
# test VM once per disk model and run every backend on every workload,
# BENCH_REPS times (default 3), interleaved.  The console logs go to
# bench/work/<date>/, the "ZB: RUN" lines to bench/results/raw-<date>/,
# the report (bench/report.py) to
# bench/results/<date>.md and its PNG plots; bench/results/<date>-notes.md,
# if written, is appended to the report.
#
# 7.3 (trixie-backports) runs 6.12's backends against its own zswap, which
# stores large folios and has the shrinker: the strongest peer there is.
# Debian's cloud kernels of 6.1 and 6.12 are built without
# zswap (7.3-cloud has it, and runs as 7.3 does): there zcache runs against disk swap and zram, zram being the
# report's peer.  They run disk, zram, zcache-lz4 and zcache-lz4-p50
# (BENCH_BACKENDS replaces them, less any zswap backend: none runs there)
# on the nvme and cloud disk models only, with no profile boot, and boot
# with pci=nomsi (as tests/run.sh boots them).  BENCH_KERNELS="6.1 6.12"
# leaves them out.
#
# Disk models (BENCH_DISKS, default "nvme cloud throttled raw"):
#   nvme       a local NVMe SSD: every request takes at least 85 us (read)
#              or 20 us (write), the random 4 KiB latencies of Intel's
#              P4500 (1-2 TB), times the guest's slowdown (below).
#   cloud      a cloud network volume: at least 1000 us a request, the low
#              end of AWS's "single-digit millisecond" for gp3, EBS's
#              default type (io2 Block Express: under 500 us), times the
#              slowdown.
#              Both run on zdelay0 (tests/kmod/zdelay.c) in the guest,
#              stacked on the raw disk below.  The slowdown is measured
#              in each boot: bench/calib.c's lz4 over the corpus and page
#              copies, in the guest over the same on the host (run once,
#              before the boots, on an otherwise idle host).
#              The full matrix runs on nvme; cloud runs the backends
#              its targets name.  Neither models a volume's IOPS or
#              throughput cap, only its latency.
#   throttled  O_DIRECT (cache=none,aio=native), throttled to 2500 IOPS
#              and 125 MiB/s: a SATA SSD (about 10000 random 4 KiB reads
#              a second at the queue depth of a page fault, 500 MB/s in
#              sequence) slowed by the 4x that TCG slows the CPU by, so
#              that a disk read costs what it costs next to a real CPU.
#              The full backend x workload matrix runs here: a
#              reference, as earlier results were taken on it.
#   raw        O_DIRECT, unthrottled: the host's disk, ~76 us per 4 KiB
#              write, fast next to TCG's CPU.  Disk, the peer and zcache
#              on two workloads, on the first stock kernel only (for
#              time): the other reference.
# Never cache=unsafe or writeback: swap would land in the host's RAM.
#
# Then, unless BENCH_PROFILE=0, one more boot per stock kernel (throttled disk)
# profiles the peer and zcache on the mixed workload: the function_graph
# tracer times the store and load paths and the functions they share
# (compressor, zsmalloc); the mean time of each call goes to
# <KVER>.prof and into the report.  Tracing slows these runs: they are
# not figures.  BENCH_PROFILE_FUNCS and BENCH_PROFILE_REPS choose the
# functions and the repetitions (below).
#
# BENCH_BACKENDS and BENCH_WORKLOADS narrow the throttled matrix, BENCH_DATE
# names the output (default today).  BENCH_DISKS= (empty) runs the profile
# alone.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

kernels=${BENCH_KERNELS:-6.1 6.12 7.3 6.1-cloud 6.12-cloud}
reps=${BENCH_REPS:-3}
disks=${BENCH_DISKS-nvme cloud throttled raw}
mem=${BENCH_VM_MEM:-192}
date=${BENCH_DATE:-$(date +%Y-%m-%d)}
work=$ZCACHE_TOP/bench/work/$date
results=$ZCACHE_TOP/bench/results

# Which backend runs which workload: every compressor of both caches on
# the mixed workload (their speed and ratio); the peers that matter for
# each target elsewhere.  zram cannot run the incompressible workload: it
# keeps every page in RAM, and a working set past RAM that does not
# compress does not fit.  zcache-lz4-p50 has the pool limit raised to 50%,
# zcache-lz4-nowb has writeback off (what writeback buys, on the workloads
# whose pool fills); zswap-lz4-shrink is 6.12's zswap with its shrinker on.
# zcache-lz4-c100 keeps every page that compresses at all, whatever the
# pool's state (max_compressed_percent=100): on mixed, pages refused for
# compressing to 75-100% lie between stored ones, and their reads do not
# merge;
# zcache-lz4-c90 (not run by default) is the same at 90%.
# zcache-lz4-strict refuses those pages even while the pool has room
# (keep_poor_pages=N, zcache's behaviour before 2026-12-07).
full_6_1="disk zswap-default zswap-lz4 zswap-zstd zram zcache-lz4 zcache-zstd zcache-lzo zcache-lz4hc zcache-deflate zcache-lz4-p50 zcache-lz4-nowb zcache-lz4-c100 zcache-lz4-strict"
full_6_12="disk zswap-default zswap-lz4 zswap-lz4-shrink zram zcache-lz4 zcache-zstd zcache-lz4-p50 zcache-lz4-nowb zcache-lz4-c100 zcache-lz4-strict"
workloads=${BENCH_WORKLOADS:-mixed zero random threads build}
only="zero:disk+zswap-lz4+zram+zcache-lz4+zcache-lz4-strict"
only="$only;random:disk+zswap-lz4+zcache-lz4"
only="$only;threads:disk+zswap-lz4+zswap-lz4-shrink+zram+zcache-lz4+zcache-lz4-p50+zcache-lz4-nowb+zcache-lz4-strict"
only="$only;build:disk+zswap-lz4+zswap-lz4-shrink+zram+zcache-lz4+zcache-lz4-nowb+zcache-lz4-strict"
only="$only;mixed:disk+zswap-default+zswap-lz4+zswap-lz4-shrink+zswap-zstd+zram+zcache-lz4+zcache-zstd+zcache-lzo+zcache-lz4hc+zcache-deflate+zcache-lz4-nowb+zcache-lz4-c100+zcache-lz4-c90+zcache-lz4-strict"
raw_backends="disk zswap-lz4 zcache-lz4"
raw_workloads="mixed random"
# The cloud model runs the backends its targets name (every request
# waits a millisecond or more there: the full matrix would take hours).
cloud_backends="disk zswap-lz4 zram zcache-lz4 zcache-lz4-p50"
# The cloud kernels (no zswap): disk, the peer (zram) and zcache, on the
# latency-modelled disks.
nozswap_backends="disk zram zcache-lz4 zcache-lz4-p50"
nozswap_disks="nvme cloud"
# The first stock kernel, the raw disk's.
first_stock=$(for line in $kernels; do case $line in *-cloud) ;; *) echo "$line"; break ;; esac; done)
# The kernels built without zswap.
nozswap_kernels="6.1-cloud 6.12-cloud trixie-6.12-cloud"
# Both kernels' store and load entry points (6.1: frontswap's ops), each
# cache's own compress and decompress steps, and what both call.
profile_funcs="zswap_frontswap_store zswap_frontswap_load zswap_store zswap_load"
profile_funcs="$profile_funcs zcache_store zcache_load zswap_compress zswap_decompress"
profile_funcs="$profile_funcs zcomp_compress zcomp_decompress zcomp_looks_incompressible"
profile_funcs="$profile_funcs lz4_scompress lz4_sdecompress lz4_compress_crypto"
profile_funcs="$profile_funcs lz4_decompress_crypto zs_malloc zs_map_object"
profile_funcs="$profile_funcs zs_obj_read_begin zs_obj_write"
profile_funcs="$profile_funcs xa_ext_replace xa_ext_erase xa_store xa_erase"
# BENCH_PROFILE_FUNCS replaces them: "F F;F F G" traces the first set in
# the odd repetitions and the second in the even ones (BENCH_PROFILE_REPS,
# default 1), e.g. the entry points alone, so that their times carry no
# nested traced call, then with the compressors (report.py's share table).
profile_funcs=${BENCH_PROFILE_FUNCS:-$profile_funcs}
profile_reps=${BENCH_PROFILE_REPS:-1}

disk_opts() {
	case $1 in
	throttled) echo "cache=none,aio=native,throttling.iops-total=2500,throttling.bps-total=131072000" ;;
	raw|nvme|cloud) echo "cache=none,aio=native" ;;
	*)         die "unknown disk model $1" ;;
	esac
}

# The guest's arguments for a latency-modelled disk: the device's read
# and write latencies in us, and the host's calibration.
disk_args() {
	case $1 in
	nvme)  echo "zbench_lat=85,20 zbench_hostcal=$hostcal" ;;
	cloud) echo "zbench_lat=1000,1000 zbench_hostcal=$hostcal" ;;
	esac
}

# no_zswap BACKEND...: those that are not zswap's
no_zswap() {
	local b
	for b; do
		case $b in *zswap*) ;; *) printf '%s ' "$b" ;; esac
	done
}

# bench_boot NAME DISK TAG ARGS: boot $KVER's test VM on disk model DISK
# with the guest arguments ARGS (after $extra), console log in
# $work/$KVER-NAME.log; print its "ZB: TAG" lines tagged with the kernel
# and the disk.  Dies unless every run of the boot verified its data.
bench_boot() {
	local name=$1 disk=$2 tag=$3 args=$4 log_file=$work/$KVER-$1.log clean

	# (the "max" CPU of the earlier results; the suite's guests run
	# qemu64.  A latency-modelled disk's boot may take twice as long.)
	ZCACHE_VM_CPU=${ZCACHE_VM_CPU:-max} \
	ZCACHE_DISK_OPTS=$(disk_opts "$disk") \
	ZCACHE_VM_TIMEOUT=${BENCH_VM_TIMEOUT:-$(case $disk in nvme|cloud) echo 10800 ;; *) echo 5400 ;; esac)} \
		"$ZCACHE_TOP/scripts/vm-run.sh" "$envfile" "$build/initramfs.gz" \
		"$log_file" bench 1 "$mem" "$extra$args" || true
	# (the log without the serial console's CRs, read once)
	clean=$(tr -d '\r' < "$log_file")
	sed -n "s/^.*ZB: $tag /$tag kernel=$KVER disk=$disk /p" <<< "$clean"
	sed -n "s/^.*ZB: MODEL /MODEL kernel=$KVER disk=$disk /p" <<< "$clean" \
		> "$work/$KVER-$1.model"
	[ -s "$work/$KVER-$1.model" ] || rm -f "$work/$KVER-$1.model"
	# The runs after which the guest found the kernel newly tainted (a
	# warning), printed and kept with the raw results (*.taint).
	sed -n "s/^.*ZB: TAINT /TAINT kernel=$KVER disk=$disk /p" <<< "$clean" \
		> "$work/$KVER-$1.taint"
	if [ -s "$work/$KVER-$1.taint" ]; then
		sed "s/^/$KVER $name: /" "$work/$KVER-$1.taint" >&2
	else
		rm -f "$work/$KVER-$1.taint"
	fi
	! grep -a '^ZT: FAIL ' <<< "$clean" ||
		die "$KVER $name: the guest failed a step; see $log_file"
	grep -aq '^ZT: PASS bench: every run verified' <<< "$clean" ||
		die "$KVER $name: a run lost data or the guest did not finish; see $log_file"
}

need_host_tools
need_pkgs gnuplot:gnuplot-nox /usr/bin/python3:python3 \
	/usr/lib/x86_64-linux-gnu/liblz4.a:liblz4-dev
mkdir -p "$work" "$results"
log "benchmark $date: kernels $kernels, disks $disks, $reps reps; raw output in $work"

# The CPU calibration (bench/calib.c), static, run here over the corpus
# the guest gets.
gcc -O2 -Wall -Wextra -Werror -static -o "$work/zcalib" \
	"$ZCACHE_TOP/bench/calib.c" -llz4 || die "zcalib build failed"
hostcal=$("$work/zcalib" $("$ZCACHE_TOP/scripts/mkinitramfs.sh" --corpus "$work/corpus")) ||
	die "zcalib failed on the host"
log "host calibration: $hostcal"
echo "$hostcal" > "$work/hostcal"
hostcal=$(echo "$hostcal" | sed 's/lz4_ns=\([0-9.]*\) copy_ns=\([0-9.]*\)/\1,\2/')

for line in $kernels; do
	envfile=$("$ZCACHE_TOP/scripts/kernel-fetch.sh" "$line")
	. "$envfile"
	build=$("$ZCACHE_TOP/scripts/build.sh" "$envfile")
	cp "$work/zcalib" "$build/zcalib"
	"$ZCACHE_TOP/scripts/mkinitramfs.sh" "$envfile" "$build" "$build/initramfs.gz"
	full=$full_6_1
	case $line in 6.1) ;; *) full=$full_6_12 ;; esac
	full=${BENCH_BACKENDS:-$full}
	# (The cloud kernels find their second CPU through ACPI: pci=nomsi
	# in place of vm-run.sh's pci=noacpi.)
	nozswap=0 extra=""
	case $line in *-cloud) extra="pci=nomsi " ;; esac
	case " $nozswap_kernels " in *" $line "*) nozswap=1 ;; esac
	for disk in $disks; do
		if [ $nozswap = 1 ]; then
			case " $nozswap_disks " in *" $disk "*) ;; *) continue ;; esac
			# shellcheck disable=SC2086 # (a list)
			b=$(no_zswap ${BENCH_BACKENDS:-$nozswap_backends}) w=$workloads
			if [ -z "$b" ]; then
				log "$KVER, $disk disk: no backend to run without zswap"
				continue
			fi
		elif [ "$disk" = raw ]; then
			[ "$line" = "$first_stock" ] || continue
			b=$raw_backends w=$raw_workloads
		elif [ "$disk" = cloud ]; then
			b=${BENCH_BACKENDS:-$cloud_backends} w=$workloads
		else
			b=$full w=$workloads
		fi
		log "$KVER, $disk disk: $(echo $b | wc -w) backends x $(echo $w | wc -w) workloads x $reps"
		bench_boot "$disk" "$disk" RUN \
			"zbench_backends=$(echo $b | tr ' ' ,) zbench_workloads=$(echo $w | tr ' ' ,) zbench_reps=$reps zbench_only=$only $(disk_args "$disk")" \
			> "$work/$KVER-$disk.runs"
		log "$(wc -l < "$work/$KVER-$disk.runs") runs recorded"
	done
	[ "${BENCH_PROFILE:-1}" = 0 ] && continue
	[ $nozswap = 1 ] && continue	# (no zswap to profile)
	log "$KVER: profile of zswap-lz4 and zcache-lz4 on mixed"
	bench_boot profile throttled PROF \
		"zbench_backends=zswap-lz4,zcache-lz4 zbench_workloads=mixed zbench_reps=$profile_reps zbench_profile=$(echo $profile_funcs | tr ' ' ,)" \
		> "$work/$KVER.prof"
	log "$(wc -l < "$work/$KVER.prof") functions timed"
done

git -C "$ZCACHE_TOP" describe --always --dirty > "$work/commit" 2>/dev/null || true
# The runs are kept with the results: report.py can remake the report.
mkdir -p "$results/raw-$date"
cp "$work/commit" "$results/raw-$date/"
cp "$work"/*.runs "$work"/*.prof "$work"/*.model "$work"/*.taint "$work/hostcal" "$results/raw-$date/" 2>/dev/null || true
python3 "$ZCACHE_TOP/bench/report.py" "$results/raw-$date" "$results" "$date"
log "results: $results/$date.md"
