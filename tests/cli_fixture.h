// What the tests of the real quarry and quarry-index programs share: the
// sample articles by name, the programs run on an index, the ids and
// highlights of their JSON answers, and one index of the sample corpus for
// the tests that only search it.
#ifndef QUARRY_TESTS_CLI_FIXTURE_H_
#define QUARRY_TESTS_CLI_FIXTURE_H_

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "tests/child_process.h"
#include "tests/sample_articles.h"
#include "tests/test_util.h"

namespace quarry::testing {

using Ids = std::set<std::string>;

// kRaucous, kKompany and kAmazon.
extern const Ids kAllArticles;

// quarry-index --db DB PATHS…
RunResult run_index(const std::filesystem::path& db, const std::vector<std::string>& paths);

// quarry --db DB ARGS…, reading `input`. The sample articles are one story:
// these runs see each of them (story_cli_test.cc shows stories).
RunResult run_quarry(const std::filesystem::path& db, const std::vector<std::string>& args,
                     const std::string& input = "");

// The start of quarry-index's summary line that gives `counts`.
std::string summary(const std::string& counts);

// The ids of a JSON answer's hits, in order, and as a set.
std::vector<std::string> ranked_ids(const nlohmann::json& result);
Ids id_set(const nlohmann::json& result);

// `text` with its ASCII letters in lower case.
std::u32string ascii_lower(std::u32string text);

// The highlighted words of a hit, lower-cased, checked to lie in the snippet.
std::vector<std::u32string> highlighted_words(const nlohmann::json& hit);

// A query and the articles it must find.
struct QueryCase {
  std::string query;
  Ids expected;
};

// Expects each query's JSON answer from `db` to find exactly its articles.
void expect_finds(const std::filesystem::path& db, const std::vector<QueryCase>& cases);

// Arguments that make a usage error, and what its message must mention.
struct UsageErrorCase {
  std::vector<std::string> args;
  std::string mention;
};

// Runs quarry on `db` with each case's arguments, reading `input`, and
// expects a usage error: exit 2, nothing on standard output, and a message
// that mentions the case's words. The runs, in the order of the cases.
std::vector<RunResult> expect_usage_errors(const std::filesystem::path& db,
                                           const std::vector<UsageErrorCase>& cases,
                                           const std::string& input = "");

// An index of the sample corpus, shared by the tests that only search it.
class CliCorpusTest : public SharedIndexTest {
 protected:
  static std::filesystem::path db() { return db_path(); }

  // The JSON answer to `query`, which must be one line.
  nlohmann::json search_json(const std::string& query);
};

}  // namespace quarry::testing

#endif  // QUARRY_TESTS_CLI_FIXTURE_H_
