#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/deb-test.sh ENVFILE BUILDDIR - the Debian packages, for real
#
# Builds zcache-dkms and zcache-tools (make deb), checks them with
# lintian, installs them with apt against the test kernel's headers
# package, and checks what an operator would: DKMS built, installed and
# signed the module for that kernel, modinfo shows the package's version,
# the tools are on the PATH, the man pages render, the unit is there
# (disabled).  It copies the module DKMS built to BUILDDIR/zcache-dkms.ko
# and the installed tools to BUILDDIR/tools/, for the guest's "tools"
# group.  Then it purges the packages, checks that nothing of them is left
# and that, with what they pulled in purged too, the machine's packages
# are as they were before the install (names and versions); then it
# purges the build tools it installed, and checks that the machine has
# the packages it had before, by name (installing the tools may have
# upgraded some).  Prints PASS/FAIL lines.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

envfile=${1:?envfile} build=${2:?builddir}
. "$envfile"
rc=0
ok() { echo "PASS deb: $1"; }
ko() { echo "FAIL deb: $1${2:+: $2}"; rc=1; }
check() {
	local what=$1
	shift
	if "$@"; then ok "$what"; else ko "$what"; fi
}

# "name version" lines, sorted in the C locale: comm, diff and join below
# compare them in that order.
installed_pkgs() {
	dpkg-query -W -f '${db:Status-Abbrev} ${Package} ${Version}\n' |
		awk '$1 ~ /^.i/ { print $2, $3 }' | LC_ALL=C sort
}
names() { echo "$1" | cut -d' ' -f1; }
# added_since SNAPSHOT: the names of the packages installed now that
# SNAPSHOT lacks, on one line
added_since() {
	LC_ALL=C comm -13 <(names "$1") <(names "$(installed_pkgs)") | tr '\n' ' '
}
# purge_names NAMES: purge those packages, if any
purge_names() {
	[ -n "$1" ] || return 0
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq $1 >/dev/null 2>&1
}
# differences A B: the lines of list A or B that the other lacks, on one line
differences() {
	LC_ALL=C diff <(echo "$1") <(echo "$2") | sed -n 's/^[<>] //p' | tr '\n' ' '
}
# A package of a run that failed half-way: gone first.
apt-get purge -y -qq zcache-dkms zcache-tools >/dev/null 2>&1
# The machine's packages before anything here installs one: building the
# packages and checking them pulls in more, and all of it goes again at
# the end.
before=$(installed_pkgs)
[ -n "$before" ] || { ko "list the installed packages (dpkg-query)"; exit 1; }

# What building and installing need (the dkms test before this one
# installed dkms and the headers; a run of this script alone does too).
need_pkgs dkms:dkms lintian:lintian openssl:openssl dpkg-buildpackage:dpkg-dev \
	dh:debhelper /usr/bin/dh_dkms:dh-dkms fakeroot:fakeroot
need_kernel_headers "$KVER" || { ko "install linux-headers-$KVER"; exit 1; }
# The packages with the tools in place: what installing and purging
# zcache's packages leave must be exactly this, names and versions.  (The
# tools themselves may have needed newer versions of packages that were
# there before, such as perl for lintian: apt upgrades those, and purging
# the tools cannot take them back.)
ready=$(installed_pkgs)
[ -n "$ready" ] || { ko "list the installed packages (dpkg-query)"; exit 1; }
cd "$ZCACHE_TOP" || exit 1
version=$(make -s version)

debs=$build/deb
rm -rf "$debs"
if scripts/mkdeb.sh "$debs" > "$build/deb-build.log" 2>&1; then
	ok "make deb builds zcache-dkms and zcache-tools $version"
else
	ko "make deb builds zcache-dkms and zcache-tools $version"
	tail -n 30 "$build/deb-build.log" | sed 's/^/    /'
	exit 1
fi
lint=$(lintian --fail-on error,warning --display-level '>=warning' \
	"$debs"/zcache_"$version"_*.changes 2>&1)
lint_rc=$?
lint=$(echo "$lint" | grep -v '^running with root privileges')
if [ $lint_rc = 0 ] && [ -z "$lint" ]; then
	ok "lintian: no error, no warning"
else
	ko "lintian: no error, no warning" "$(echo "$lint" | head -n 10)"
fi

if DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
	"$debs/zcache-dkms_${version}_all.deb" "$debs/zcache-tools_${version}_all.deb" \
	> "$build/deb-install.log" 2>&1; then
	ok "apt install ./zcache-dkms_${version}_all.deb ./zcache-tools_${version}_all.deb"
else
	ko "apt install ./zcache-dkms_${version}_all.deb ./zcache-tools_${version}_all.deb"
	tail -n 30 "$build/deb-install.log" | sed 's/^/    /'
fi
check "dkms status: zcache/$version installed for $KVER" \
	sh -c "dkms status zcache | grep -q '^zcache/$version, $KVER, [^:]*: installed'"
built=$(ls /lib/modules/"$KVER"/updates/dkms/zcache.ko* 2>/dev/null | head -n 1)
rm -f "$build/zcache-dkms.ko"
case $built in
*.ko.xz) xz -dc "$built" > "$build/zcache-dkms.ko" ;;
*.ko)    cp "$built" "$build/zcache-dkms.ko" ;;
esac
check "the module DKMS built is under /lib/modules/$KVER/updates/dkms" \
	[ -s "$build/zcache-dkms.ko" ]
got=$(modinfo -F version "$build/zcache-dkms.ko" 2>/dev/null)
check "modinfo zcache shows the package's version ($version; got '$got')" \
	[ "$got" = "$version" ]
check "modinfo zcache still has its softdep on zsmalloc" \
	sh -c "modinfo -F softdep '$build/zcache-dkms.ko' | grep -q 'pre: zsmalloc'"
# Debian's dkms signs what it builds with its MOK key (made at the first
# build if there is none), for Secure Boot.
signer=$(modinfo -F signer "$build/zcache-dkms.ko" 2>/dev/null)
check "the module is signed (signer '$signer') with the key in /var/lib/dkms/mok.pub" \
	sh -c "[ -n '$signer' ] && [ -s /var/lib/dkms/mok.pub ]"
rm -rf "$build/tools" && mkdir -p "$build/tools"
check "zcache-tools put zcache-load and zcache-stat in /usr/sbin" sh -c \
	'dpkg -L zcache-tools | grep -qx /usr/sbin/zcache-load && dpkg -L zcache-tools | grep -qx /usr/sbin/zcache-stat && [ -x /usr/sbin/zcache-load ] && [ -x /usr/sbin/zcache-stat ]'
cp /usr/sbin/zcache-load /usr/sbin/zcache-stat "$build/tools/" 2>/dev/null
check "zcache-stat, as installed, runs (and says zcache is not loaded here)" \
	sh -c 'ZCACHE_PARAMS=/nonexistent /usr/sbin/zcache-stat 2>/tmp/zcache-stat.err; [ $? = 1 ] && grep -q "zcache is not loaded" /tmp/zcache-stat.err'
for page in zcache.4 zcache-load.8 zcache-stat.8; do
	f=/usr/share/man/man${page##*.}/$page.gz
	warn=$( [ -e "$f" ] && LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 \
		man --warnings -E UTF-8 -l -Tutf8 -Z "$f" 2>&1 >/dev/null || echo "missing $f")
	check "man -l $page renders without warnings${warn:+ ($warn)}" [ -z "$warn" ]
done
check "zcache.service installed, and disabled; the swap units ordered after it" sh -c \
	'[ -f /lib/systemd/system/zcache.service ] && ! ls /etc/systemd/system/*.wants/zcache.service 2>/dev/null && grep -qx "After=zcache.service" /lib/systemd/system/swap.d/zcache.conf'

DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq zcache-dkms zcache-tools \
	> "$build/deb-purge.log" 2>&1 || ko "apt-get purge zcache-dkms zcache-tools"
left=$( {
	dkms status zcache
	ls -d /usr/src/zcache-* /var/lib/dkms/zcache /lib/modules/*/updates/dkms/zcache.ko* \
		/lib/systemd/system/zcache.service /lib/systemd/system/swap.d/zcache.conf \
		/etc/systemd/system/*zcache* \
		/usr/sbin/zcache-load /usr/sbin/zcache-stat /usr/share/man/man4/zcache.4.gz \
		/usr/share/doc/zcache-dkms /usr/share/doc/zcache-tools 2>/dev/null
	dpkg-query -W -f '${db:Status-Abbrev} ${Package}\n' 'zcache-*' 2>/dev/null | grep -v '^un '
} | tr '\n' ' ')
check "purge leaves nothing: no DKMS tree, nothing under /usr/src, no unit${left:+ (left: $left)}" \
	[ -z "$left" ]
# What the packages pulled in goes with them.
pulled=$(added_since "$ready")
purge_names "$pulled"
changed=$(differences "$ready" "$(installed_pkgs)")
check "installing and purging the packages leaves the machine's packages (names and versions) as they were${pulled:+ (purged what they pulled in: $pulled)}${changed:+; changed: $changed}" \
	[ -z "$changed" ]
# What this script installed goes (the build tools, lintian), by name:
# every package the machine had before is still there, and no other.
purge_names "$(added_since "$before")"
after=$(installed_pkgs)
differ=$(differences "$(names "$before")" "$(names "$after")")
# Packages that were there before at another version: what installing
# the tools upgraded, which their purge does not take back.
versions=$(LC_ALL=C join <(echo "$before") <(echo "$after") |
	awk '$2 != $3 { printf "%s %s -> %s; ", $1, $2, $3 }')
[ -n "$versions" ] &&
	echo "    versions the tools' install changed: $versions"
check "the machine has the packages it had before, by name${differ:+ (differ: $differ)}" \
	[ -z "$differ" ]
exit $rc
