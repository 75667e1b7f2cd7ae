#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/lint.sh [ENVFILE] - the style gates (make lint)
#
# checkpatch.pl --strict and kernel-doc from Debian's linux-source-6.1
# (fetched, not vendored), sparse (make C=1) and W=1 against the kernel of
# ENVFILE (default: the newest 6.1).  Prints one PASS/FAIL line per gate
# and exits non-zero if any fails.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

envfile=${1:-}
[ -n "$envfile" ] || envfile=$("$ZCACHE_TOP/scripts/kernel-fetch.sh" 6.1) || exit 1
. "$envfile"
need_pkgs sparse:sparse perl:perl

# checkpatch and kernel-doc, from the linux-source package of the 6.1 line
tools=$ZCACHE_CACHE/tools/linux-6.1-scripts
if [ ! -x "$tools/scripts/checkpatch.pl" ]; then
	apt_ready
	mkdir -p "$ZCACHE_CACHE/debs"
	ls "$ZCACHE_CACHE"/debs/linux-source-6.1_*.deb >/dev/null 2>&1 ||
		(cd "$ZCACHE_CACHE/debs" && apt-get download -qq linux-source-6.1) ||
		die "cannot download linux-source-6.1"
	tmp=$(mktemp -d)
	dpkg-deb --fsys-tarfile "$(ls "$ZCACHE_CACHE"/debs/linux-source-6.1_*.deb | sort -V | tail -n 1)" |
		tar -xf - -C "$tmp" --wildcards '*/linux-source-6.1.tar.xz'
	mkdir -p "$tools"
	tar -xJf "$tmp"/usr/src/linux-source-6.1.tar.xz -C "$tools" --strip-components=1 \
		linux-source-6.1/scripts/checkpatch.pl \
		linux-source-6.1/scripts/spelling.txt \
		linux-source-6.1/scripts/const_structs.checkpatch \
		linux-source-6.1/scripts/kernel-doc \
		linux-source-6.1/.clang-format
	rm -rf "$tmp"
fi

cd "$ZCACHE_TOP"
sources=$(git ls-files '*.c' '*.h' 2>/dev/null | grep -v '^tests/guest/' ||
	find . -name '*.[ch]' ! -path './tests/guest/*' | sed 's|^\./||')
rc=0
gate() {
	local name=$1 out=$2
	if [ -z "$out" ]; then
		echo "PASS lint: $name"
	else
		echo "FAIL lint: $name"
		echo "$out" | head -n 40 | sed 's/^/    /'
		rc=1
	fi
}

gate "checkpatch --strict" "$("$tools/scripts/checkpatch.pl" --strict --no-tree \
	--quiet --show-types -f $sources 2>&1)"
gate "kernel-doc" "$("$tools/scripts/kernel-doc" -none $sources 2>&1)"

out=$ZCACHE_CACHE/lint/$KVER
rm -rf "$out"
mkdir -p "$out"
tar -cf - Kbuild ./*.c ./*.h attach compress tests/kmod | tar -xf - -C "$out"
gate "W=1 and sparse (C=1)" "$(make -C "$KDIR" M="$out" W=1 C=1 modules 2>&1 |
	grep -E 'warning:|error:' | grep -v 'Skipping BTF')"
exit $rc
