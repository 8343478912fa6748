# bash completion for quarry-index: its options and their values, and the
# folders and corpora it reads.                            -*- shell-script -*-

_quarry_index()
{
    local cur prev words cword split
    _init_completion -s || return

    case $prev in
        --db)
            _filedir -d
            return
            ;;
        --synonyms)
            _filedir
            return
            ;;
        --language)
            # The stemmers of the Xapian library quarry-index runs with.
            COMPREPLY=($(compgen -W "none $(LC_ALL=C "$1" --help 2>/dev/null |
                sed -n 's/.*stemming): //p')" -- "$cur"))
            return
            ;;
        --commit-every | --shards | -j | --threads)
            return
            ;;
    esac
    $split && return

    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W '--db --language --commit-every --synonyms --shards
            -j --threads --wait --wait= -q --quiet -h --help --version' -- "$cur"))
        [[ ${COMPREPLY-} == *= ]] && compopt -o nospace
        return
    fi
    # Folders, .txt articles and JSON Lines corpora.
    _filedir '@(txt|jsonl|jsonl.gz)'
} &&
    complete -F _quarry_index quarry-index

# ex: filetype=sh
