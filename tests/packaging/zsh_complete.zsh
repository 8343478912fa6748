# What zsh offers on Tab at the end of a command line, one candidate a line:
#   zsh -f zsh_complete.zsh COMPLETIONS_DIR LINE
# An interactive zsh, on a pseudo-terminal, loads the completion functions
# of COMPLETIONS_DIR with compinit; the line is typed, then Tab. compadd is
# wrapped to print what each completion function adds. The markers are
# written so that zsh's echo of these very lines does not hold them.
zmodload zsh/zpty
local dir=$1 line=$2 dump=${TMPDIR:-/tmp}/zsh_complete.$$
zpty shell zsh -f -i
zpty -w shell "PROMPT=''"
zpty -w shell "fpath=($dir \$fpath); autoload -Uz compinit; compinit -u -d $dump"
zpty -w shell "zstyle ':completion:*' list-grouped false; zstyle ':completion:*' insert-tab false"
zpty -w shell 'compadd() {
  [[ ${@[1,-1]} == *-(O|A|D)\ * ]] && { builtin compadd "$@"; return $? }
  local -a hits
  builtin compadd -A hits "$@"
  (( $#hits )) || return 1
  local hit; for hit in $hits; do print -r -- "<""<$hit>"">"; done
}'
zpty -w shell 'finish() { zle -I; zle kill-whole-line; print "<""<end>"">"; }'
zpty -w shell "zle -N finish; bindkey '^X' finish; bindkey '^I' complete-word"
zpty -n -w shell "$line"$'\t'
zpty -n -w shell $'\C-x'
local out
while zpty -r shell out; do
  [[ $out == *'<<end>>'* ]] && break
  [[ $out == *'<<'*'>>'* ]] && print -r -- ${${out#*<<}%>>*}
done
zpty -d shell
rm -f $dump
