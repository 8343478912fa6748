// Scripted batch runs: one query per input line, answered in input order as
// JSON Lines, a TREC run or text, on several threads (run_batch) or one line
// at a time as it is read (answer_each_line).
#ifndef QUARRY_APP_COMMON_BATCH_H_
#define QUARRY_APP_COMMON_BATCH_H_

#include <cstddef>
#include <istream>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "app/common/printer.h"
#include "quarry/search/searcher.h"

namespace quarry {

struct BatchConfig {
  // The index, or its shards (see Searcher).
  std::vector<std::string> db_paths;
  OpenOptions open;
  SearchOptions search;
  // JSON Lines, a TREC run or text.
  OutputFormat format = OutputFormat::kJson;
  // Worker threads, each with its own Searcher. 0: the cores available.
  std::size_t threads = 0;
  // Write "took_ms" in JSON Lines; without it, output depends on the input
  // and the index alone.
  bool timings = true;
  // The last column of a TREC run.
  std::string run_tag = "quarry";
  // How text answers look.
  TextStyle style;
};

struct BatchReport {
  std::size_t queries = 0;
  std::size_t failed = 0;  // lines whose query could not be parsed
};

// Reads queries from `in`: one per line, "qid<TAB>query" or a bare query
// whose id is its line number; blank lines are skipped. Writes one answer
// per query to `out` in input order, as config.format's printer writes an
// answer with its qid: a JSON object with "qid" (and "took_ms"); TREC lines
// "qid Q0 docid rank score tag"; or in text, a heading "Query qid: query"
// then the answer, the answers set apart by blank lines. A query that cannot be parsed yields
// {"qid", "query", "error"} (in text, its heading and "error: …"; nothing
// in TREC) and one line on `diagnostics`. Shards left out (OpenOptions::
// allow_partial) are named in each answer's "warnings", and in TREC runs
// and text on `diagnostics`, as are the text answers' notes. Memory stays
// bounded however long the input: at most a few answers per thread are
// held. Throws what Searcher's constructor throws, and IndexError.
BatchReport run_batch(const BatchConfig& config, std::istream& in, std::ostream& out,
                      std::ostream& diagnostics, std::string_view program);

// The same answers, from `searcher` alone (config.db_paths, open and
// threads are not used): each line is answered, and `out` flushed, before
// the next is read, so that a program may write a query and wait for its
// answer. Throws IndexError.
BatchReport answer_each_line(Searcher& searcher, const BatchConfig& config, std::istream& in,
                             std::ostream& out, std::ostream& diagnostics,
                             std::string_view program);

}  // namespace quarry

#endif  // QUARRY_APP_COMMON_BATCH_H_
