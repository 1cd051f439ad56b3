#!/bin/sh
# sim/make-man.sh HELP2MAN FECSIM VERSION DOCDIR COMMAND OUT: writes the man page of
# fecsim COMMAND (fecsim(1) itself when COMMAND is "fecsim") to OUT, made by
# help2man from the command's --help. The one-line description of a command
# is its line in the Commands table of `fecsim --help`.
set -e
help2man=$1 fecsim=$2 version=$3 docdir=$4 cmd=$5 out=$6
export LC_ALL=C
top=$("$fecsim" --help)
commands=$(echo "$top" | sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z-]*\).*/\1/p')
if [ "$cmd" = fecsim ]; then
    name=fecsim help_opt=--help
    desc="cycle-level simulator of the i.MX6Q FEC/ENET MAC and its memory system"
else
    name=fecsim-$cmd help_opt="$cmd --help"
    desc=$(echo "$top" | sed -n '/^Commands:/,/^$/p' | grep "^  $cmd " | sed -E 's/^  [^ ]+( [^ ]+)*  +//')
    [ -n "$desc" ] || { echo "make-man.sh: '$cmd' is not in the Commands of '$fecsim --help'" >&2; exit 1; }
fi
inc=$out.inc wrap=$out.help.sh
trap 'rm -f "$inc" "$wrap" "$out.tmp"' EXIT
{
    echo "[SEE ALSO]"
    sep=
    for c in fecsim $commands; do
        [ "$c" = help ] && continue
        [ "$c" = fecsim ] && p=fecsim || p=fecsim-$c
        [ "$p" = "$name" ] && continue
        printf '%s.BR %s (1)' "$sep" "$p"
        sep=',
'
    done
    echo
    echo ".PP"
    echo "The user guide, $docdir/docs/user-guide.md, and the scenario format,"
    echo "$docdir/docs/scenario-format.md."
} > "$inc"
# help2man reads the help through a wrapper that puts GLib's "Usage:" and the
# usage line on one line (help2man's SYNOPSIS) and writes [OPTION...] where
# GLib, in the C locale, writes [OPTION?].
case $fecsim in /*) ;; *) fecsim=$(pwd)/$fecsim ;; esac
printf '#!/bin/sh\n"%s" "$@" | sed -e "/^Usage:\$/{N;s/\\n */ /;}" -e "s/\\[OPTION?\\]/[OPTION...]/"\n' "$fecsim" > "$wrap"
chmod +x "$wrap"
"$help2man" --no-info --no-discard-stderr --version-string="$name $version" --help-option="$help_opt" \
    --name="$desc" --include="$inc" "$wrap" > "$out.tmp"
mv "$out.tmp" "$out"
