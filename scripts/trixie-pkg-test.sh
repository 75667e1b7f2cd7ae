#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/trixie-pkg-test.sh ENVFILE BUILDDIR - zcache-dkms on Debian 13
#
# For a trixie kernel (one whose env file names a BUILD_ROOT), in a
# throwaway copy of the trixie build root (scripts/trixie-root.sh: an
# overlay on the cached root, in a private mount namespace, its changes
# deleted at the end): builds zcache-dkms with trixie's debhelper and
# dh-dkms (make deb's scripts/mkdeb.sh, run there), then installs it with
# apt, with dkms, openssl (for DKMS's signing key) and the kernel's
# headers package from trixie's archive.  Nothing of trixie reaches the
# host, nothing is installed on it, and the cached root stays as it was.
# Checks that DKMS built, signed and installed the module for KVER, with
# the package's version and KVER's vermagic, copies it to
# BUILDDIR/zcache-dkms.ko, then purges the package and checks that nothing
# of it is left.  apt's, dkms's and the package build's output go to
# BUILDDIR/trixie-pkg.log.  Prints PASS/FAIL lines.
# shellcheck disable=SC2016 # (scripts for sh -c, expanded where they run)
set -uo pipefail
. "$(dirname "$0")/lib.sh"

envfile=${1:?envfile} build=${2:?builddir}
rc=0
ok() { echo "PASS dkms-trixie: $1"; }
ko() { echo "FAIL dkms-trixie: $1${2:+: $2}"; rc=1; }
BUILD_ROOT=
# shellcheck disable=SC1090
. "$envfile"
[ -n "$BUILD_ROOT" ] || { ko "$KVER is a trixie kernel" "no BUILD_ROOT in $envfile"; exit 1; }
check() {
	local what=$1
	shift
	if "$@"; then ok "$what"; else ko "$what"; fi
}
aptlog=$build/trixie-pkg.log
: > "$aptlog"
showlog() { tail -n 30 "$aptlog" | sed 's/^/    /'; }

cd "$ZCACHE_TOP" || exit 1
version=$(make -s version)
root=$(scripts/trixie-root.sh) || { ko "the trixie build root is there"; exit 1; }
tmp=$(mktemp -d "$ZCACHE_CACHE/trixie-pkg.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/upper" "$tmp/work" "$tmp/merged"

# inroot CMD...: run CMD in the overlay on the trixie root, with /proc,
# /dev and the cache (where the packages are) mounted; a clean environment.
inroot() {
	unshare -m --propagation private /bin/sh -euc '
		root=$1 tmp=$2 cache=$3 m=$2/merged
		shift 3
		mount -t overlay overlay \
			-o "lowerdir=$root,upperdir=$tmp/upper,workdir=$tmp/work" "$m"
		mount -t proc proc "$m/proc"
		mount --rbind /dev "$m/dev"
		mkdir -p "$m$cache"
		mount --bind "$cache" "$m$cache"
		exec chroot "$m" /usr/bin/env -i HOME=/root LC_ALL=C.UTF-8 \
			PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive "$@"
	' sh "$root" "$tmp" "$ZCACHE_CACHE" "$@"
}
# root_apt CMD...: apt-get -y CMD in the root, its output in the log
root_apt() {
	echo "# apt-get $*" >> "$aptlog"
	inroot apt-get -y "$@" >> "$aptlog" 2>&1
}


# trixie's suites; no daemon starts in the root.
cat > "$tmp/debian.sources" <<SRC
Types: deb
URIs: http://deb.debian.org/debian
Suites: trixie trixie-updates trixie-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: trixie-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
printf '#!/bin/sh\nexit 101\n' > "$tmp/policy-rc.d"
cp -L /etc/resolv.conf "$tmp/resolv.conf"
if ! inroot sh -c 'cp "$0"/resolv.conf /etc/resolv.conf &&
	rm -f /etc/apt/sources.list &&
	cp "$0"/debian.sources /etc/apt/sources.list.d/debian.sources &&
	install -m 755 "$0"/policy-rc.d /usr/sbin/policy-rc.d' "$tmp" ||
	! root_apt update; then
	ko "apt-get update in the trixie root"
	showlog
	exit 1
fi

# The package, built in the root from the files git knows (mkdeb.sh
# installs its build tools there, with the root's apt).
mkdir -p "$tmp/src"
git ls-files -z --cached --others --exclude-standard |
	while IFS= read -r -d '' f; do
		if [ -e "$f" ]; then printf '%s\0' "$f"; fi
	done | tar --null -T - -cf - | tar -xf - -C "$tmp/src"
echo "# scripts/mkdeb.sh" >> "$aptlog"
if inroot sh -c 'cd "$0/src" && ZCACHE_CACHE="$0/cache" scripts/mkdeb.sh "$0/deb"' \
	"$tmp" >> "$aptlog" 2>&1; then
	ok "make deb builds zcache-dkms $version in trixie"
else
	ko "make deb builds zcache-dkms $version in trixie"
	showlog
	exit 1
fi
deb=$tmp/deb/zcache-dkms_${version}_all.deb

# 7.3's headers are in trixie-backports only; install from there if so.
policy=$(inroot apt-cache policy "linux-headers-$KVER" 2>&1)
hver=$(echo "$policy" | awk '/Candidate:/ { print $2 }')
target=()
echo "$policy" | grep -q ' trixie-backports/' && target=(-t trixie-backports)
if [ -z "$hver" ] || [ "$hver" = "(none)" ]; then
	ko "linux-headers-$KVER is in trixie's archive" \
		"apt-cache policy: $(echo "${policy:-nothing}" | tr -s '\n ' ' ' | sed 's/ $//')"
	exit 1
fi
if root_apt install --no-install-recommends "${target[@]}" dkms openssl \
	"linux-headers-$KVER=$hver" "$deb"; then
	ok "apt install ${target[*]} dkms linux-headers-$KVER ($hver) ./${deb##*/} in trixie"
else
	ko "apt install ${target[*]} dkms linux-headers-$KVER ($hver) ./${deb##*/} in trixie"
	showlog
fi

status=$(inroot dkms status zcache 2>&1)
if echo "$status" | grep -q "^zcache/$version, $KVER, [^:]*: installed"; then
	ok "dkms status: zcache/$version installed for $KVER"
else
	ko "dkms status: zcache/$version installed for $KVER" "${status:-nothing}"
fi
mod=$(inroot sh -c 'ls "/lib/modules/$0/updates/dkms/"zcache.ko* 2>/dev/null' "$KVER" | head -n 1)
rm -f "$build/zcache-dkms.ko"
case $mod in
*.ko.xz)  inroot xz -dc "$mod" > "$build/zcache-dkms.ko" ;;
*.ko.zst) inroot zstd -qdc "$mod" > "$build/zcache-dkms.ko" ;;
*.ko)     inroot cat "$mod" > "$build/zcache-dkms.ko" ;;
esac
check "the module DKMS built is under /lib/modules/$KVER/updates/dkms (${mod:-none})" \
	[ -s "$build/zcache-dkms.ko" ]
got=$(inroot modinfo -F version "${mod:-/nonexistent}" 2>/dev/null)
check "modinfo shows the package's version ($version; got '$got')" \
	[ "$got" = "$version" ]
vermagic=$(inroot modinfo -F vermagic "${mod:-/nonexistent}" 2>/dev/null)
check "its vermagic is $KVER's (got '$vermagic')" \
	[ "${vermagic%% *}" = "$KVER" ]
signer=$(inroot modinfo -F signer "${mod:-/nonexistent}" 2>/dev/null)
check "DKMS signed it with its own key (signer '$signer')" \
	[ "$signer" = "DKMS module signing key" ]

root_apt purge zcache-dkms || ko "apt-get purge zcache-dkms"
left=$(inroot sh -c 'dkms status zcache
	ls -d /usr/src/zcache-* /var/lib/dkms/zcache /lib/modules/*/updates/dkms/zcache.ko* 2>/dev/null
	dpkg-query -W -f "\${db:Status-Abbrev} \${Package}\n" zcache-dkms 2>/dev/null | grep -v "^un "' |
	tr '\n' ' ')
check "purge leaves nothing: no DKMS tree, no source, no module${left:+ (left: $left)}" \
	[ -z "$left" ]
[ $rc = 0 ] || showlog
exit $rc
