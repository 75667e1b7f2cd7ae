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
# bench keeps "max", as its earlier results had).  TCG runs a host thread
# per virtual CPU: one thread for both (thread=single) saved no CPU with
# make check's VMs sharing the cores (6.1-rt basic 217 s of CPU both
# ways, 6.12-rt writeback 216 s against 186 s, 2026-12-06), and it takes
# away CPUs that really run at once.
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
		qemu-system-x86_64 -accel tcg -M q35 -cpu "${ZCACHE_VM_CPU:-qemu64}" -smp 2 -m "$mem" \
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
