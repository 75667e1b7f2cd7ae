#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/run.sh - the whole zcache test suite (make check)
#
# For each kernel in ZCACHE_KERNELS: fetch it (Debian's images) or build it
# (LINE-debug: Debian's source with KASAN, lockdep, kmemleak and fault
# injection; LINE-kcsan: with KCSAN; scripts/debug-kernel.sh), build the
# modules with W=1, check what can be checked on the host, then boot the
# test VM once per scenario group and count the guest's PASS/FAIL lines.
# Stock kernels run ZCACHE_GROUPS in a 192 MB guest (ZCACHE_VM_MEM; the
# workloads are sized from its RAM), debug kernels ZCACHE_DEBUG_GROUPS in
# a 16 MB memory cgroup of a 512 MB guest.  A group whose guest crashes,
# hangs or prints a kernel warning or a detector's report about zcache
# fails.  Ends with "N passed, N failed"; exits non-zero on any failure.
set -uo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

kernels=${ZCACHE_KERNELS:-6.1 7.3 6.12 7.3-rt 6.12-cloud 6.1-rt 7.3-cloud trixie-6.12-rt 6.12-rt trixie-6.12-cloud 6.1-cloud trixie-6.12 6.12-debug 6.1-debug 7.3-debug 6.12-kcsan}
# Groups per kernel (ZCACHE_GROUPS and ZCACHE_DEBUG_GROUPS override them
# all), chosen so that every kernel runs basic, every group runs on
# at least one kernel of each line (6.1, 6.12, 7.3), and the suite stays
# well within CI's time.  The suite is CPU-bound: it lasts about the sum
# of its boots' CPU time (vm-run.sh prints each) over the two cores, so a
# group runs where it adds most:
# - every stock kernel runs basic (the attach and every workload, byte for
#   byte, on that build of that source);
# - each line's amd64 kernel runs devices, zswap, and in one boot params,
#   tools (the operator scripts) and make demo's guest part (its output
#   must be free of shell errors); 6.1's and 7.3's run races there too
#   (6.12's races run under KCSAN, below); 6.1's runs writeback, and its
#   host part the DKMS and package checks;
# - the rt flavours share every line of zcache with their amd64 siblings:
#   7.3-rt runs writeback too (PREEMPT_RT's sleeping spinlocks under
#   writeback's folio and tree locks, and 7.3's own writeback calls);
# - 6.12-cloud (the swap-core method) runs devices too;
# - each debug kernel runs its groups in one boot, basic first, with
#   stress's unload rounds cut to 10 (below): basic's every workload
#   under the detectors, on each line and each attach method.  6.1-debug
#   (built without zswap: the swap-core method, which no other kernel
#   puts under the detectors) runs basic, faults, stress and canary;
#   7.3-debug (with zswap, as Debian's 7.3 kernels) the same; 6.12-debug
#   basic, faults, writeback (6.12's writeback, under KASAN, lockdep and
#   kmemleak: its workloads, drains, swapoff and kill -9 in the delay
#   windows, its injected failures) and canary.  6.1's and 7.3's
#   writeback calls also run under the detectors, in stress's drain
#   rounds;
# - 6.12-kcsan (the data-race detector) runs basic, races (the
#   self-test's racing threads, a storm of parameter changes under four
#   threads, fork, a kill while storing: zcache's most concurrent paths),
#   stress and canary.
groups=${ZCACHE_GROUPS:-basic devices zswap params,tools,demo}
groups_6_1=${ZCACHE_GROUPS:-basic writeback devices zswap params,races,tools,demo}
groups_7_3=${ZCACHE_GROUPS:-basic zswap params,races,tools,demo devices}
rt_groups_7_3=${ZCACHE_GROUPS:-basic writeback}
cloud_groups_6_12=${ZCACHE_GROUPS:-basic devices}
flavour_groups=${ZCACHE_GROUPS:-basic}
debug_groups_6_1=${ZCACHE_DEBUG_GROUPS:-basic,faults,stress,canary}
debug_groups_6_12=${ZCACHE_DEBUG_GROUPS:-basic,faults,writeback,canary}
debug_groups_7_3=${ZCACHE_DEBUG_GROUPS:-basic,faults,stress,canary}
kcsan_groups=${ZCACHE_DEBUG_GROUPS:-basic,races,stress,canary}
logdir=${ZCACHE_LOGS:-$ZCACHE_TOP/tests/out}
mkdir -p "$logdir"
rm -f "$logdir"/.vm-wait-*
case ${ZCACHE_VMS:-2} in
''|*[!0-9]*|0*) echo "tests/run.sh: ZCACHE_VMS=$ZCACHE_VMS: not a number of VMs from 1 up" >&2; exit 2 ;;
esac
# ZCACHE_VM_THREAD=single|multi: every boot so, in place of each group's
# own choice (kernel_suite).
case ${ZCACHE_VM_THREAD:-} in
''|single|multi) ;;
*) echo "tests/run.sh: ZCACHE_VM_THREAD=$ZCACHE_VM_THREAD: neither single nor multi" >&2; exit 2 ;;
esac
passed=0
failures=()
pending=()

pass() { passed=$((passed + 1)); echo "PASS $1"; }
fail() {
	failures+=("FAIL $1${2:+: $2}")
	echo "${failures[-1]}"
}

# Count the PASS/FAIL lines on stdin: a host-side checker's, labelled
# "[KERNEL] " here, or the debug chain's (no KERNEL: already labelled).
relay() {
	local label=${1:+[$1] } line
	while IFS= read -r line; do
		case $line in
		"PASS "*) pass "$label${line#PASS }" ;;
		"FAIL "*) fail "$label${line#FAIL }" ;;
		*) echo "$line" ;;
		esac
	done
}

# kcsan_foreign list|strip: KCSAN reports name every racing access's
# stack; those with no frame in zcache's modules are the kernel's own.
# An access made in an interrupt names the interrupted task's frames
# below the interrupt's entry (asm_common_interrupt, asm_sysvec_*): zcache's
# there did not make the access, and do not count (6.12-kcsan: virtio's
# vring_interrupt() over a zcache store's compression).
# So is zsmalloc's race on a zspage's bitfield word (6.12's mm/zsmalloc.c,
# struct zspage): insert_zspage() (from fix_fullness_group()) writes the
# fullness bits under the class lock, while zs_map_object() and others
# read the huge and class bits of the same word without it, on whatever
# task calls into zsmalloc, zcache's included.  Those bits never change
# after the zspage is made: the report names zsmalloc's functions for both
# accesses, whatever called them.
# "list" prints the first line of each of those, "strip" copies the log
# from stdin without them (zcache's reports stay in).
kcsan_foreign() {
	awk -v mode="$1" '
		function zsmalloc_own(head) {
			return head ~ /data-race in (fix_fullness_group|insert_zspage) \[zsmalloc\] \/ [a-z_]+ \[zsmalloc\]\r?$/ ||
			       head ~ /data-race in [a-z_]+ \[zsmalloc\] \/ (fix_fullness_group|insert_zspage) \[zsmalloc\]\r?$/
		}
		function flush() {
			if (block == "")
				return
			if (own ~ /\[(test_)?zcache\]/ && !zsmalloc_own(head)) {
				if (mode == "strip")
					printf "%s", block
			} else if (mode == "list") {
				sub(/^\[ *[0-9.]*\] /, "", head)
				print head
			}
			block = ""
		}
		/BUG: KCSAN: / { flush(); head = $0; block = own = $0 "\n"; cut = 0; next }
		block != "" {
			block = block $0 "\n"
			if (/ to 0x[0-9a-f]+ of [0-9]+ bytes by /)
				cut = 0
			if (!cut)
				own = own $0 "\n"
			if (/ asm_(common_interrupt|sysvec_[a-z0-9_]+)\+/)
				cut = 1
			if (/==================================================/)
				flush()
			next
		}
		mode == "strip" { print }
		END { flush() }'
}

# expected_warn_strip ALLOW: with ALLOW 1, drop from kernel lines on stdin
# the first warning block (cut here .. end trace) of each copy of the log
# (the console, and the dump after ZT: DMESG-BEGIN) that is zcache_load's
# decompression warning.  A block is known by its message or by its
# WARNING line, so that a line of another CPU printed inside it, or a
# console that dropped the block's first lines, does not matter.
expected_warn_strip() {
	awk -v allow="$1" '
		function flush() {
			if (block == "")
				return
			if (allowed && block ~ /cannot decompress swap type|WARNING: .* zcache_load\+/)
				allowed = 0
			else
				printf "%s", block
			block = ""
		}
		BEGIN { allowed = allow }
		/^ZT: DMESG-BEGIN/ { flush(); allowed = allow; print; next }
		/-----------\[ cut here \]-----------/ { flush(); block = $0 "\n"; next }
		block == "" && /WARNING: / { block = $0 "\n"; next }
		block != "" {
			block = block $0 "\n"
			if (/---\[ end trace /)
				flush()
			next
		}
		{ print }
		END { flush() }'
}

# Count the guest's verdicts in LOG for GROUP on KERNEL; BUILD is the
# build directory of a stock kernel's boot (the tools group's verdicts
# need its zcache.ko).  The log is read from a copy without the serial
# console's CRs, made once.  (Searched as a file: a "tr | grep -q"
# pipeline under pipefail fails when grep quits early and tr dies of
# SIGPIPE, as it did on the debug kernels' logs of several MB.)
judge_log() {
	local k=$1 g=$2 raw=$3 build=${4:-} log
	log=$(mktemp)
	tr -d '\r' < "$raw" > "$log"
	judge_clean_log "$k" "$g" "$log" "$build" "$raw"
	rm -f "$log"
}

# crash_report KERNEL GROUP LOG RAW: fail a guest that never printed its
# END marker.  The failure's own line, which is all a summary of failures
# shows, names what the kernel reported after the guest's own last line,
# so that neither a line of its dmesg dump nor an OOM kill basic or stress
# provoked earlier is taken for the crash: the first BUG, oops, lockup or
# hung task but a KCSAN report (KCSAN's verdicts are the dmesg check's),
# else the panic, else an OOM kill.
# The panic's line is added when it is not the one named.  The lines from
# the report on follow, then the log's tail if they did not reach it.
crash_report() {
	local k=$1 g=$2 log=$3 raw=$4 last n panic what
	last=$(grep -an '^ZT: ' "$log" | tail -n 1 | cut -d: -f1)
	after() {
		awk -v last="${last:-0}" -v re="$1" \
			'NR > last && $0 ~ re && !/BUG: KCSAN:/ { print NR; exit }' "$log"
	}
	n=$(after 'BUG:|Oops|general protection|hard LOCKUP|blocked for more than')
	panic=$(after 'Kernel panic')
	[ -n "$n" ] || n=$panic
	[ -n "$n" ] || n=$(after 'Out of memory|invoked oom-killer')
	if [ -z "$n" ]; then
		fail "[$k] $g: guest ran to the end" "no END marker (crash or hang), no kernel report after the guest's last line; tail of $raw:"
		tail -n 40 "$log" | sed 's/^/    /'
		return
	fi
	line_of() { sed -n "${1}p" "$log" | sed 's/^\[ *[0-9.]*\] //'; }
	what=$(line_of "$n")
	[ -z "$panic" ] || [ "$panic" = "$n" ] || what="$what, then $(line_of "$panic")"
	fail "[$k] $g: guest ran to the end" "no END marker, the kernel reported: $what; $raw line $n on:"
	sed -n "$n,$(( n + 39 ))p" "$log" | sed 's/^/    /'
	[ "$(wc -l < "$log")" -gt $(( n + 39 )) ] || return 0
	echo "    tail:"
	tail -n 40 "$log" | sed 's/^/    /'
}

judge_clean_log() {
	local k=$1 g=$2 log=$3 build=$4 raw=$5 line dmesg_bad
	while IFS= read -r line; do
		case $line in
		"ZT: PASS "*) pass "[$k] ${line#ZT: PASS }" ;;
		"ZT: FAIL "*) fail "[$k] ${line#ZT: FAIL }" ;;
		esac
	done < <(grep -a '^ZT: \(PASS\|FAIL\) ' "$log")

	if ! grep -aq '^ZT: END' "$log"; then
		crash_report "$k" "$g" "$log" "$raw"
		return
	fi
	pass "[$k] $g: guest ran to the end"
	# zcache-stat --json output the guest printed must parse.
	while IFS= read -r line; do
		if printf '%s' "${line#ZT: JSON }" | python3 -c 'import json, sys; d = json.load(sys.stdin); assert d["stats"]["stored_pages"] > 0 and "compressor" in d["params"] and d["derived"]["ratio"] > 1' 2>/dev/null; then
			pass "[$k] $g: zcache-stat --json is valid JSON with the stats"
		else
			fail "[$k] $g: zcache-stat --json is valid JSON with the stats" "$line"
		fi
	done < <(grep -a '^ZT: JSON ' "$log")
	# zcache-stat --prometheus, as node-exporter would read it.
	if grep -aq '^ZT: PROM ' "$log"; then
		local prom out
		prom=$(promtool_path 2>/dev/null) || prom=""
		if [ -z "$prom" ]; then
			fail "[$k] $g: promtool check metrics passes on zcache-stat --prometheus" "no promtool"
		elif out=$(sed -n 's/^ZT: PROM //p' "$log" | "$prom" check metrics 2>&1); then
			pass "[$k] $g: promtool check metrics passes on zcache-stat --prometheus"
		else
			fail "[$k] $g: promtool check metrics passes on zcache-stat --prometheus" "$out"
		fi
	elif [[ ",$g," == *,tools,* ]]; then
		fail "[$k] $g: zcache-stat --prometheus printed its metrics"
	fi
	# The documented parameters and stats against those the guest's
	# zcache had (the tools group lists them).
	if grep -aq '^ZT: LIST-STAT ' "$log"; then
		local lists
		lists=$(mktemp -d)
		sed -n 's/^ZT: LIST-STAT //p' "$log" > "$lists/stats"
		sed -n 's/^ZT: LIST-PARAM //p' "$log" > "$lists/params"
		relay "$k" < <({ "$ZCACHE_TOP/scripts/doc-check.sh" stats "$lists/stats"
			"$ZCACHE_TOP/scripts/doc-check.sh" params "${build:?judge_log: no build directory}/zcache.ko" "$lists/params"; } 2>&1)
		rm -rf "$lists"
	elif [[ ",$g," == *,tools,* ]]; then
		fail "[$k] $g: the guest listed its parameters and stats"
	fi
	# A shell error in a guest script (a test that cannot run is no test).
	shell_bad=$(grep -aE '^(/init|/bin/sh|sh): .*(line [0-9]+: |: not found$)' "$log")
	if [ -n "$shell_bad" ]; then
		fail "[$k] $g: guest scripts ran without a shell error" "$(echo "$shell_bad" | head -n 5)"
	else
		pass "[$k] $g: guest scripts ran without a shell error"
	fi
	# Kernel lines, on the console as they happened and in the dmesg dump,
	# up to the canary group (whose reports are wanted; it judges them).
	# OOM-killer reports (the stress group's OOM scenario) are not faults,
	# and neither is a GFP_ATOMIC allocation of another driver failing
	# under swap pressure (virtio_blk's indirect descriptors: it falls back
	# to the ring), nor 7.3's swap allocator failing its second try for a
	# cluster's swap table (swap_cluster_alloc_table(), __GFP_NOMEMALLOC
	# without __GFP_NOWARN, seen from kswapd in a 192 MB guest: it moves on
	# to another cluster), a block judged whole, up to its trace's end;
	# zcache's own allocations never warn (__GFP_NOWARN).
	# Nor is the one decompression warning of a group that injects that
	# failure and says so ("expect one decompression warning"): the
	# first warning block whose message it is, in each copy of the log.
	expect_warn=0
	grep -aq '^ZT: INFO expect one decompression warning' "$log" &&
		expect_warn=1
	# KCSAN (the LINE-kcsan kernel) reports data races anywhere in the
	# kernel; a report is zcache's, and a fault, if a frame of either
	# access is in zcache's modules.  The others are the kernel's own,
	# listed here and not counted.
	foreign=$(sed -n '/^ZT: DMESG-BEGIN/,/^ZT: DMESG-END/p' "$log" |
		kcsan_foreign list)
	if [ -n "$foreign" ]; then
		echo "    [$k] $g: $(echo "$foreign" | wc -l) KCSAN reports outside zcache's code (not counted):"
		echo "$foreign" | sort | uniq -c | sort -rn | head -n 10 | sed 's/^/      /'
	fi
	dmesg_bad=$(sed '/^ZT: CANARY/q' "$log" | kcsan_foreign strip |
		grep -a '^\(ZT: DMESG-BEGIN\|\[ *[0-9]*\.[0-9]*\]\)' | expected_warn_strip $expect_warn | awk '
			# (a page allocation failure other than GFP_ATOMIC:
			# held until its trace ends, dropped if it is the
			# swap table allocation)
			held != "" {
				held = held $0 "\n"
				if (/ <\/TASK>/) {
					if (held !~ /swap_cluster_alloc_table/)
						printf "%s", held
					held = ""
				}
				next
			}
			!oom && !atomic && / page allocation failure: / && !/GFP_ATOMIC/ &&
			    !(victim != "" && index($0, " " victim ": page allocation failure: ")) {
				held = $0 "\n"
				next
			}
			END { printf "%s", held }
			/ invoked oom-killer: / { oom = 1 }
			/ page allocation failure: .*GFP_ATOMIC/ { atomic = 1 }
			# (a task the OOM killer took may fail its next
			# allocation, with no reserves left: basic kills swapoff)
			victim != "" && index($0, " " victim ": page allocation failure: ") { atomic = 1 }
			!oom && !atomic { print }
			/ Killed process [0-9]+ / {
				oom = 0
				victim = $0
				sub(/.* Killed process [0-9]+ \(/, "", victim)
				sub(/\).*/, "", victim)
			}
			/ <\/TASK>/ { atomic = 0 }' |
		grep -aE 'BUG:|WARNING:|Oops|Call Trace|general protection|kernel BUG|soft lockup|hung_task|blocked for more than|INFO: |corruption|suspected memory leak|sleeping function called|DEBUG_LOCKS_WARN_ON')
	if [ -n "$dmesg_bad" ]; then
		fail "[$k] $g: guest dmesg clean" "$(echo "$dmesg_bad" | head -n 5)
$(dmesg_context "$log" "$(echo "$dmesg_bad" | head -n 1)" "$raw")"
	else
		pass "[$k] $g: guest dmesg clean"
	fi
}

# dmesg_context LOG LINE RAW: the kernel's lines from LINE on (the
# report's stacks, which the filter above leaves out), from the guest's
# dmesg dump when it holds LINE, else from the console; RAW is the log
# as kept (the same lines, with the console's CRs).
dmesg_context() {
	local log=$1 first=$2 raw=$3 n
	n=$(WANT=$first awk '
		/^ZT: DMESG-BEGIN/ { dump = 1 }
		$0 == ENVIRON["WANT"] { if (dump) { print NR; exit } if (!at) at = NR }
		END { if (at) print at }' "$log" | head -n 1)
	[ -n "$n" ] || return 0
	echo "    the report in $raw, line $n on:"
	sed -n "$n,$((n + 80))p" "$log" | grep -a '^\[ *[0-9]*\.[0-9]*\]' | sed 's/^/      /'
}

# judge_selftest: the judge's own reading of fixed logs (tests/judge/),
# whose verdicts a real run gives too rarely to be seen: a KCSAN report
# whose zcache frames lie below an interrupt's entry is the kernel's, the
# same without the entry zcache's; a crashed guest is reported by what
# followed its last line (not basic's deliberate OOM kill), an oops before
# the panic it caused, and a console with no report as such.
judge_selftest() {
	local j=$ZCACHE_TOP/tests/judge
	judge_expect() {
		if [[ $2 == *"$3"* ]]; then
			pass "judge: $1"
		else
			fail "judge: $1" "got: $(echo "$2" | head -n 1)"
		fi
	}
	judge_expect "a KCSAN report from an interrupt over zcache's frames is the kernel's" \
		"$(kcsan_foreign list < "$j/kcsan-irq.log")" "data-race in vring_interrupt"
	judge_expect "a KCSAN report with zcache's frames in its access is zcache's" \
		"$(kcsan_foreign strip < "$j/kcsan-zcache.log")" "BUG: KCSAN: data-race in vring_interrupt"
	judge_expect "a crash is named by what followed the guest's last line" \
		"$(crash_report T g "$j/crash-after-oom.log" raw)" \
		"the kernel reported: Kernel panic - not syncing: System is deadlocked on memory;"
	judge_expect "an oops is named before the panic it caused, a KCSAN report not" \
		"$(crash_report T g "$j/crash-oops-in-irq.log" raw)" \
		"the kernel reported: BUG: kernel NULL pointer dereference, address: 0000000000000008, then Kernel panic - not syncing: Fatal exception in interrupt;"
	judge_expect "a guest that stopped with no report says so" \
		"$(crash_report T g "$j/crash-none.log" raw)" \
		"no kernel report after the guest's last line"
}

host_checks() {
	local k=$1 build=$2 desc p
	# modinfo shows each parameter with its default and range
	for p in enabled compressor allocator max_pool_percent \
		accept_threshold_percent max_compressed_percent keep_poor_pages \
		zero_pages_enabled \
		writeback_enabled shrinker_enabled drain; do
		desc=$(modinfo -F parm "$build/zcache.ko" | grep "^$p:")
		if echo "$desc" | grep -q 'default'; then
			pass "[$k] modinfo documents $p"
		else
			fail "[$k] modinfo documents $p" "'$desc'"
		fi
	done
}

# kernel_suite KERNEL ENVFILE: build zcache for KERNEL with W=1, check it
# on the host, build the initramfs and boot the VM once per group.  A
# stock kernel's boots run one after the other and are judged as they
# end; a debug kernel's run in the background (vm_boot) and are judged
# by debug_wait.
kernel_suite() {
	local k=$1 envfile=$2 build initrd kgroups kextra kmem g log disks extra t0 thread
	DEBUG_KERNEL=0 SANITIZER=""
	. "$envfile"
	if ! build=$("$ZCACHE_TOP/scripts/build.sh" "$envfile"); then
		fail "[$k] build with W=1, no warnings"
		return
	fi
	pass "[$k] build $KVER with W=1, no warnings"
	host_checks "$k" "$build"
	# Style gates once per kernel line; flavours share the source.
	case $k in
	6.1|6.12) relay "$k" < <("$ZCACHE_TOP/scripts/lint.sh" "$envfile" 2>&1) ;;
	esac
	# Once a run: the judge's own check, and the README's and zcache(4)'s
	# tables against the module.
	if [ "$k" = 6.1 ]; then
		judge_selftest
		relay "$k" < <({ "$ZCACHE_TOP/scripts/doc-check.sh" params "$build/zcache.ko"
			"$ZCACHE_TOP/scripts/doc-check.sh" stats; } 2>&1)
	fi
	# DKMS for real, by make dkms-install and by the Debian packages,
	# needs the kernel's headers package installed on this machine; 6.1's
	# installs cleanly on Debian 12, 6.12's drags in an image.
	if [ "$k" = 6.1 ] && [[ " ${groups_6_1//,/ } " == *" tools "* ]]; then
		relay "$k" < <("$ZCACHE_TOP/scripts/dkms-test.sh" "$envfile" "$build" 2>&1)
		relay "$k" < <("$ZCACHE_TOP/scripts/deb-test.sh" "$envfile" "$build" 2>&1)
	fi
	# The package built and installed with DKMS on Debian 13, in a
	# throwaway copy of the trixie build root, once.
	if [ "$k" = 7.3 ]; then
		relay "$k" < <("$ZCACHE_TOP/scripts/trixie-pkg-test.sh" "$envfile" "$build" 2>&1)
	fi

	initrd=$build/initramfs.gz
	if ! "$ZCACHE_TOP/scripts/mkinitramfs.sh" "$envfile" "$build" "$initrd"; then
		fail "[$k] build initramfs"
		return
	fi
	# (The cloud kernels have no MPS support: they find their second CPU
	# only with ACPI's PCI routing on, and 6.1's warns in its MSI set-up
	# on q35: pci=nomsi, in place of vm-run.sh's pci=noacpi.)
	# The debug kernels run about 6x slower: their groups run in a memory
	# cgroup (zcmem=) and get a larger dmesg (and, below, more time).
	kgroups=$flavour_groups kextra="" kmem=${ZCACHE_VM_MEM:-192}
	case $k in
	6.1)        kgroups=$groups_6_1 ;;
	6.12)       kgroups=$groups ;;
	7.3)        kgroups=$groups_7_3 ;;
	7.3-rt)     kgroups=$rt_groups_7_3 ;;
	6.12-cloud) kgroups=$cloud_groups_6_12 ;;
	6.1-debug)  kgroups=$debug_groups_6_1 ;;
	6.12-debug) kgroups=$debug_groups_6_12 ;;
	7.3-debug)  kgroups=$debug_groups_7_3 ;;
	*-kcsan)    kgroups=$kcsan_groups ;;
	esac
	case $k in *-cloud) kextra=pci=nomsi ;; esac
	if [ "$DEBUG_KERNEL" = 1 ]; then
		kmem=512
		# stress runs 10 unload rounds (its default is 18): every
		# compressor, four of them twice, three drain and three hold
		# rounds, and five of rmmod against parameter writes.
		# ZCACHE_DEBUG_EXTRA comes last, so that its zcrounds= wins.
		kextra="zcmem=16 log_buf_len=4M zcrounds=10 ${ZCACHE_DEBUG_EXTRA:-}"
		# slub_debug=A marks the index's node cache for failslab's
		# cache filter (the faults group).
		[ "$SANITIZER" = kasan ] &&
			kextra="$kextra slub_debug=A,radix_tree_node"
	fi
	# Each word is one boot; GROUP,GROUP,... run in order in one boot.
	for g in $kgroups; do
		log=$logdir/$KVER-${g//,/+}.log
		disks=1 extra=""
		case ",$g," in *,devices,*) disks=2 ;; esac
		# (In a boot of several groups the zswap group enables zswap
		# itself, at its turn.)
		[ "$g" = zswap ] &&
			extra="zswap.enabled=1 zswap.compressor=lzo zswap.zpool=zbud"
		extra="$extra $kextra"
		# TCG runs both CPUs of a boot on one host thread, in turns
		# (scripts/vm-run.sh: two VMs of a host thread per CPU each
		# spin away the host's cores), but in a boot that needs CPUs
		# really running at once they get a host thread each: races
		# (KCSAN's boot runs it), and writeback, whose rezero case
		# needs a fault on one CPU inside a swap-out on the other (in
		# turns, 6.1 saw none in 256 tries).  A CPU that runs until it
		# waits hands over only then, or every 100 ms.
		thread=single
		case ",$g," in *,races,*|*,writeback,*) thread=multi ;; esac
		t0=$(date +%s)
		if [ "$DEBUG_KERNEL" = 1 ]; then
			ZCACHE_VM_THREAD=${ZCACHE_VM_THREAD:-$thread} \
				vm_boot debug "$envfile" "$initrd" "$log" "$g" \
				"$disks" "$kmem" "$extra" &
			pending+=("$!|$t0|$k|$g|$log")
			continue
		fi
		ZCACHE_VM_THREAD=${ZCACHE_VM_THREAD:-$thread} \
			vm_boot stock "$envfile" "$initrd" "$log" "$g" "$disks" \
			"$kmem" "$extra"
		log "[$k] group $g: $(( $(date +%s) - t0 )) s, log $log"
		judge_log "$k" "$g" "$log" "$build"
	done
}

# vm_boot debug|stock VM-RUN-ARGS...: one boot, once one of ZCACHE_VMS
# (2) slots is free: two VMs keep both cores busy, and more only cost
# more.  A boot run single-threaded (ZCACHE_VM_THREAD=single, one host
# thread for both CPUs) runs at nice 19: beside a boot of a host thread
# per CPU, which alone keeps up to about 1.4 cores busy (a probe of
# 6.12's workloads: 87 s of CPU in 62 s), it takes mostly what that one
# leaves, and seldom takes a core from a CPU another one waits for.  A
# debug boot waiting for a slot goes before
# any stock boot (best effort: a stock boot may take a slot in the
# instant a debug boot starts to wait): the debug boots are the suite's
# longest, and started first they do not end it alone.  A waiting debug
# boot says so with a file named for its process; a file whose process
# is gone (killed before its trap ran) is removed by the stock boots.
# The slot's lock is held by this shell alone, not by qemu.
vm_boot() {
	local kind=$1 slot fd rc timeout=1800 waiting="" m prio=0
	shift
	[ "${ZCACHE_VM_THREAD:-multi}" = single ] && prio=19
	if [ "$kind" = debug ]; then
		# (a background job of its own: the trap is its own too)
		timeout=3600 waiting=$logdir/.vm-wait-$BASHPID
		trap 'rm -f "$waiting"' EXIT
		touch "$waiting"
	fi
	while :; do
		if [ -z "$waiting" ]; then
			for m in "$logdir"/.vm-wait-*; do
				[ -e "$m" ] && ! kill -0 "${m##*-}" 2>/dev/null &&
					rm -f "$m"
			done
		fi
		if [ -n "$waiting" ] || ! compgen -G "$logdir/.vm-wait-*" > /dev/null; then
			for slot in $(seq 1 "${ZCACHE_VMS:-2}"); do
				exec {fd}> "$logdir/.vm-slot-$slot"
				if flock -n "$fd"; then
					[ -z "$waiting" ] || rm -f "$waiting"
					ZCACHE_VM_TIMEOUT=${ZCACHE_VM_TIMEOUT:-$timeout} \
						nice -n "$prio" \
						"$ZCACHE_TOP/scripts/vm-run.sh" "$@" {fd}>&-
					rc=$?
					exec {fd}>&-
					return $rc
				fi
				exec {fd}>&-
			done
		fi
		sleep 1
	done
}

# Judge the debug boots started so far, as they end.
debug_wait() {
	local run pid t0 k g log
	for run in "${pending[@]}"; do
		IFS='|' read -r pid t0 k g log <<< "$run"
		wait "$pid"
		log "[$k] group $g: $(( $(date +%s) - t0 )) s, log $log"
		judge_log "$k" "$g" "$log"
	done
}

# The debug kernels (LINE-debug: KASAN and the rest; LINE-kcsan: the
# data-race detector) are built and booted by one background chain while
# the stock kernels run in the foreground: each is built, then its boot
# starts in the background and the next one builds, in ZCACHE_KERNELS's
# order: by default 6.12-debug first, the suite's longest boot, and the
# two boots of a host thread per CPU (6.12-debug for writeback,
# 6.12-kcsan) first and last, so that they seldom run side by side (a
# waiting boot takes the first slot it finds free, whatever the order).
# The builds run at nice 19, as the single-threaded boots do: at nice 0
# they would take the cores from those boots for as long as they build,
# past a stock boot's timeout.  Their packages and sources are
# fetched first, in the foreground (apt is not shared).  The chain's
# verdict lines are counted when it is done.
debug_kernels="" stock_kernels=""
for k in $kernels; do
	case $k in
	*-debug|*-kcsan) debug_kernels="$debug_kernels $k" ;;
	*) stock_kernels="$stock_kernels $k" ;;
	esac
done
need_host_tools
start=$(date +%s)
# The stock kernels' packages download in the background while the first
# kernels run (kernel-fetch.sh takes a lock per kernel: the loop below
# waits for one still being fetched).
(
	for k in $stock_kernels; do
		"$ZCACHE_TOP/scripts/kernel-fetch.sh" "$k" > /dev/null 2>&1
	done
) &
debug_out=$logdir/debug-chain.out
rm -f "$debug_out"
if [ -n "$debug_kernels" ]; then
	for k in $debug_kernels; do
		"$ZCACHE_TOP/scripts/debug-kernel.sh" --fetch "$k" >/dev/null ||
			fail "[$k] fetch the debug kernel's source"
	done
	(
		for k in $debug_kernels; do
			if ! envfile=$(nice -n 19 "$ZCACHE_TOP/scripts/debug-kernel.sh" \
				"$k" 2> "$logdir/debug-build-$k.log"); then
				fail "[$k] build the debug kernel" "log: $logdir/debug-build-$k.log"
				tail -n 20 "$logdir/debug-build-$k.log" | sed 's/^/    /'
				continue
			fi
			pass "[$k] debug kernel built, every wanted option set"
			kernel_suite "$k" "$envfile"
		done
		debug_wait
	) > "$debug_out" 2>&1 &
	debug_chain=$!
fi

# The stock kernels run in two lanes, each taking the next kernel from a
# shared queue (in ZCACHE_KERNELS's order: the default's dearest first,
# the kernels that run basic alone last) as it finishes one, so that
# neither lane idles while the other has kernels left; each boot waits
# for a VM slot (vm_boot).  The second lane runs in the background (its
# lines counted at the end, as the debug chain's).  (Only 6.1's suite
# uses the host's apt: DKMS and the package.)
queue=$logdir/.stock-queue
# shellcheck disable=SC2086 # (a list of kernels)
printf '%s\n' $stock_kernels > "$queue"
# next_stock: print the queue's next kernel and take it off; nothing once
# the queue is empty.
next_stock() {
	(
		flock 9
		read -r k < "$queue" || k=""
		[ -z "$k" ] || sed -i 1d "$queue"
		echo "$k"
	) 9> "$queue.lock"
}
# stock_lane: the queue's kernels' suites, one after the other.
stock_lane() {
	local k envfile
	while k=$(next_stock) && [ -n "$k" ]; do
		if ! envfile=$("$ZCACHE_TOP/scripts/kernel-fetch.sh" "$k"); then
			fail "[$k] fetch kernel" "cannot get a $k kernel from the archive"
			continue
		fi
		kernel_suite "$k" "$envfile"
	done
}
lane2_out=$logdir/stock-lane2.out
rm -f "$lane2_out"
stock_lane > "$lane2_out" 2>&1 &
lane2_pid=$!
stock_lane
wait "$lane2_pid"
relay < "$lane2_out"
if [ -n "$debug_kernels" ]; then
	log "stock kernels done after $(( $(date +%s) - start )) s; waiting for the debug kernels"
	wait "$debug_chain"
	relay < "$debug_out"
fi
# (times in a command substitution would report the subshell's own)
times > "$logdir/.times"
log "suite took $(( $(date +%s) - start )) s, $(tail -n 1 "$logdir/.times" | cpu_seconds) s of CPU (builds and VMs)"
# The failures again, one line each: a CI log shown in part keeps its end.
if [ ${#failures[@]} -gt 0 ]; then
	echo "failures:"
	for f in "${failures[@]}"; do echo "  ${f%%$'\n'*}"; done
	# The first failure with details, whole: CI shows the end of the log.
	for f in "${failures[@]}"; do
		[[ $f == *$'\n'* ]] || continue
		echo "the first failure with details:"
		echo "$f" | head -n 60 | sed 's/^/  /'
		break
	done
fi
echo "$passed passed, ${#failures[@]} failed"
[ ${#failures[@]} -eq 0 ]
