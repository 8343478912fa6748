#include "tests/batch_fixture.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <iterator>
#include <sstream>
#include <string_view>
#include <utility>

namespace quarry::testing {

using nlohmann::json;

namespace {

// Words the generated articles are made of; each article draws a few dozen,
// so that queries over them match some articles and rank them differently.
constexpr std::string_view kWords[] = {
    "penalty",  "keeper",  "striker",    "referee",   "transfer", "derby",     "league", "manager",
    "stadium",  "captain", "midfield",   "injury",    "contract", "supporter", "goal",   "season",
    "champion", "defeat",  "victory",    "coach",     "tactics",  "crowd",     "final",  "trophy",
    "wing",     "header",  "corner",     "offside",   "whistle",  "bench",     "debut",  "loan",
    "fixture",  "table",   "relegation", "promotion", "pitch",    "training",  "squad",  "kit"};

constexpr std::size_t kArticles = 40;

// A deterministic stream of indexes, the same on every platform (unlike the
// standard distributions).
class Picker {
 public:
  explicit Picker(std::uint32_t seed) : state_(seed * 2654435761u + 1) {}
  std::size_t next(std::size_t bound) {
    state_ ^= state_ << 13;
    state_ ^= state_ >> 17;
    state_ ^= state_ << 5;
    return state_ % bound;
  }

 private:
  std::uint32_t state_;
};

std::string article_text(std::size_t n) {
  Picker pick(static_cast<std::uint32_t>(n + 1));
  std::string text = "Match report " + std::to_string(n) + "\n\n";
  const std::size_t words = 30 + pick.next(60);
  for (std::size_t i = 0; i < words; ++i) {
    text += kWords[pick.next(std::size(kWords))];
    text += (i % 9 == 8) ? ". " : " ";
  }
  return text + "\n";
}

}  // namespace

std::vector<std::string> make_queries(std::size_t count) {
  Picker pick(7);
  std::vector<std::string> queries;
  auto word = [&] { return std::string(kWords[pick.next(std::size(kWords))]); };
  for (std::size_t i = 0; queries.size() < count; ++i) {
    switch (i % 6) {
      case 0:
        queries.push_back(word());
        break;
      case 1:
        queries.push_back(word() + " " + word());
        break;
      case 2:
        queries.push_back("\"" + word() + " " + word() + "\"");
        break;
      case 3:
        queries.push_back("+" + word() + " -" + word());
        break;
      case 4:
        queries.push_back(word() + " AND (" + word() + " OR " + word() + ")");
        break;
      default:
        queries.push_back(i % 12 == 5 ? "zebra" + std::to_string(i) : word() + "s");
        break;
    }
  }
  return queries;
}

std::string join_lines(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

std::vector<json> parse_lines(const std::string& text) {
  std::vector<json> objects;
  for (const std::string& line : lines_of(text)) objects.push_back(json::parse(line));
  return objects;
}

std::vector<std::string> split_on_spaces(const std::string& line) {
  std::vector<std::string> fields;
  std::istringstream in(line);
  for (std::string field; in >> field;) fields.push_back(field);
  return fields;
}

void BatchTest::SetUpTestSuite() {
  const auto articles = suite_dir() / "articles";
  for (std::size_t n = 0; n < kArticles; ++n) {
    write_file(articles / ("match" + std::to_string(n) + ".txt"), article_text(n));
  }
  ASSERT_EQ(index_suite_paths({articles.string()}).added, kArticles);
}

BatchConfig BatchTest::config(std::size_t threads) {
  BatchConfig config;
  config.db_paths = {db_path()};
  config.threads = threads;
  config.timings = false;
  return config;
}

BatchRun BatchTest::run(const BatchConfig& config, const std::string& input) {
  std::istringstream in(input);
  std::ostringstream out, diagnostics;
  BatchRun run;
  run.report = run_batch(config, in, out, diagnostics, "quarry");
  run.out = std::move(out).str();
  run.diagnostics = std::move(diagnostics).str();
  return run;
}

RunResult BatchCli::quarry(std::vector<std::string> args, const std::string& input) {
  args.insert(args.begin(), {"--db", db_path()});
  return run_program(QUARRY_BIN, args, input);
}

void expect_same_as_search(const json& answer, Searcher& searcher, const std::string& query,
                           const SearchOptions& options) {
  const SearchResult expected = searcher.search(query, options);
  ASSERT_FALSE(answer.contains("error")) << query;
  EXPECT_EQ(answer.at("query"), query);
  EXPECT_EQ(answer.at("total").get<std::size_t>(), expected.total) << query;
  const json& hits = answer.at("hits");
  ASSERT_EQ(hits.size(), expected.hits.size()) << query;
  for (std::size_t i = 0; i < hits.size(); ++i) {
    const Hit& hit = expected.hits[i];
    EXPECT_EQ(hits[i].at("rank").get<std::size_t>(), hit.rank) << query;
    EXPECT_EQ(hits[i].at("id"), hit.id) << query;
    EXPECT_EQ(hits[i].at("title"), hit.title) << query;
    EXPECT_EQ(hits[i].at("score").get<double>(), hit.score) << query;
    EXPECT_EQ(hits[i].at("snippet"), hit.snippet.text) << query;
    std::vector<Highlight> highlights;
    for (const json& pair : hits[i].at("highlights")) {
      highlights.push_back({pair.at(0).get<std::size_t>(), pair.at(1).get<std::size_t>()});
    }
    EXPECT_EQ(highlights, hit.snippet.highlights) << query;
  }
}

}  // namespace quarry::testing
