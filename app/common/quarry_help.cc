#include "app/common/quarry_help.h"

namespace quarry {

const char kQuarrySummary[] = "Search articles indexed by quarry-index.";

const char kQueryHelp[] = "The query; several arguments are joined with spaces";

const char kQuarryFooter[] = R"(Query language:
  Ederson Portuguese          any word may match; more and rarer words rank first
                              (sorted by date, every word: --match any for any)
  "dressing room"             a phrase; dressing-room and 2-1 are phrases too
  +Mourinho -milk             must / must not match
  penalty AND (Herrera OR Ederson) NOT Silva     also XOR
  Mourinho NEAR/5 milk        within 5 words, any order (ADJ: in order)
  kraan NEAR (elektrisch OR electrisch)          either word near the other
  Manches*                    words that start so
  title:derby  source:"Press Association"  category:sport  id:001.txt
                              fields, their names in any case (Title:derby)
  language:fr  lang:french    articles in one language, its ISO 639-1 code or name
  date:2017-12-10  date:2017-12-01..2017-12-31  date:2017-12
  after:2017-12-01  before:2017-12-31   the day (or month, year) named included

A query that cannot be parsed is searched as plain words, with a warning
saying why (--strict: exit 2 instead). A query that starts with '-' goes
after '--', as in
  quarry -- -milk Mourinho

With no QUERY, quarry opens a prompt on a terminal (:help lists its commands).
Otherwise it answers each line of standard input as --batch - does, one answer
per line as it is read: text headed "Query N: ..." (N: the line's number, or
the qid of a 'qid<TAB>query' line), or with --format json, JSON Lines. -i reads
the prompt's queries and commands from standard input instead.

Shards: --db may be given several times, and may name a Xapian stub file (or a
folder holding one, as quarry-index --shards writes) with lines such as
  auto shard-0                a local database, relative to the stub file
  remote 10.0.0.2:5001        a database served by xapian-tcpsrv
All are searched as one index.

Exit codes:
  0  success, including no hits (with --allow-partial, from the shards that answered)
  1  the index is missing or cannot be read, a shard is unreachable
     (without --allow-partial), or the --batch file cannot be read; also
     when memory runs out, or on an unexpected error (one line names it)
  2  usage error, --like an ID the index does not hold, or with --strict a
     query (or of several, some query) that cannot be parsed

quarry serve serves the index over HTTP (quarry serve --help); quarry -- serve
searches for the word.)";

const char kServeSummary[] = "Serve the index over HTTP: a search page and a JSON API";

const char kServeFooter[] = R"(Routes (all GET):
  /                       the search page (works without JavaScript)
  /api/search?q=...       the JSON of quarry --format json; parameters n, offset,
                          sort, match, language, plain, strict, correct,
                          explain, snippets, facets, count_limit, weight, bm25,
                          title_weight, collapse, feedback, like (q may then be
                          left out), as quarry's options (strict=true: 400 for
                          a bad query)
  /api/articles/ID        a stored article (with q=..., where the query matches it)
  /api/suggest?q=...      completions of the query's last word
  /api/stats, /healthz
  /api/alerts             the saved searches' alerts as Server-Sent Events, after
                          since=CURSOR or the Last-Event-ID header

The server is read-only. With --token-file, every request (/healthz too)
carries a token as 'Authorization: Bearer TOKEN' or is answered 401; the page
asks a person for one once (POST /sign-in) and keeps it in a cookie. It
listens on loopback unless --listen names another address, which needs
--token-file or --public. It does not encrypt. SIGINT or SIGTERM stop it,
answering the requests already received.

Exit codes:
  0  stopped by SIGINT or SIGTERM
  1  the address cannot be listened on (in use, not this machine's)
  2  usage error, before listening: an option, --listen that is not HOST:PORT
     or not loopback without --token-file or --public, a token file that
     cannot be read, is not a regular file of at most 1 MiB open to its
     owner alone (chmod 600), holds no token or one shorter than 16
     characters)";

const char kAlertsSummary[] =
    "Print the alerts of the index's saved searches, as JSON Lines, from a cursor on";

const char kAlertsFooter[] =
    R"(Each line is an alert as the index's alerts.jsonl holds it: {"cursor", "alert",
"id", "title", "date", "snippet", "language", "revision"}. Cursors count from 1
along the log; a program that starts again with --since the last cursor it
printed misses none and sees none twice. With --follow, alerts are printed as
they are added, until SIGINT or SIGTERM. A log cut short before the cursor is
read again from its first alert, with a warning.

Exit codes:
  0  done, or stopped by SIGINT or SIGTERM
  1  the index folder or its alerts cannot be read
  2  usage error)";

}  // namespace quarry
