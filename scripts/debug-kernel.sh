#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/debug-kernel.sh [--fetch] LINE[-VARIANT] - build Debian's LINE
# (6.1, 6.12 or 7.3) source as a zcache debug kernel: tinyconfig + what
# the VM and zcache need + the VARIANT's detectors (scripts/debug-config/):
# "debug" (the default: KASAN, lockdep, kmemleak, fault injection) or
# "kcsan" (the data-race detector, which excludes KASAN).
#
# The source is the newest linux-source-LINE package in the archive:
# bookworm's for 6.1 and 6.12, trixie-backports' for 7.3 (downloaded
# through the private apt configuration, lib.sh's TRIXIE_APT).  All are
# built by the host's gcc: the whole kernel and zcache then come from one
# compiler, and kbuild's tools link against the host's glibc (trixie's
# own builds need the trixie build root only because their tools were
# built there).  The
# build is cached in $ZCACHE_CACHE/debug/<line>-<variant>-<source
# version>-<hash of the config fragments and RECIPE>/ and reused while all
# match.  Fails if any wanted option did not survive olddefconfig (where
# two fragments name one option, the later one's line is the one wanted:
# 7.3.config overrides common.config).  Prints
# the path of an env file like kernel-fetch.sh's (KVER, KDIR, VMLINUZ,
# MODROOT, DEBUG_KERNEL=1 and SANITIZER=kasan or kcsan).  --fetch only
# installs the build's packages and downloads the source, so that a build
# can then run in the background without touching apt.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# Bump when the build steps below change the result.
RECIPE=1
fetch_only=0
if [ "${1:-}" = --fetch ]; then
	fetch_only=1
	shift
fi
kernel=${1:?usage: debug-kernel.sh [--fetch] 6.1|6.12|7.3[-debug|-kcsan]}
line=${kernel%%-*} variant=debug
[ "$line" = "$kernel" ] || variant=${kernel#*-}
apt=()
case $line in
6.1|6.12) ;;
7.3) trixie_apt_ready; apt=("${TRIXIE_APT[@]}") ;;
*) die "unknown kernel line '$line' (6.1, 6.12 or 7.3)" ;;
esac
case $variant in
debug) sanitizer=kasan ;;
kcsan) sanitizer=kcsan ;;
*) die "unknown debug variant '$variant' (debug or kcsan)" ;;
esac
confdir=$ZCACHE_TOP/scripts/debug-config
fragments=("$confdir/common.config" "$confdir/$line.config"
	"$confdir/$variant.config")

need_host_tools
need_pkgs flex:flex bison:bison /usr/include/openssl/ssl.h:libssl-dev \
	dpkg-deb:dpkg
apt_ready
pkg=linux-source-$line
ver=$(apt-cache "${apt[@]}" show "$pkg" 2>/dev/null | awk '/^Version:/ {print $2}' | sort -V | tail -n 1)
[ -n "$ver" ] || die "no $pkg in the archive"
hash=$( (cat "${fragments[@]}"; echo "recipe $RECIPE") | sha256sum | cut -c1-12)
dir=$ZCACHE_CACHE/debug/$line-$variant-$ver-$hash
if [ -f "$dir/env" ]; then
	echo "$dir/env"
	exit 0
fi

# Downloaded aside and moved in whole: other scripts look for this file.
debs=$ZCACHE_CACHE/debs
mkdir -p "$debs"
deb=$debs/${pkg}_${ver//:/%3a}_all.deb
if [ ! -f "$deb" ]; then
	log "downloading $pkg $ver"
	tmpd=$(mktemp -d "$debs/.dl.XXXXXX")
	(cd "$tmpd" && apt-get "${apt[@]}" download -qq "$pkg=$ver" 2>/dev/null) ||
		{ rm -rf "$tmpd"; die "cannot download $pkg $ver"; }
	mv "$tmpd"/*.deb "$deb"
	rm -rf "$tmpd"
fi
[ $fetch_only = 1 ] && exit 0

rm -rf "$ZCACHE_CACHE/debug/$line-$variant-"*
mkdir -p "$dir.tmp"
log "extracting $pkg $ver"
dpkg-deb --fsys-tarfile "$deb" |
	tar -xOf - "./usr/src/$pkg.tar.xz" | tar -xJf - -C "$dir.tmp"
src=$dir.tmp/$pkg

log "configuring the $line-$variant kernel"
make -C "$src" -s ARCH=x86_64 tinyconfig >/dev/null
"$src/scripts/kconfig/merge_config.sh" -m -O "$src" "$src/.config" \
	"${fragments[@]}" >/dev/null
make -C "$src" -s olddefconfig >/dev/null
# The options each fragment wants; where two name one option, the later
# wins, as in merge_config.sh.
wanted() {
	awk '/^CONFIG_/ { o = $0; sub(/=.*/, "", o) }
		/^# CONFIG_[A-Z0-9_]* is not set$/ { o = $2 }
		o != "" { if (!(o in v)) order[n++] = o; v[o] = $0; o = "" }
		END { for (i = 0; i < n; i++) print v[order[i]] }' "${fragments[@]}"
}
missing=0
while IFS= read -r want; do
	case $want in
	"# CONFIG_"*" is not set")
		opt=${want#\# } opt=${opt%% *}
		if grep -q "^$opt=" "$src/.config"; then
			echo "debug kernel: $opt is set, wanted off" >&2
			missing=1
		fi ;;
	CONFIG_*)
		if ! grep -qx "$want" "$src/.config"; then
			echo "debug kernel: wanted $want, got:" \
				"$(grep "^${want%%=*}=\|^# ${want%%=*} " "$src/.config" || echo absent)" >&2
			missing=1
		fi ;;
	esac
done < <(wanted)
[ $missing -eq 0 ] || die "the $line-$variant config lacks options it needs"

# Twice as many jobs as cores: in make check the build shares the cores
# with the stock kernels' VMs, and the scheduler shares them out by
# thread; the debug kernels' boots, which start only once their kernel is
# built, are the suite's longest path.
jobs=$(( $(nproc) * 2 ))
log "building the $line-$variant kernel (make -j$jobs)"
t0=$(date +%s)
if ! make -C "$src" -j"$jobs" bzImage modules > "$dir.tmp/build.log" 2>&1; then
	tail -n 40 "$dir.tmp/build.log" >&2
	die "debug kernel build failed; log in $dir.tmp/build.log"
fi
kver=$(make -C "$src" -s kernelrelease)
make -C "$src" -s INSTALL_MOD_PATH="$dir.tmp/root" modules_install >/dev/null
log "debug kernel $kver built in $(( $(date +%s) - t0 )) s"

mv "$dir.tmp" "$dir"
src=$dir/$pkg
depmod -b "$dir/root" "$kver"
cat > "$dir/env" <<ENV
KVER=$kver
KDIR=$src
VMLINUZ=$src/arch/x86/boot/bzImage
MODROOT=$dir/root
DEBUG_KERNEL=1
SANITIZER=$sanitizer
ENV
echo "$dir/env"
