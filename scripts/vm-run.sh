#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/vm-run.sh ENVFILE INITRAMFS LOG GROUP [DISKS] [MEM] [EXTRA_CMDLINE]
#
# Boot the test VM under TCG and run one guest scenario group.  DISKS
# sparse swap disks of 1 GiB each are attached as /dev/vda, /dev/vdb, ...
# The serial console goes to LOG.  Returns qemu's status; a guest that
# does not power off within ZCACHE_VM_TIMEOUT seconds (default 900) is
# killed.  ZCACHE_DISK_OPTS replaces the disks' -drive cache options
# (default cache=writeback).  ZCACHE_VM_CPU is the virtual CPU (default
# qemu64: make demo's workload on 6.1 took 117 and 114 s under it against
# 125 and 131 s under "max", two pairs of boots run side by side; make
# bench keeps "max", as its earlier results had).  ZCACHE_VM_THREAD is
# TCG's threading: multi (the default: a host thread per virtual CPU, the
# two CPUs really run at once) or single (one host thread runs both CPUs
# in turns; a CPU that waits in a PAUSE loop, for a lock or for another
# CPU's answer to an IPI, hands over at once).  Two VMs of two CPUs each
# on a host of two cores run 4 threads on 2: a guest CPU that waits for
# a descheduled one spins through the host's time slices.  A probe of
# 6.12's mixed, random, zero, threads and fork workloads, two boots side
# by side: 132 s for the pair multi (255 s of CPU), 78 s single (152 s),
# 76 s with one CPU each; one boot alone, multi: 62 s (2026-12-07).
# make check runs its boots single (tests/run.sh), but those that need
# the CPUs really running at once; make demo and make bench boot one VM
# at a time, multi.
#
# A kernel that panics before the guest's init announces itself ("ZT:
# BEGIN") has run none of zcache's code: zcache.ko is loaded by the groups,
# later.  Such a boot is said on stderr, kept as LOG.before-init, and
# booted once more.  (Seen once in hundreds of boots: an int3 left by
# 6.12's text patching of a static key, under TCG.)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

envfile=${1:?envfile} initrd=${2:?initramfs} logfile=${3:?log}
group=${4:?group} ndisks=${5:-1} mem=${6:-256} extra=${7:-}
. "$envfile"

work=$(mktemp -d "$ZCACHE_CACHE/vm.XXXXXX")
trap 'rm -rf "$work"' EXIT
drives=()
for i in $(seq 1 "$ndisks"); do
	truncate -s 1G "$work/swap$i.img"
	drives+=(-drive "file=$work/swap$i.img,if=virtio,format=raw,${ZCACHE_DISK_OPTS:-cache=writeback}")
done

# pci=noacpi unless EXTRA_CMDLINE has a pci= of its own: a kernel built
# without MPS support (the cloud flavours) needs ACPI to find its second
# CPU, and the caller passes what suits it instead.
pci=pci=noacpi
case " $extra " in *" pci="*) pci="" ;; esac

boot() {
	timeout --foreground -k 10 "${ZCACHE_VM_TIMEOUT:-900}" \
		qemu-system-x86_64 -accel "tcg,thread=${ZCACHE_VM_THREAD:-multi}" -M q35 -cpu "${ZCACHE_VM_CPU:-qemu64}" -smp 2 -m "$mem" \
		-nographic -no-reboot -nodefaults -serial stdio \
		-kernel "$VMLINUZ" -initrd "$initrd" "${drives[@]}" \
		-append "console=ttyS0 loglevel=4 panic=-1 $pci zctest=$group $extra" \
		< /dev/null > "$logfile" 2>&1
}

status=0
boot || status=$?
if ! grep -aq 'ZT: BEGIN' "$logfile" && grep -aq 'Kernel panic' "$logfile"; then
	mv "$logfile" "$logfile.before-init"
	echo "vm-run: $KVER panicked before the guest's init ran (no zcache code had run): $(grep -a -m1 -o 'Oops: .*\|BUG: .*' "$logfile.before-init" | tr -d '\r'); booting again, first log in $logfile.before-init" >&2
	status=0
	boot || status=$?
fi
# The host CPU the boot used (its qemu's user and system time, reaped
# through timeout): the suite is CPU-bound, so this is its cost.  (times
# in a command substitution would report the subshell's own.)
times > "$work/times"
echo "vm-run: $KVER $group: $(tail -n 1 "$work/times" | cpu_seconds) s of CPU" >&2
exit $status
