#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/build.sh ENVFILE - build zcache for a fetched kernel
#
# Copies the sources to $ZCACHE_CACHE/build/<kver>-<tree>/ (so builds for
# several kernels, or of several work trees, never share objects), builds zcache.ko and test_zcache.ko there
# with W=1, plus the static guest programs, and prints that directory.
# The compiler's output is kept in build.log; any warning fails the build.
# A trixie kernel's build runs in the trixie build root (BUILD_ROOT in the
# env file; scripts/trixie-root.sh).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

envfile=${1:?envfile}
BUILD_ROOT=
. "$envfile"
out=$ZCACHE_CACHE/build/$KVER-$(printf %s "$ZCACHE_TOP" | sha256sum | cut -c1-8)
rm -rf "$out"
mkdir -p "$out/src"
(cd "$ZCACHE_TOP" && tar -cf - Kbuild Makefile dkms.conf debian/changelog ./*.c ./*.h attach compress tests/kmod) |
	tar -xf - -C "$out/src"

run=()
[ -z "$BUILD_ROOT" ] || run=("$ZCACHE_TOP/scripts/trixie-root.sh" --run "$out/src")
if ! "${run[@]}" make -C "$KDIR" M="$out/src" W=1 modules > "$out/build.log" 2>&1; then
	cat "$out/build.log" >&2
	die "module build for $KVER failed"
fi
if grep -E 'warning:|error:' "$out/build.log" | grep -v 'Skipping BTF' >&2; then
	die "module build for $KVER has warnings"
fi
find "$out/src" -name '*.ko' -exec cp {} "$out/" \;

gcc -O2 -Wall -Wextra -Werror -static -pthread -o "$out/swaptest" \
	"$ZCACHE_TOP/tests/guest/swaptest.c" || die "swaptest build failed"
echo "$out"
