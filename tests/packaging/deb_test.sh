#!/usr/bin/env bash
# The Debian package CPack makes of a build (`make deb`): its files, its
# control fields, and its programs running from the package's contents:
#   deb_test.sh BUILD_DIR VERSION
set -uo pipefail
build_dir=$(realpath "$1") version=$2

source "$(dirname "${BASH_SOURCE[0]}")/checks.sh"
make_work

if ! cpack --config "$build_dir/CPackConfig.cmake" -G DEB -B "$work" >"$work/log" 2>&1; then
  cat "$work/log" >&2
  exit 1
fi
architecture=$(dpkg --print-architecture)
deb=$work/quarry_${version}-1_${architecture}.deb
if [[ ! -f $deb ]]; then
  echo "FAIL: no package $deb; CPack made: $(ls "$work")" >&2
  exit 1
fi

files=$(dpkg-deb -c "$deb" | awk '$1 !~ /^d/ {print $6}' | sort)
expected=$(printf '%s\n' ./usr/bin/quarry ./usr/bin/quarry-index \
  ./usr/share/bash-completion/completions/quarry \
  ./usr/share/bash-completion/completions/quarry-index \
  ./usr/share/man/man1/quarry-index.1.gz ./usr/share/man/man1/quarry.1.gz \
  ./usr/share/zsh/vendor-completions/_quarry ./usr/share/zsh/vendor-completions/_quarry-index |
  sort)
[[ $files == "$expected" ]] || fail "the package holds:"$'\n'"$files"$'\n'"expected:"$'\n'"$expected"

field() { dpkg-deb -f "$deb" "$1"; }
[[ $(field Package) == quarry ]] || fail "Package: $(field Package)"
[[ $(field Version) == "$version-1" ]] || fail "Version: $(field Version)"
[[ $(field Architecture) == "$architecture" ]] || fail "Architecture: $(field Architecture)"
[[ $(field Section) == text ]] || fail "Section: $(field Section)"
[[ $(field Maintainer) == *" <"*@*">" ]] || fail "Maintainer: $(field Maintainer)"
[[ $(field Description) == "full-text search for collections of articles"$'\n'* ]] ||
  fail "Description: $(field Description)"
# The shared libraries the programs link, each a package of Debian's with
# a lower bound on its version, as dpkg-shlibdeps writes them.
depends=$(field Depends)
for library in libc6 'libstdc\+\+6' libxapian30 'libicu[0-9]+' zlib1g libreadline8; do
  [[ $depends =~ (^|, )$library\ \(\>=\ [^\)]+\) ]] || fail "Depends lacks $library: $depends"
done

# The programs as installed, run from the package's contents.
dpkg-deb -x "$deb" "$work/root"
for program in quarry quarry-index; do
  first=$("$work/root/usr/bin/$program" --version 2>&1 | head -n 1)
  [[ $first == "$program $version" ]] || fail "$program --version from the package: $first"
done

finish "package: $(basename "$deb"), all checks pass"
