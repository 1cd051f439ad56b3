#!/bin/sh
# sim/gen-completion.sh FECSIM: writes the bash completion of fecsim on stdout.
# Every word comes from the program itself: the commands from `fecsim --help`,
# each command's options from `fecsim COMMAND --help`, the scenario keys and
# groups from `fecsim list-params --keys` / `--names` (the one parameter
# registry). Nothing is listed by hand here.
set -e
fecsim=$1
export LC_ALL=C
commands=$("$fecsim" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z-]*\).*/\1/p' | tr '\n' ' ')
[ -n "$commands" ] || { echo "gen-completion.sh: no commands in '$fecsim --help'" >&2; exit 1; }
keys=$("$fecsim" list-params --keys | tr '\n' ' ')
groups=$("$fecsim" list-params --names | tr '\n' ' ')

cat <<EOF
# bash completion for fecsim: commands, options, scenario keys (-o/--vary)
# and groups. Generated from fecsim's own --help and list-params.

_fecsim_commands='$commands'
_fecsim_keys='$keys'
_fecsim_groups='$groups'
EOF
for c in $commands; do
    [ "$c" = help ] && continue
    v=$(echo "$c" | tr - _)
    help=$("$fecsim" "$c" --help)
    # "  -o, --set=GROUP.KEY=VALUE   text": the option words, and those taking a value.
    opts=$(echo "$help" | sed -n 's/^  \(-[A-Za-z?], \)\{0,1\}\(--[a-z][a-z-]*\).*/\1\2/p' | tr -d ',' | tr '\n' ' ')
    vals=$(echo "$help" | sed -n 's/^  \(-[A-Za-z?], \)\{0,1\}\(--[a-z][a-z-]*\)=.*/\1\2/p' | tr -d ',' | tr '\n' ' ')
    echo "_fecsim_opts_$v='$opts'"
    echo "_fecsim_vals_$v='$vals'"
done
cat <<'EOF'

_fecsim()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} opt=
    COMPREPLY=()
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "$_fecsim_commands --help --version --list-params" -- "$cur"))
        return
    fi
    local cmd=${COMP_WORDS[1]}
    if [ "$cmd" = help ]; then
        [ "$COMP_CWORD" -eq 2 ] && COMPREPLY=($(compgen -W "$_fecsim_commands" -- "$cur"))
        return
    fi
    local v=${cmd//-/_} opts vals
    eval "opts=\$_fecsim_opts_$v; vals=\$_fecsim_vals_$v"
    # The option whose value cur is: "-o X", "--set X", "--set=X" (bash splits at '=').
    if [ "$cur" = = ]; then
        opt=$prev; cur=
    elif [ "$prev" = = ] && [ "$COMP_CWORD" -ge 3 ]; then
        opt=${COMP_WORDS[COMP_CWORD-2]}
    elif [[ " $vals " == *" $prev "* ]]; then
        opt=$prev
    fi
    if [ -n "$opt" ]; then
        case $opt in
        -o | --set | --vary)
            COMPREPLY=($(compgen -W "$_fecsim_keys" -S = -- "$cur"))
            compopt -o nospace 2>/dev/null
            ;;
        *)
            COMPREPLY=($(compgen -f -- "$cur"))
            compopt -o filenames 2>/dev/null
            ;;
        esac
        return
    fi
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
        return
    fi
    case $cmd in
    list-params) COMPREPLY=($(compgen -W "$_fecsim_groups" -- "$cur")) ;;
    plot | collect) COMPREPLY=($(compgen -d -- "$cur")) ;;
    *)  # scenario files and the directories that hold them
        COMPREPLY=($(compgen -d -- "$cur") $(compgen -f -X '!*.ini' -- "$cur"))
        compopt -o filenames 2>/dev/null
        ;;
    esac
}
complete -F _fecsim fecsim
EOF
