#!/usr/bin/env bash
# The manual pages as man shows them: groff reads them without a warning,
# lexgrog finds the one-line description apropos indexes, each has its
# sections, and each lists every option of its program's --help:
#   man_page_test.sh MAN_DIR QUARRY QUARRY_INDEX
set -uo pipefail
man_dir=$(realpath "$1") quarry=$(realpath "$2") quarry_index=$(realpath "$3")

source "$(dirname "${BASH_SOURCE[0]}")/checks.sh"

# check_page PROGRAM WHATIS SECTION...
check_page() {
  local program=$1 whatis=$2
  shift 2
  local page=$man_dir/$(basename "$program").1.gz
  [[ -f $page ]] || { fail "no manual page $page"; return; }

  local warnings
  warnings=$(zcat "$page" | groff -k -man -Tutf8 -ww -z 2>&1)
  [[ -z $warnings ]] || fail "groff warns about $page: $warnings"

  local found
  found=$(lexgrog "$page" 2>&1)
  [[ $found == *": \"$whatis\"" ]] || fail "lexgrog reads [$found], expected \"$whatis\""

  local text
  text=$(MANWIDTH=100 man -l "$page" 2>&1)
  local section
  for section in "$@"; do
    grep -qx "$section" <<<"$text" || fail "$page has no section $section"
  done

  # Only the options come from --help: its summary line, its headings and
  # CLI11's names of types stay out of a page written for people.
  local summary
  summary=$("$program" --help | head -n 1)
  ! grep -qF -- "$summary" <<<"$text" || fail "$page repeats the help's summary [$summary]"
  local stray
  stray=$(grep -nE '(Positionals|Arguments|Subcommands|Exit codes|Options of [a-z]+):|UINT|FLOAT|TEXT:|\{' <<<"$text")
  [[ -z $stray ]] || fail "$page has lines of --help's layout: $stray"

  # Each example and each query of the query language is explained in a
  # sentence of its own, below it.
  local explained
  explained=$(awk '/^[A-Z]/ { section = $0 }
    (section == "EXAMPLES" || section == "QUERY LANGUAGE") && tag != "" &&
      substr($0, 1, 14) ~ /^ *$/ && substr($0, 15, 1) ~ /[^ A-Z]/ { print tag " / " $0 }
    { tag = (substr($0, 1, 7) ~ /^ *$/ && substr($0, 8, 1) ~ /[^ ]/) ? $0 : "" }' <<<"$text")
  [[ -z $explained ]] || fail "$page explains an example or a query not in a sentence: $explained"

  local option
  for option in $("$program" --help | sed -n 's/^  \(-[a-zA-Z],\)\{0,1\}\(--[a-z][-a-z0-9]*\).*/\2/p'); do
    grep -qE -- "(^|[ ,])$option([ ,=[]|$)" <<<"$text" || fail "$page does not describe $option"
  done
}

check_page "$quarry" "quarry - search articles indexed by quarry-index" \
  NAME SYNOPSIS DESCRIPTION OPTIONS "QUERY LANGUAGE" "EXIT STATUS" "QUARRY SERVE" \
  ENVIRONMENT FILES EXAMPLES "SEE ALSO"
check_page "$quarry_index" "quarry-index - index articles for quarry to search" \
  NAME SYNOPSIS DESCRIPTION OPTIONS "EXIT STATUS" ENVIRONMENT FILES EXAMPLES "SEE ALSO"

# quarry serve's options are in quarry(1) too.
text=$(MANWIDTH=100 man -l "$man_dir/quarry.1.gz" 2>&1)
grep -qE -- "(^|[ ,])--listen([ ,=]|$)" <<<"$text" || fail "quarry(1) does not describe serve --listen"
# And every subcommand, in the synopsis and with a section of its own.
for subcommand in serve alerts "alert add" "alert list" "alert remove"; do
  grep -qE -- "^ *quarry $subcommand \[" <<<"$text" || fail "quarry(1)'s synopsis lacks quarry $subcommand"
  grep -qx -- "QUARRY ${subcommand^^}" <<<"$text" || fail "quarry(1) has no section on quarry $subcommand"
done

finish "manual pages: all checks pass"
