// Scripted batch runs: one query per input line, answered on several
// threads, written in input order as JSON Lines or as a TREC run.
#ifndef QUARRY_APP_BATCH_H_
#define QUARRY_APP_BATCH_H_

#include <cstddef>
#include <istream>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "quarry/search/searcher.h"

namespace quarry {

enum class BatchFormat { kJsonLines, kTrec };

struct BatchConfig {
  // The index, or its shards (see Searcher).
  std::vector<std::string> db_paths;
  OpenOptions open;
  SearchOptions search;
  BatchFormat format = BatchFormat::kJsonLines;
  // Worker threads, each with its own Searcher. 0: the cores available.
  std::size_t threads = 0;
  // Write "took_ms" in JSON Lines; without it, output depends on the input
  // and the index alone.
  bool timings = true;
  // The last column of a TREC run.
  std::string run_tag = "quarry";
};

struct BatchReport {
  std::size_t queries = 0;
  std::size_t failed = 0;  // lines whose query could not be parsed
};

// Reads queries from `in`: one per line, "qid<TAB>query" or a bare query
// whose id is its line number; blank lines are skipped. Writes one answer
// per query to `out` in input order: a JSON object as write_json writes it
// plus "qid" (and "took_ms"), or TREC lines "qid Q0 docid rank score tag".
// A query that cannot be parsed yields {"qid", "query", "error"} (nothing in
// TREC) and one line on `diagnostics`. Shards left out (OpenOptions::
// allow_partial) are named in each answer's "warnings", and in TREC runs on
// `diagnostics`. Memory stays bounded however long the
// input: at most a few answers per thread are held.
// Throws what Searcher's constructor throws, and IndexError.
BatchReport run_batch(const BatchConfig& config, std::istream& in, std::ostream& out,
                      std::ostream& diagnostics, std::string_view program);

}  // namespace quarry

#endif  // QUARRY_APP_BATCH_H_
