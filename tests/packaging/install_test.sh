#!/usr/bin/env bash
# What `cmake --install` (and so `make install`) puts where, and that each
# piece is found there by what uses it: man, bash-completion's loader, zsh's
# compinit. Installs into temporary folders through DESTDIR:
#   install_test.sh BUILD_DIR
set -uo pipefail
build_dir=$(realpath "$1")

source "$(dirname "${BASH_SOURCE[0]}")/checks.sh"
make_work

# install PREFIX: installs into $work/destdir-PREFIX and lists what was installed.
install() {
  local root=$work/destdir${1//\//-}
  DESTDIR=$root cmake --install "$build_dir" --prefix "$1" --component quarry >"$work/log" 2>&1 ||
    fail "cmake --install --prefix $1 failed: $(cat "$work/log")"
  (cd "$root" && find . -type f -o -type l | sed 's|^\./|/|' | sort)
}

# expect_files PREFIX PATH...: what the install under PREFIX holds, exactly.
expect_files() {
  local prefix=$1
  shift
  local expected actual
  expected=$(printf '%s\n' "$@" | sort)
  actual=$(install "$prefix")
  [[ $actual == "$expected" ]] ||
    fail "--prefix $prefix installs:"$'\n'"$actual"$'\n'"expected:"$'\n'"$expected"
}

# A package's prefix: zsh completion where packages put theirs.
expect_files /usr /usr/bin/quarry /usr/bin/quarry-index \
  /usr/share/man/man1/quarry.1.gz /usr/share/man/man1/quarry-index.1.gz \
  /usr/share/bash-completion/completions/quarry \
  /usr/share/bash-completion/completions/quarry-index \
  /usr/share/zsh/vendor-completions/_quarry /usr/share/zsh/vendor-completions/_quarry-index

# make install's default: zsh completion where the local administrator's
# goes, which zsh reads (it does not read /usr/local/share/zsh/vendor-completions).
expect_files /usr/local /usr/local/bin/quarry /usr/local/bin/quarry-index \
  /usr/local/share/man/man1/quarry.1.gz /usr/local/share/man/man1/quarry-index.1.gz \
  /usr/local/share/bash-completion/completions/quarry \
  /usr/local/share/bash-completion/completions/quarry-index \
  /usr/local/share/zsh/site-functions/_quarry /usr/local/share/zsh/site-functions/_quarry-index

root=$work/destdir-usr/usr
for program in quarry quarry-index; do
  version=$("$root/bin/$program" --version 2>&1 | head -n 1)
  [[ $version == "$program "[0-9]* ]] || fail "installed $program --version says [$version]"

  page=$(MANPATH=$root/share/man man -w "$program" 2>&1)
  [[ $page == "$root/share/man/man1/$program.1.gz" ]] || fail "man -w $program finds [$page]"

  if [[ -r /usr/share/bash-completion/bash_completion ]]; then
    loaded=$(XDG_DATA_DIRS=$root/share bash -c "source /usr/share/bash-completion/bash_completion
      __load_completion $program && complete -p $program" 2>&1)
    [[ $loaded == "complete -F _"*" $program" ]] ||
      fail "bash-completion's loader finds [$loaded] for $program"
  else
    fail "bash-completion is not installed (make deps installs it)"
  fi
done

if command -v zsh >/dev/null; then
  registered=$(zsh -f -c "fpath=($root/share/zsh/vendor-completions \$fpath); autoload -Uz compinit
    compinit -u -d $work/zcompdump; print -r -- \$_comps[quarry] \$_comps[quarry-index]")
  [[ $registered == "_quarry _quarry-index" ]] || fail "zsh's compinit registers [$registered]"
else
  fail "zsh is not installed (make deps installs it)"
fi

finish "install: all checks pass"
