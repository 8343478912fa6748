#include "tests/cli_fixture.h"

#include <gtest/gtest.h>

namespace quarry::testing {

namespace fs = std::filesystem;
using nlohmann::json;

const Ids kAllArticles{kRaucous, kKompany, kAmazon};

RunResult run_index(const fs::path& db, const std::vector<std::string>& paths) {
  std::vector<std::string> args{"--db", db.string()};
  args.insert(args.end(), paths.begin(), paths.end());
  return run_program(QUARRY_INDEX_BIN, args);
}

RunResult run_quarry(const fs::path& db, const std::vector<std::string>& args,
                     const std::string& input) {
  std::vector<std::string> all{"--db", db.string(), "--collapse", "none"};
  all.insert(all.end(), args.begin(), args.end());
  return run_program(QUARRY_BIN, all, input);
}

std::string summary(const std::string& counts) { return "quarry-index: " + counts + " in "; }

std::vector<std::string> ranked_ids(const json& result) {
  std::vector<std::string> ids;
  for (const json& hit : result.at("hits")) ids.push_back(hit.at("id").get<std::string>());
  return ids;
}

Ids id_set(const json& result) {
  std::vector<std::string> ids = ranked_ids(result);
  return Ids(ids.begin(), ids.end());
}

std::u32string ascii_lower(std::u32string text) {
  for (char32_t& c : text) {
    if (c >= U'A' && c <= U'Z') c += U'a' - U'A';
  }
  return text;
}

std::vector<std::u32string> highlighted_words(const json& hit) {
  const std::u32string snippet = to_u32(hit.at("snippet").get<std::string>());
  std::vector<std::u32string> words;
  for (const json& range : hit.at("highlights")) {
    const auto begin = range.at(0).get<std::size_t>();
    const auto end = range.at(1).get<std::size_t>();
    EXPECT_LT(begin, end) << hit.dump();
    EXPECT_LE(end, snippet.size()) << hit.dump();
    if (begin >= end || end > snippet.size()) continue;
    words.push_back(ascii_lower(snippet.substr(begin, end - begin)));
  }
  return words;
}

void expect_finds(const fs::path& db, const std::vector<QueryCase>& cases) {
  for (const QueryCase& c : cases) {
    RunResult result = run_quarry(db, {"--format", "json", c.query});
    ASSERT_EQ(result.exit_code, 0) << c.query << ": " << result.err;
    EXPECT_EQ(id_set(json::parse(result.out)), c.expected) << c.query;
  }
}

std::vector<RunResult> expect_usage_errors(const fs::path& db,
                                           const std::vector<UsageErrorCase>& cases,
                                           const std::string& input) {
  std::vector<RunResult> results;
  for (const UsageErrorCase& c : cases) {
    const std::string args = ::testing::PrintToString(c.args);
    RunResult result = run_quarry(db, c.args, input);
    EXPECT_EQ(result.exit_code, 2) << args << ": " << result.err;
    EXPECT_EQ(result.out, "") << args;
    EXPECT_NE(result.err.find(c.mention), std::string::npos) << args << ": " << result.err;
    results.push_back(std::move(result));
  }
  return results;
}

json CliCorpusTest::search_json(const std::string& query) {
  RunResult result = run_quarry(db(), {"--format", "json", query});
  EXPECT_EQ(result.exit_code, 0) << query << ": " << result.err;
  EXPECT_EQ(lines_of(result.out).size(), 1u) << result.out;
  return json::parse(result.out);
}

}  // namespace quarry::testing
