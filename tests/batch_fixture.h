// What the tests of batches share: an index of generated match reports,
// queries of every kind over their words, a batch run in memory, and the
// check that an answer is what Searcher gives.
#ifndef QUARRY_TESTS_BATCH_FIXTURE_H_
#define QUARRY_TESTS_BATCH_FIXTURE_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/common/batch.h"
#include "quarry/search/searcher.h"
#include "tests/child_process.h"
#include "tests/test_util.h"

namespace quarry::testing {

// `count` queries of every kind the parser takes: words, phrases, +/-,
// boolean operators, and some that match nothing.
std::vector<std::string> make_queries(std::size_t count);

// The lines, each ended by a line break.
std::string join_lines(const std::vector<std::string>& lines);

// Each line of JSON Lines, parsed.
std::vector<nlohmann::json> parse_lines(const std::string& text);

// A line's fields, as TREC tools split it.
std::vector<std::string> split_on_spaces(const std::string& line);

// Expects `answer` to be what `searcher` gives for `query`, hit for hit.
void expect_same_as_search(const nlohmann::json& answer, Searcher& searcher,
                           const std::string& query, const SearchOptions& options);

struct BatchRun {
  std::string out;
  std::string diagnostics;
  BatchReport report;
};

// An index of generated match reports. The tests only read the index;
// dir_ is each test's own.
class BatchTest : public SharedIndexTest {
 protected:
  static void SetUpTestSuite();

  static BatchConfig config(std::size_t threads = 1);
  static BatchRun run(const BatchConfig& config, const std::string& input);

  TempDir dir_;
};

// The same index, searched by the quarry program.
class BatchCli : public BatchTest {
 protected:
  RunResult quarry(std::vector<std::string> args, const std::string& input = "");
};

}  // namespace quarry::testing

#endif  // QUARRY_TESTS_BATCH_FIXTURE_H_
