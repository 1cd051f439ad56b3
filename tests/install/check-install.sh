#!/bin/sh
# tests/install/check-install.sh: the installed fecsim, used as a user would,
# with nothing of the source or build tree to lean on. Run by
# `make check-install` from the build tree (needs: abs_top_srcdir,
# abs_top_builddir, prefix, MAKE in the environment).
#
# 1. make install DESTDIR=<tmp>/stage, then the prefix is moved to
#    <tmp>/moved, so that neither the configured prefix nor the trees' paths
#    can be what makes it work;
# 2. where a mount namespace can be had (unshare -m: root or user
#    namespaces), the source and build trees are covered with empty tmpfs
#    mounts for the rest of the test, which then runs from a copy of this
#    script in <tmp>;
# 3. from <tmp>/work, FECSIM_DATADIR unset: --version names the moved data
#    directory; fecsim run (the built-in default scenario); fecsim check of an
#    installed scenario; fecsim regress with the installed suite and
#    baselines, unchanged (exit 0) and with an installed patch (exit 0 or 1,
#    all 12 scenarios compared); man fecsim-run; the bash completion; the
#    example VP (examples/tiny-vp) built with pkg-config --cflags --libs fecsim
#    against the moved prefix, and run.
# Exit status 0 when all of it works; the temporary directory is removed.
set -eu
fail() { echo "check-install: FAIL: $*" >&2; exit 1; }

if [ "${1:-}" != --inside ]; then
    : "${abs_top_srcdir:?}" "${abs_top_builddir:?}" "${prefix:?}" "${MAKE:=make}"
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/fecsim-install.XXXXXX")
    trap 'rm -rf "$tmp"' EXIT
    case $tmp in "$abs_top_srcdir"/* | "$abs_top_builddir"/*) fail "TMPDIR lies in the source or build tree" ;; esac
    echo "check-install: make install DESTDIR=$tmp/stage"
    (cd "$abs_top_builddir" && $MAKE -s install DESTDIR="$tmp/stage" >"$tmp/install.log" 2>&1) ||
        { cat "$tmp/install.log"; fail "make install"; }
    mv "$tmp/stage$prefix" "$tmp/moved"
    cp -r "$abs_top_srcdir/examples/tiny-vp" "$tmp/tiny-vp"
    cp "$0" "$tmp/check-install.sh"
    export tmp abs_top_srcdir abs_top_builddir
    if unshare -m true 2>/dev/null; then
        echo "check-install: source and build trees hidden (mount namespace)"
        unshare -m sh -c 'mount -t tmpfs none "$abs_top_srcdir" && mount -t tmpfs none "$abs_top_builddir" &&
            exec sh "$tmp/check-install.sh" --inside' || exit 1
    else
        echo "check-install: no mount namespace: the trees stay visible (the install was moved)"
        sh "$tmp/check-install.sh" --inside || exit 1
    fi
    echo "check-install: PASS"
    exit 0
fi

# --inside: the checks.
P=$tmp/moved
unset FECSIM_DATADIR
export FECSIM_CACHE="$tmp/cache" SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
export PATH="$P/bin:$PATH"
mkdir "$tmp/work"
cd "$tmp/work"
if [ -d "$abs_top_srcdir/drivers" ]; then
    echo "check-install: (source tree at $abs_top_srcdir still visible)"
fi

echo "check-install: listing"
(cd "$P" && for f in bin/fecsim lib/libfecsim.a lib/pkgconfig/fecsim.pc include/fecsim/enet/enet.h \
    include/fecsim/cache/pl310.h include/fecsim/cache/l1.h include/fecsim/mem/dram.h \
    share/fecsim/drivers/fec/fec_main.c share/fecsim/drivers/shim/simhost.h \
    share/fecsim/drivers/shim/include/linux/netdevice.h share/fecsim/scenarios/default.ini \
    share/fecsim/scenarios/regress/suite.ini share/fecsim/results/baselines/imx6q \
    share/man/man1/fecsim.1 share/man/man1/fecsim-run.1 share/bash-completion/completions/fecsim \
    share/doc/fecsim/docs/user-guide.md; do [ -e "$f" ] || fail "not installed: $f"; done)

fecsim --version | grep -qx "data: $P/share/fecsim" || { fecsim --version; fail "--version: data directory not $P/share/fecsim"; }

fecsim run -q -o scenario.duration=5ms --run-dir run1 || fail "fecsim run (default scenario)"
[ -s run1/stats.json ] || fail "fecsim run wrote no stats.json"
fecsim check -q "$P/share/fecsim/scenarios/imx6q/copybreak-stock-idle.ini" || fail "fecsim check"

fecsim regress -q -j 2 > regress.txt || { cat regress.txt; fail "fecsim regress (unchanged driver) exit $?"; }
grep -q '^fecsim regress: 12 scenarios' regress.txt || { cat regress.txt; fail "regress: not 12 scenarios"; }
st=0
fecsim regress -q -j 2 --patch "$P/share/fecsim/drivers/fec/patches/partial-sync.patch" > regress-patch.txt || st=$?
[ "$st" -le 1 ] || { cat regress-patch.txt; fail "fecsim regress --patch: exit $st"; }
grep -q '^fecsim regress: 12 scenarios' regress-patch.txt || { cat regress-patch.txt; fail "regress --patch: not 12 scenarios"; }

if command -v man >/dev/null; then
    MANPATH="$P/share/man" man -P cat fecsim-run 2>/dev/null | grep -q 'fecsim-run - simulate' ||
        fail "man fecsim-run"
fi

if command -v bash >/dev/null; then
    out=$(bash -c '. "$1/share/bash-completion/completions/fecsim"
        COMP_WORDS=(fecsim run -o l2.si); COMP_CWORD=3; _fecsim; echo "${COMPREPLY[*]}"' sh "$P")
    [ "$out" = "l2.size=" ] || fail "completion of 'fecsim run -o l2.si': '$out'"
fi

cd "$tmp/tiny-vp"
make -s PKG_CONFIG="pkg-config --define-variable=prefix=$P" PKG_CONFIG_PATH="$P/lib/pkgconfig" \
    > build.log 2>&1 || { cat build.log; fail "the example does not build against fecsim.pc"; }
./tiny-vp > vp.txt 2>&1 || { cat vp.txt; fail "the example VP"; }
grep -q '^cpu: *100 frames read, 100 with an intact payload' vp.txt || { cat vp.txt; fail "the example VP's output"; }
sed -n '/^tiny-vp:/,$p' vp.txt
