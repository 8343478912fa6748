# What the packaging tests share, sourced by each: failures are counted and
# the test goes on, so that one run names every failure.
failures=0

# fail MESSAGE...: says what failed, and counts it.
fail() {
  echo "FAIL: $*" >&2
  ((failures++))
}

# finish SUMMARY: exits 1 saying how many checks failed, or says SUMMARY
# when none did.
finish() {
  if ((failures)); then
    echo "$failures failures" >&2
    exit 1
  fi
  echo "$1"
}

# make_work: a scratch folder, $work, removed when the test exits.
make_work() {
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
}
