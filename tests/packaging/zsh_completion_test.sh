#!/usr/bin/env bash
# The zsh completion of quarry and quarry-index: each file parses, compinit
# registers it for its program, it knows every option of the program's
# --help (and quarry serve's), and an interactive zsh offers what it should
# on Tab:
#   zsh_completion_test.sh COMPLETIONS_DIR QUARRY QUARRY_INDEX
# (COMPLETIONS_DIR: the build's completions/, where quarry's is written.)
set -uo pipefail
completions=$(realpath "$1") quarry=$(realpath "$2") quarry_index=$(realpath "$3")
here=$(dirname "$(realpath "$0")")

if ! command -v zsh >/dev/null; then
  echo "zsh is not installed (make deps installs it)" >&2
  exit 1
fi
source "$(dirname "${BASH_SOURCE[0]}")/checks.sh"

for file in _quarry _quarry-index; do
  zsh -n "$completions/$file" || fail "$file does not parse"
done

make_work
registered=$(zsh -f -c "fpath=($completions \$fpath); autoload -Uz compinit
  compinit -u -d $work/zcompdump; print -r -- \$_comps[quarry] \$_comps[quarry-index]")
[[ $registered == "_quarry _quarry-index" ]] ||
  fail "compinit registers [$registered], expected [_quarry _quarry-index]"

# Each long option of a --help appears in a spec of the completion file
# ('--db=[...', '--strict[...', {-n+,--limit=}..., {-q,--quiet}...).
check_options() {
  local file=$1 option
  shift
  for option in $("$@" --help | sed -n 's/^  \(-[a-zA-Z],\)\{0,1\}\(--[a-z][-a-z0-9]*\).*/\2/p'); do
    grep -qE -- "(^|[^-a-z])$option([=[+}]|-\[)" "$completions/$file" ||
      fail "$file does not complete $option of $(basename "$1")${2:+ $2}"
  done
}
check_options _quarry "$quarry"
# Each subcommand quarry --help lists, with every option of its own --help.
subcommands=$("$quarry" --help |
  awk '/^Subcommands:$/ { listing = 1; next } listing && /^$/ { exit } listing { print $1 }')
[[ $subcommands == *serve* ]] || fail "no subcommands read from quarry --help"
for subcommand in $subcommands; do
  check_options _quarry "$quarry" "$subcommand"
done
check_options _quarry-index "$quarry_index"

# expect LINE CANDIDATE...: Tab at the end of LINE offers exactly these
# (each once, in any order). The programs are found on the PATH, as zsh's
# completion looks them up by name.
export PATH=$(dirname "$quarry"):$(dirname "$quarry_index"):$PATH
expect() {
  local line=$1
  shift
  local expected actual
  expected=$( (($#)) && printf '%s\n' "$@" | sort -u)
  actual=$(cd "$work" && timeout 30 zsh -f "$here/zsh_complete.zsh" "$completions" \
    "$line" | sort -u)
  [[ $actual == "$expected" ]] ||
    fail "'$line<TAB>' offers [${actual//$'\n'/ }], expected [${expected//$'\n'/ }]"
}
expect "quarry --for" --format
expect "quarry --format " json text trec
expect "quarry --color a" always auto
expect "quarry --sort " -date date relevance
expect "quarry --weight b" bb2 bm25 bm25+ bool
expect "quarry --facets source,c" category
expect "quarry --language f" fi fr
# Every option whose help lists the values it takes (text|json|trec) is
# completed with exactly those.
choices=0
while read -r option values; do
  expect "quarry $option " ${values//|/ }
  ((choices++))
done < <("$quarry" --help |
  sed -n 's/^  \(-[a-zA-Z],\)\{0,1\}\(--[a-z][-a-z0-9]*\) \([-a-z]*|[-a-z|]*\)\( .*\)\{0,1\}$/\2 \3/p')
((choices >= 5)) || fail "$choices options with values in quarry --help"
expect "quarry --feedback " auto off on
expect "quarry " after: alerts before: category: date: id: lang: language: serve source: title:
expect "quarry tit" title:
expect "quarry penalty s" source:
expect "quarry serve --l" --listen
expect "quarry serve --for"
expect "quarry alerts --f" --follow
expect "quarry-index --lang" --language
expect "quarry-index --language fr" french

finish "zsh completion: all checks pass"
