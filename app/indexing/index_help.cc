#include "app/indexing/index_help.h"

namespace quarry {

const char kIndexSummary[] =
    "Index articles for searching with quarry: .txt files found under each folder "
    "(recursively) and JSON Lines corpora (.jsonl, .jsonl.gz). Runs are incremental: "
    "unchanged articles are skipped, changed ones replaced, vanished ones deleted.";

const char kIndexFooter[] = R"(Examples:
  quarry-index corpus/          index the .txt articles under corpus/ into the
                                default index, where quarry searches
  quarry-index corpus/          again: only new, changed or deleted articles
  quarry-index news.jsonl.gz    a JSON Lines corpus, plain or gzipped
  quarry-index --db /srv/news --language french articles/
                                an index of its own, stemmed as French
  quarry-index --db /srv/news --shards 3 news.jsonl.gz
                                three shards, searched as one by quarry --db /srv/news
  quarry-index --synonyms synonyms.txt corpus/
                                queries for one word of a line find the others
  quarry-index --wait corpus/   from cron: wait for a run still going on
  quarry-index --watch inbox/ news.jsonl
                                index them, then each article as it lands in
                                inbox/ or is appended to news.jsonl, until
                                Ctrl-C or SIGTERM
  feed-fetcher | quarry-index - the articles a program writes, as they come
  quarry-index --db /srv/news --snapshot /backup/news-monday
                                a compacted copy of the index as it is now,
                                even while another quarry-index writes it

Exit codes:
  0  every article was indexed; with --watch, SIGINT or SIGTERM ends the
     run so, after committing what was read, and with - alone, the end of
     standard input
  1  the index could not be opened or written (locked, disk full, ...), or
     a run without --watch or - was interrupted (what was indexed by then is
     kept), or a snapshot could not be taken (no index, disk full, ...); also
     when memory runs out, or on an unexpected error (one line names it)
  2  usage error: a PATH that does not exist or is of no kind quarry-index
     reads, folders with no article to make a new index of (with --watch,
     an empty index is made for what is to come), an --db that is
     a file or a folder of other files, or --shards or --language at odds
     with the existing index, or a --snapshot DEST that exists and is not
     an empty folder (nothing is written)
  3  the index was updated, but an input was skipped that no earlier run
     had reported (see messages), or a folder given holds no article; a
     problem met again in an unchanged file ("as before") is no failure;
     with --watch or -, a file or line skipped while watching counts too)";

}  // namespace quarry
