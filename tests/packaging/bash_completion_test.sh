#!/usr/bin/env bash
# The bash completion of quarry and quarry-index, run as bash-completion runs
# it when Tab is pressed at the end of a line:
#   bash_completion_test.sh COMPLETIONS_DIR QUARRY QUARRY_INDEX
# (COMPLETIONS_DIR: the build's completions/, where quarry's is written.)
set -uo pipefail
completions=$(realpath "$1") quarry=$(realpath "$2") quarry_index=$(realpath "$3")

if [[ ! -r /usr/share/bash-completion/bash_completion ]]; then
  echo "bash-completion is not installed (make deps installs it)" >&2
  exit 1
fi
source /usr/share/bash-completion/bash_completion
source "$completions/quarry.bash"
source "$completions/quarry-index.bash"

source "$(dirname "${BASH_SOURCE[0]}")/checks.sh"

# compopt works only while bash completes; here it notes what was asked.
compopt() {
  [[ $* == *nospace* ]] && nospace=1
  return 0
}

# The candidates bash would offer for `line`, one a line, sorted. The line
# is cut into words as bash cuts it: at spaces, and around the characters of
# COMP_WORDBREAKS that a command line may hold here (= and :).
completions() {
  local line=$1 token piece
  COMP_LINE=$line
  COMP_POINT=${#line}
  COMP_WORDS=()
  for token in $line; do
    while [[ $token =~ ^([^=:]*)([=:]+)(.*)$ ]]; do
      [[ ${BASH_REMATCH[1]} ]] && COMP_WORDS+=("${BASH_REMATCH[1]}")
      COMP_WORDS+=("${BASH_REMATCH[2]}")
      token=${BASH_REMATCH[3]}
    done
    [[ $token ]] && COMP_WORDS+=("$token")
  done
  [[ $line == *' ' || $line == *[=:] ]] && COMP_WORDS+=('')
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  nospace=
  local function
  function=$(complete -p "$(basename "${COMP_WORDS[0]}")" | sed -n 's/.*-F \([^ ]*\) .*/\1/p')
  "$function" "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]-}"
  ((${#COMPREPLY[@]})) && printf '%s\n' "${COMPREPLY[@]}" | sort
}

# expect LINE CANDIDATE...: Tab at the end of LINE offers exactly these.
expect() {
  local line=$1
  shift
  local expected actual
  expected=$( (($#)) && printf '%s\n' "$@" | sort)
  actual=$(completions "$line")
  if [[ $actual != "$expected" ]]; then
    echo "FAIL: '$line<TAB>' offers [${actual//$'\n'/ }], expected [${expected//$'\n'/ }]" >&2
    ((failures++))
  fi
}

# expect_all LINE OPTION...: Tab at the end of LINE offers at least these.
expect_all() {
  local line=$1 option
  shift
  local actual
  actual=$(completions "$line")
  for option in "$@"; do
    if ! grep -qxF -- "$option" <<<"$actual"; then
      echo "FAIL: '$line<TAB>' does not offer $option" >&2
      ((failures++))
    fi
  done
}

# The long options a --help lists.
help_options() {
  "$@" --help | sed -n 's/^  \(-[a-zA-Z],\)\{0,1\}\(--[a-z][-a-z0-9]*\).*/\2/p'
}

# The subcommands a --help lists.
subcommands_of() {
  "$@" --help | awk '/^Subcommands:$/ { listing = 1; next } listing && /^$/ { exit } listing { print $1 }'
}

# Folders and files to complete among.
make_work
mkdir "$work/index" "$work/articles"
touch "$work/notes.md" "$work/one.txt" "$work/news.jsonl" "$work/news.jsonl.gz" "$work/shards.stub"
cd "$work" || exit 1

# quarry: every option of its help, and their values.
mapfile -t options < <(help_options "$quarry")
((${#options[@]} > 20)) || { echo "FAIL: no options read from quarry --help" >&2; exit 1; }
expect_all "$quarry --" "${options[@]}"
expect "$quarry --for" --format
expect "$quarry --format " json text trec
expect "$quarry --format=" json text trec
expect "$quarry --format j" json
expect "$quarry --color a" always auto
expect "$quarry --match " all any auto
expect "$quarry --sort " -date date relevance
expect "$quarry --correct " always auto never
expect "$quarry --facets " category date language source
expect "$quarry --facets source,c" source,category
mapfile -t schemes < <("$quarry" --help | sed -n 's/.*Ranking scheme: \(.*\) (default: [^)]*)$/\1/p' | tr ' ' '\n')
((${#schemes[@]} > 3)) || { echo "FAIL: no ranking schemes in quarry --help" >&2; exit 1; }
expect "$quarry --weight " "${schemes[@]}"
expect "$quarry --language f" fi fr
# Every option whose help lists the values it takes (text|json|trec) is
# completed with exactly those.
choices=0
while read -r option values; do
  mapfile -t allowed < <(tr '|' '\n' <<<"$values")
  expect "$quarry $option " "${allowed[@]}"
  ((choices++))
done < <("$quarry" --help |
  sed -n 's/^  \(-[a-zA-Z],\)\{0,1\}\(--[a-z][-a-z0-9]*\) \([-a-z]*|[-a-z|]*\)\( .*\)\{0,1\}$/\2 \3/p')
((choices >= 5)) || { echo "FAIL: $choices options with values in quarry --help" >&2; exit 1; }
expect "$quarry --feedback " auto off on
expect "$quarry --db " articles index news.jsonl news.jsonl.gz notes.md one.txt shards.stub
expect "$quarry --db i" index
expect "$quarry -n "
# Words of the query: its fields, and a subcommand as the first word.
expect "$quarry " after: alerts before: category: date: id: lang: language: serve source: title:
expect "$quarry tit" title:
nospace=
completions "$quarry tit" >/dev/null
if [[ ! $nospace ]]; then
  echo "FAIL: a space follows the completed title:" >&2
  ((failures++))
fi
expect "$quarry se" serve
expect "$quarry --format json s" serve source:
expect "$quarry al" alerts
expect "$quarry penalty s" source:
expect "$quarry -- " after: before: category: date: id: lang: language: source: title:
expect "$quarry -- -"
expect "$quarry title:"

# Each subcommand of quarry --help: every option of its own --help.
mapfile -t subcommands < <(subcommands_of "$quarry")
((${#subcommands[@]} > 2)) || { echo "FAIL: no subcommands read from quarry --help" >&2; exit 1; }
for subcommand in "${subcommands[@]}"; do
  mapfile -t subcommand_options < <(help_options "$quarry" "$subcommand")
  ((${#subcommand_options[@]})) ||
    { echo "FAIL: no options read from quarry $subcommand --help" >&2; exit 1; }
  expect_all "$quarry $subcommand --" "${subcommand_options[@]}"
done
expect "$quarry serve --l" --listen
expect "$quarry serve --for"
expect "$quarry serve "
expect "$quarry alerts --f" --follow
expect "$quarry alerts --since "
expect "$quarry alerts --db i" index
expect "$quarry alerts "

# quarry-index: every option, languages, and what it reads.
mapfile -t options < <(help_options "$quarry_index")
((${#options[@]} > 8)) || { echo "FAIL: no options read from quarry-index --help" >&2; exit 1; }
expect_all "$quarry_index --" "${options[@]}"
expect "$quarry_index --lang" --language
expect "$quarry_index --language fr" french
expect_all "$quarry_index --language " none english german portuguese
expect "$quarry_index --db " articles index
expect "$quarry_index --synonyms n" news.jsonl news.jsonl.gz notes.md
expect "$quarry_index " articles index news.jsonl news.jsonl.gz one.txt
expect "$quarry_index --shards "

finish "bash completion: all cases pass"
