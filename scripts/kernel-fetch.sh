#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/kernel-fetch.sh KERNEL - get a Debian kernel to test on
#
# KERNEL is a line with an optional flavour (amd64 when none is given):
# - Debian 12 (bookworm): 6.1, 6.12, e.g. 6.1-rt, 6.12-cloud;
# - Debian 13 (trixie): trixie-6.12, and trixie-backports' 7.3, e.g.
#   trixie-6.12-rt, 7.3-cloud.  Those are downloaded through a private apt
#   configuration (lib.sh: TRIXIE_APT) and built in a trixie build root
#   (scripts/trixie-root.sh): their env file names it as BUILD_ROOT.
# Resolves the newest image of that line in the archive, downloads the
# image (with the binary and modules packages it stands for, from 7.2 on),
# headers, headers-common and kbuild packages, extracts them under
# $ZCACHE_CACHE/kernels/<version>, and prints the path of an env file with
# KVER, KDIR (headers to build against), VMLINUZ, MODROOT and BUILD_ROOT.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kernel=${1:?usage: kernel-fetch.sh [trixie-]6.1|6.12|7.3[-cloud|-rt]}
suite=bookworm
rest=$kernel
case $kernel in
trixie-*) suite=trixie rest=${kernel#trixie-} ;;
7.*) suite=trixie ;;
esac
line=${rest%%-*}
flavour=amd64
[ "$line" = "$rest" ] || flavour=${rest#*-}-amd64
case $flavour in
amd64|rt-amd64|cloud-amd64) ;;
*) die "unknown flavour in '$kernel' (none, -cloud or -rt)" ;;
esac

case $suite/$line in
bookworm/6.1)	pattern="^linux-image-6\.1\.0-[0-9]+-${flavour}\$" ;;
bookworm/6.12)	pattern="^linux-image-6\.12\.[0-9]+\+deb12-${flavour}\$" ;;
trixie/6.12)	pattern="^linux-image-6\.12\.[0-9]+\+deb13-${flavour}\$" ;;
trixie/7.3)	pattern="^linux-image-7\.3\.[0-9]+\+deb13-${flavour}\$" ;;
*)	die "unknown kernel '$kernel' (6.1, 6.12, trixie-6.12 or 7.3, optionally -cloud or -rt)" ;;
esac
apt=()
if [ $suite = trixie ]; then
	trixie_apt_ready
	apt=("${TRIXIE_APT[@]}")
fi

need_pkgs depmod:kmod dpkg-deb:dpkg
apt_ready
pkg=$(apt-cache "${apt[@]}" search --names-only "$pattern" | awk '{print $1}' | sort -V | tail -n 1)
[ -n "$pkg" ] || die "no package matches $pattern in the archive"
kver=${pkg#linux-image-}
dir=$ZCACHE_CACHE/kernels/$kver
mkdir -p "$ZCACHE_CACHE/kernels"
# One fetch of a kernel at a time (make check prefetches in the background).
exec 9> "$dir.lock"
flock 9
if [ -f "$dir/env" ]; then
	echo "$dir/env"
	exit 0
fi

debs=$ZCACHE_CACHE/debs
mkdir -p "$debs"
deps=$(apt-cache "${apt[@]}" depends "linux-headers-$kver" |
	awk '/Depends: linux-(headers|kbuild)-/ {print $2}' | sort -u)
# From 7.2 on, the image package stands for linux-binary, linux-modules
# and linux-base-<version> (modules.builtin, which depmod needs).
parts=$(apt-cache "${apt[@]}" depends "$pkg" |
	awk '/Depends: linux-(binary|modules|base)-[0-9]/ {print $2}' | sort -u)
wanted=("$pkg" $parts "linux-headers-$kver" $deps)
for p in "${wanted[@]}"; do
	if ! ls "$debs/${p}_"*.deb >/dev/null 2>&1; then
		log "downloading $p"
		(cd "$debs" && apt-get "${apt[@]}" download -qq "$p" 2>/dev/null) ||
			die "cannot download $p"
	fi
done

rm -rf "$dir.tmp"
mkdir -p "$dir.tmp/root" "$dir.tmp/hdr"
for p in "$pkg" $parts; do
	dpkg-deb -x "$(ls "$debs/${p}_"*.deb | sort -V | tail -n 1)" "$dir.tmp/root"
done
for p in "linux-headers-$kver" $deps; do
	dpkg-deb -x "$(ls "$debs/${p}_"*.deb | sort -V | tail -n 1)" "$dir.tmp/hdr"
done

# The headers' Makefile includes the -common tree by absolute path, and
# from 7.2 on names its output directory so too.
kdir=$dir/hdr/usr/src/linux-headers-$kver
sed -i "s|^include /usr/src/|include $dir/hdr/usr/src/|; s|^KBUILD_OUTPUT=/usr/src/|KBUILD_OUTPUT=$dir/hdr/usr/src/|" \
	"$dir.tmp/hdr/usr/src/linux-headers-$kver/Makefile"

# trixie installs modules (and, from 7.2, the image) under /usr/lib.
# bookworm's depmod and modprobe look in lib/modules only: a link, as the
# merged /usr of a trixie system has.
if [ -d "$dir.tmp/root/usr/lib/modules" ] && [ ! -e "$dir.tmp/root/lib" ]; then
	ln -s usr/lib "$dir.tmp/root/lib"
fi
vmlinuz=boot/vmlinuz-$kver
[ -f "$dir.tmp/root/$vmlinuz" ] || vmlinuz=usr/lib/modules/$kver/vmlinuz
[ -f "$dir.tmp/root/$vmlinuz" ] || die "no vmlinuz in $pkg or $parts"

# Debian builds modules.dep in postinst; do it here.  6.12 ships .ko.xz.
depmod -b "$dir.tmp/root" "$kver"

# trixie's kernels are built in a trixie build root, where the cache is
# mounted at the same path (scripts/trixie-root.sh).
build_root=
[ $suite = bookworm ] || build_root=$("$ZCACHE_TOP/scripts/trixie-root.sh")

cat > "$dir.tmp/env" <<ENV
KVER=$kver
KDIR=$kdir
VMLINUZ=$dir/root/$vmlinuz
MODROOT=$dir/root
BUILD_ROOT=$build_root
ENV
rm -rf "$dir"
mv "$dir.tmp" "$dir"
log "kernel $kver ready in $dir"
echo "$dir/env"
