# bash completion for quarry: its options and their values, the fields of
# the query language, and the serve subcommand.           -*- shell-script -*-

_quarry()
{
    local cur prev words cword split
    # A query field's ':' must not end the word, so that title:<TAB> works.
    _init_completion -s -n : || return

    local main_options='--db --allow-partial --connect-timeout --timeout
        -n --limit --offset --format --run-tag --color -i --interactive --batch -j --threads
        --no-snippets --no-timings --match --sort --count --count-limit --facets
        --correct --strict --plain --explain --weight --bm25 --title-weight
        --collapse --like --feedback -h --help --version'
    local serve_options='--db --allow-partial --connect-timeout --timeout --listen
        -j --threads --cache-mib -q --quiet -h --help'
    local with_value='--db|--connect-timeout|--timeout|-n|--limit|--offset|--format|--run-tag|--color|--batch|-j|--threads|--match|--sort|--count-limit|--facets|--correct|--weight|--bm25|--title-weight|--listen|--collapse|--like|--feedback|--cache-mib'

    # The first word that is neither an option nor an option's value decides:
    # serve, or the start of a query. After '--' every word is the query's.
    local i command= after_dashes=
    for ((i = 1; i < cword; i++)); do
        case ${words[i]} in
            --) after_dashes=1 command=query; break ;;
            -*=*) ;;
            -*) [[ ${words[i]} == @($with_value) ]] && ((i++)) ;;
            *) command=${words[i]}; break ;;
        esac
    done
    [[ $command && $command != serve ]] && command=query

    case $prev in
        --db)
            # A folder, or a Xapian stub file naming shards.
            _filedir
            return
            ;;
        --batch)
            _filedir
            return
            ;;
        --format)
            COMPREPLY=($(compgen -W 'text json trec' -- "$cur"))
            return
            ;;
        --color)
            COMPREPLY=($(compgen -W 'auto always never' -- "$cur"))
            return
            ;;
        --match)
            COMPREPLY=($(compgen -W 'any all' -- "$cur"))
            return
            ;;
        --sort)
            COMPREPLY=($(compgen -W 'relevance date -date' -- "$cur"))
            return
            ;;
        --correct)
            COMPREPLY=($(compgen -W 'never auto always' -- "$cur"))
            return
            ;;
        --collapse)
            COMPREPLY=($(compgen -W 'story duplicates none' -- "$cur"))
            return
            ;;
        --feedback)
            COMPREPLY=($(compgen -W 'auto on off' -- "$cur"))
            return
            ;;
        --weight)
            COMPREPLY=($(compgen -W 'bm25 bm25+ tfidf dlh dph pl2 pl2+ inl2 ifb2
                ineb2 bb2 lm trad coord bool' -- "$cur"))
            return
            ;;
        --facets)
            # A comma-separated list: complete its last field.
            local done_fields=
            [[ $cur == *,* ]] && done_fields=${cur%,*},
            COMPREPLY=($(compgen -P "$done_fields" -W 'source category date' \
                -- "${cur##*,}"))
            return
            ;;
        --connect-timeout | --timeout | -n | --limit | --offset | -j | --threads | \
            --count-limit | --bm25 | --title-weight | --listen | --run-tag | --like | \
            --cache-mib)
            return
            ;;
    esac
    $split && return

    if [[ $command == serve ]]; then
        [[ $cur == -* ]] && COMPREPLY=($(compgen -W "$serve_options" -- "$cur"))
        return
    fi
    if [[ $cur == -* && ! $after_dashes ]]; then
        COMPREPLY=($(compgen -W "$main_options" -- "$cur"))
        [[ ${COMPREPLY-} == *= ]] && compopt -o nospace
        return
    fi
    # A word of the query: a field to narrow it, or the serve subcommand.
    local fields='title: source: category: id: date: after: before:'
    [[ $command ]] || fields+=' serve'
    if [[ $cur != *:* ]]; then
        COMPREPLY=($(compgen -W "$fields" -- "$cur"))
        [[ ${COMPREPLY-} == *: ]] && compopt -o nospace
    fi
    __ltrim_colon_completions "$cur"
} &&
    complete -F _quarry quarry

# ex: filetype=sh
