#include "app/common/batch.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>
#include <streambuf>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "app/common/text_printer.h"
#include "quarry/error.h"
#include "quarry/index/index_writer.h"
#include "tests/test_util.h"

namespace quarry {
namespace {

using nlohmann::json;
using testing::lines_of;
using testing::run_program;
using testing::TempDir;
using testing::write_file;

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

// `count` queries of every kind the parser takes: words, phrases, +/-,
// boolean operators, and some that match nothing.
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

struct BatchRun {
  std::string out;
  std::string diagnostics;
  BatchReport report;
};

// The tests only read the index; dir_ is each test's own.
class BatchTest : public testing::SharedIndexTest {
 protected:
  static void SetUpTestSuite() {
    const auto articles = suite_dir() / "articles";
    for (std::size_t n = 0; n < kArticles; ++n) {
      write_file(articles / ("match" + std::to_string(n) + ".txt"), article_text(n));
    }
    ASSERT_EQ(index_suite_paths({articles.string()}).added, kArticles);
  }

  static BatchConfig config(std::size_t threads = 1) {
    BatchConfig config;
    config.db_paths = {db_path()};
    config.threads = threads;
    config.timings = false;
    return config;
  }

  static BatchRun run(const BatchConfig& config, const std::string& input) {
    std::istringstream in(input);
    std::ostringstream out, diagnostics;
    BatchRun run;
    run.report = run_batch(config, in, out, diagnostics, "quarry");
    run.out = std::move(out).str();
    run.diagnostics = std::move(diagnostics).str();
    return run;
  }

  TempDir dir_;
};

// Each answer must be what Searcher gives for the same query, hit for hit.
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

TEST_F(BatchTest, JsonLinesAnswerEachQueryInInputOrderAsSearcherDoes) {
  struct Case {
    std::string name;
    std::size_t limit;
    std::size_t offset;
    std::size_t threads;
  };
  const std::vector<Case> cases = {
      {"defaults", 10, 0, 1},
      {"defaults, 3 threads", 10, 0, 3},
      {"limit 3 offset 2", 3, 2, 2},
      {"past the end", 10, 1000, 2},
  };
  const std::vector<std::string> queries = make_queries(60);
  Searcher searcher(db_path());
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    BatchConfig batch = config(c.threads);
    batch.search.limit = c.limit;
    batch.search.offset = c.offset;
    const BatchRun result = run(batch, join_lines(queries));
    const std::vector<json> answers = parse_lines(result.out);
    ASSERT_EQ(answers.size(), queries.size());
    for (std::size_t i = 0; i < answers.size(); ++i) {
      EXPECT_EQ(answers[i].at("qid"), std::to_string(i + 1));
      expect_same_as_search(answers[i], searcher, queries[i], batch.search);
    }
    EXPECT_EQ(result.report.queries, queries.size());
    EXPECT_EQ(result.report.failed, 0u);
    EXPECT_EQ(result.diagnostics, "");
  }
}

TEST_F(BatchTest, QidsComeFromTheLineOrItsNumber) {
  struct Case {
    std::string input;
    std::vector<std::pair<std::string, std::string>> expected;  // qid, query
  };
  const std::vector<Case> cases = {
      {"", {}},
      {"\n\n  \n\t\n", {}},
      {"penalty", {{"1", "penalty"}}},
      {"penalty\nkeeper\n", {{"1", "penalty"}, {"2", "keeper"}}},
      {"\npenalty\n\n\nkeeper\n", {{"2", "penalty"}, {"5", "keeper"}}},
      {"a7\tpenalty\nkeeper\n", {{"a7", "penalty"}, {"2", "keeper"}}},
      {"q 1\tpenalty keeper\n", {{"q 1", "penalty keeper"}}},
      {"penalty\r\nq2\tkeeper\r\n\r\nderby\r\n",
       {{"1", "penalty"}, {"q2", "keeper"}, {"4", "derby"}}},
      {"q1\t\"derby final\"\n", {{"q1", "\"derby final\""}}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(::testing::PrintToString(c.input));
    const BatchRun result = run(config(), c.input);
    const std::vector<json> answers = parse_lines(result.out);
    ASSERT_EQ(answers.size(), c.expected.size());
    for (std::size_t i = 0; i < answers.size(); ++i) {
      EXPECT_EQ(answers[i].at("qid"), c.expected[i].first);
      EXPECT_EQ(answers[i].at("query"), c.expected[i].second);
    }
    EXPECT_EQ(result.report.queries, c.expected.size());
  }
}

TEST_F(BatchTest, TrecRunIsWellFormed) {
  const std::vector<std::string> queries = make_queries(60);
  std::string input;
  for (std::size_t i = 0; i < queries.size(); ++i) {
    input += "T" + std::to_string(i) + "\t" + queries[i] + "\n";
  }
  BatchConfig batch = config(2);
  batch.format = OutputFormat::kTrec;
  batch.run_tag = "myrun";
  const BatchRun result = run(batch, input);

  Searcher searcher(db_path());
  std::size_t line = 0;
  const std::vector<std::string> lines = lines_of(result.out);
  for (std::size_t i = 0; i < queries.size(); ++i) {
    const SearchResult expected = searcher.search(queries[i], batch.search);
    double previous_score = 0;
    for (std::size_t rank = 1; rank <= expected.hits.size(); ++rank, ++line) {
      ASSERT_LT(line, lines.size());
      const std::vector<std::string> fields = split_on_spaces(lines[line]);
      ASSERT_EQ(fields.size(), 6u) << lines[line];
      EXPECT_EQ(fields[0], "T" + std::to_string(i)) << lines[line];
      EXPECT_EQ(fields[1], "Q0");
      EXPECT_EQ(fields[2], expected.hits[rank - 1].id);
      EXPECT_EQ(fields[3], std::to_string(rank));
      const double score = std::stod(fields[4]);
      if (rank > 1) {
        EXPECT_LE(score, previous_score) << lines[line];
      }
      previous_score = score;
      EXPECT_EQ(fields[5], "myrun");
    }
  }
  EXPECT_EQ(line, lines.size());
  EXPECT_EQ(result.report.queries, queries.size());
}

// TREC tools split lines on white space, so a qid holding a space must not
// make a seventh field, as ids with spaces do not.
TEST_F(BatchTest, TrecRunKeepsSixFieldsWhenTheQidHasSpaces) {
  BatchConfig batch = config();
  batch.format = OutputFormat::kTrec;
  const BatchRun result = run(batch, "topic 1\tpenalty\n");
  const std::vector<std::string> lines = lines_of(result.out);
  ASSERT_FALSE(lines.empty());
  for (const std::string& line : lines) EXPECT_EQ(split_on_spaces(line).size(), 6u) << line;
}

TEST_F(BatchTest, ThreadsDoNotChangeTheOutput) {
  std::vector<std::string> queries = make_queries(200);
  queries[37] = "penalty AND";  // an error answer must keep its place too
  const std::string input = join_lines(queries);
  for (OutputFormat format : {OutputFormat::kJson, OutputFormat::kTrec}) {
    BatchConfig one = config(1);
    one.search.parse = ParseMode::kStrict;
    one.format = format;
    const BatchRun expected = run(one, input);
    ASSERT_FALSE(expected.out.empty());
    for (std::size_t threads : {2u, 4u}) {
      BatchConfig many = one;
      many.threads = threads;
      const BatchRun actual = run(many, input);
      EXPECT_EQ(actual.out, expected.out) << threads << " threads";
      EXPECT_EQ(actual.diagnostics, expected.diagnostics) << threads << " threads";
      EXPECT_EQ(actual.report.queries, 200u);
      EXPECT_EQ(actual.report.failed, 1u);
    }
  }
}

TEST_F(BatchTest, TimingsAddTookMs) {
  BatchConfig batch = config(2);
  batch.timings = true;
  const std::vector<std::string> queries = make_queries(20);
  for (const json& answer : parse_lines(run(batch, join_lines(queries)).out)) {
    ASSERT_TRUE(answer.contains("took_ms")) << answer.dump();
    ASSERT_TRUE(answer.at("took_ms").is_number()) << answer.dump();
    EXPECT_GE(answer.at("took_ms").get<double>(), 0.0);
  }
  batch.timings = false;
  for (const json& answer : parse_lines(run(batch, join_lines(queries)).out)) {
    EXPECT_FALSE(answer.contains("took_ms")) << answer.dump();
  }
}

TEST_F(BatchTest, BadQueryIsSearchedAsWordsWithAWarningField) {
  Searcher searcher(db_path());
  const BatchRun result = run(config(2), "q1\tpenalty\nq2\t(penalty\nq3\tgoal\n");
  const std::vector<json> answers = parse_lines(result.out);
  ASSERT_EQ(answers.size(), 3u);
  EXPECT_EQ(answers[1].at("qid"), "q2");
  EXPECT_FALSE(answers[1].contains("error"));
  EXPECT_EQ(answers[1].at("warnings"),
            json::parse(R"(["'(' is never closed (column 1); searched as plain words"])"));
  EXPECT_EQ(answers[1].at("hits"), parse_lines(run(config(), "penalty\n").out).at(0).at("hits"));
  EXPECT_EQ(result.report.failed, 0u);
  EXPECT_EQ(result.diagnostics, "");
}

TEST_F(BatchTest, StrictBadQueryYieldsAnErrorObjectAndOneDiagnostic) {
  const std::vector<std::string> bad = {"(penalty", "penalty AND", "NOT", ")"};
  Searcher searcher(db_path());
  BatchConfig strict = config(2);
  strict.search.parse = ParseMode::kStrict;
  for (const std::string& query : bad) {
    SCOPED_TRACE(query);
    const std::string input =
        "q1\tpenalty\nq2\tkeeper derby\nq3\t" + query + "\nq4\t\"derby final\"\nq5\tgoal\n";
    const BatchRun result = run(strict, input);
    const std::vector<json> answers = parse_lines(result.out);
    ASSERT_EQ(answers.size(), 5u);
    const std::vector<std::string> good = {"penalty", "keeper derby", "", "\"derby final\"",
                                           "goal"};
    for (std::size_t i = 0; i < answers.size(); ++i) {
      EXPECT_EQ(answers[i].at("qid"), "q" + std::to_string(i + 1));
      if (i != 2) expect_same_as_search(answers[i], searcher, good[i], {});
    }
    const json& error = answers[2];
    EXPECT_EQ(error.at("query"), query);
    ASSERT_TRUE(error.contains("error"));
    EXPECT_TRUE(error.at("error").is_string());
    EXPECT_FALSE(error.at("error").get<std::string>().empty());
    EXPECT_FALSE(error.contains("hits"));
    EXPECT_EQ(result.report.queries, 5u);
    EXPECT_EQ(result.report.failed, 1u);
    const std::vector<std::string> diagnostics = lines_of(result.diagnostics);
    ASSERT_EQ(diagnostics.size(), 1u) << result.diagnostics;
    EXPECT_EQ(diagnostics[0].rfind("quarry: ", 0), 0u) << diagnostics[0];
    EXPECT_NE(diagnostics[0].find("q3"), std::string::npos) << diagnostics[0];
  }
}

TEST_F(BatchTest, StrictBadQueryWritesNothingInTrec) {
  BatchConfig batch = config();
  batch.format = OutputFormat::kTrec;
  batch.search.parse = ParseMode::kStrict;
  const BatchRun result = run(batch, "q1\tpenalty\nq2\t(penalty\nq3\tgoal\n");
  for (const std::string& line : lines_of(result.out)) {
    EXPECT_NE(split_on_spaces(line).at(0), "q2") << line;
  }
  EXPECT_EQ(result.report.failed, 1u);
  EXPECT_EQ(lines_of(result.diagnostics).size(), 1u);
}

TEST_F(BatchTest, NoSnippetsLeavesSnippetsEmpty) {
  BatchConfig batch = config(2);
  batch.search.snippets.enabled = false;
  std::size_t hits = 0;
  for (const json& answer : parse_lines(run(batch, join_lines(make_queries(30))).out)) {
    for (const json& hit : answer.at("hits")) {
      EXPECT_EQ(hit.at("snippet"), "");
      EXPECT_TRUE(hit.at("highlights").empty());
      ++hits;
    }
  }
  EXPECT_GT(hits, 0u);
}

TEST_F(BatchTest, MissingIndexThrows) {
  BatchConfig batch = config();
  batch.db_paths = {(dir_ / "nothing-here").string()};
  EXPECT_THROW(run(batch, "penalty\n"), IndexNotFoundError);
}

// Hands out "q<n>\t<query>" lines one at a time (every 50th line blank),
// counting the queries it has handed out.
class QuerySource : public std::streambuf {
 public:
  explicit QuerySource(std::size_t lines) : lines_(lines), queries_(make_queries(97)) {}
  std::size_t queries_served() const { return queries_served_; }

 protected:
  int_type underflow() override {
    if (served_ == lines_) return traits_type::eof();
    if (served_ % 50 == 49) {
      line_ = "\n";
    } else {
      line_ = "q" + std::to_string(served_) + "\t" + queries_[served_ % queries_.size()] + "\n";
      ++queries_served_;
    }
    ++served_;
    setg(line_.data(), line_.data(), line_.data() + line_.size());
    return traits_type::to_int_type(line_[0]);
  }

 private:
  const std::size_t lines_;
  const std::vector<std::string> queries_;
  std::string line_;
  std::size_t served_ = 0;
  std::atomic<std::size_t> queries_served_ = 0;
};

// Checks each line written as it arrives: the qids follow the input, and
// few input lines have been read ahead of the answers written.
class AnswerSink : public std::streambuf {
 public:
  explicit AnswerSink(const QuerySource& source) : source_(source) {}
  std::size_t answers() const { return answers_; }
  std::size_t most_ahead() const { return most_ahead_; }
  std::size_t served_at_first_answer() const { return served_at_first_answer_; }
  std::size_t out_of_order() const { return out_of_order_; }

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    if (traits_type::to_char_type(c) != '\n') {
      line_.push_back(traits_type::to_char_type(c));
      return c;
    }
    if (answers_ == 0) served_at_first_answer_ = source_.queries_served();
    if (next_line_ % 50 == 49) ++next_line_;
    const std::string qid = json::parse(line_).at("qid").get<std::string>();
    if (qid != "q" + std::to_string(next_line_)) ++out_of_order_;
    ++next_line_;
    ++answers_;
    most_ahead_ = std::max(most_ahead_, source_.queries_served() - answers_);
    line_.clear();
    return c;
  }

 private:
  const QuerySource& source_;
  std::string line_;
  std::size_t next_line_ = 0;
  std::size_t answers_ = 0;
  std::size_t most_ahead_ = 0;
  std::size_t served_at_first_answer_ = 0;
  std::size_t out_of_order_ = 0;
};

TEST_F(BatchTest, LongInputStreamsInOrderWithFewQueriesInFlight) {
  constexpr std::size_t kLines = 20000;
  constexpr std::size_t kBlank = kLines / 50;
  QuerySource source(kLines);
  AnswerSink sink(source);
  std::istream in(&source);
  std::ostream out(&sink);
  std::ostringstream diagnostics;
  BatchConfig batch = config(2);
  batch.search.snippets.enabled = false;
  batch.search.limit = 3;
  const BatchReport report = run_batch(batch, in, out, diagnostics, "quarry");
  EXPECT_EQ(report.queries, kLines - kBlank);
  EXPECT_EQ(report.failed, 0u);
  EXPECT_EQ(sink.answers(), kLines - kBlank);
  EXPECT_EQ(sink.out_of_order(), 0u);
  EXPECT_LT(sink.served_at_first_answer(), 100u);
  EXPECT_LE(sink.most_ahead(), 16 * batch.threads);
}

TEST_F(BatchTest, TextAnswersAreHeadedByTheirQueryAndSetApart) {
  const std::vector<std::string> queries = make_queries(12);
  std::string input = "q0\t(" + queries[0] + "\n";
  for (std::size_t i = 1; i < queries.size(); ++i) input += queries[i] + "\n";
  Searcher searcher(db_path());
  std::string expected;
  for (std::size_t i = 0; i < queries.size(); ++i) {
    const std::string query = i == 0 ? "(" + queries[0] : queries[i];
    if (i > 0) expected += "\n";
    expected +=
        "Query " + (i == 0 ? std::string("q0") : std::to_string(i + 1)) + ": " + query + "\n";
    std::ostringstream text;
    TextPrinter(text, TextStyle{}).answer(searcher.search(query), {});
    expected += text.str();
  }
  for (std::size_t threads : {1, 3}) {
    BatchConfig batch = config(threads);
    batch.format = OutputFormat::kText;
    const BatchRun result = run(batch, input);
    EXPECT_EQ(result.out, expected) << threads << " threads";
    EXPECT_EQ(result.report.queries, queries.size());
    // The query that could not be parsed was searched as words, as said.
    EXPECT_TRUE(result.diagnostics.starts_with("quarry: qid q0: warning: '(' is never closed"))
        << result.diagnostics;
    EXPECT_EQ(lines_of(result.diagnostics).size(), 1u) << result.diagnostics;
  }
  BatchConfig strict = config();
  strict.format = OutputFormat::kText;
  strict.search.parse = ParseMode::kStrict;
  const BatchRun refused = run(strict, "penalty AND\n");
  EXPECT_EQ(refused.out,
            "Query 1: penalty AND\nerror: query \"penalty AND\": AND needs words on both sides "
            "(column 9)\n");
  EXPECT_EQ(refused.report.failed, 1u);
  EXPECT_EQ(lines_of(refused.diagnostics).size(), 1u) << refused.diagnostics;
}

// Serves its lines one read at a time, noting what had been written to
// `out` when each line was asked for.
class LineByLine : public std::streambuf {
 public:
  LineByLine(std::vector<std::string> lines, const std::ostringstream& out)
      : lines_(std::move(lines)), out_(out) {}

  // What `out` held when each line was read.
  const std::vector<std::string>& written_before() const { return written_before_; }

 protected:
  int_type underflow() override {
    if (next_ == lines_.size()) return traits_type::eof();
    written_before_.push_back(out_.str());
    current_ = lines_[next_++];
    setg(current_.data(), current_.data(), current_.data() + current_.size());
    return traits_type::to_int_type(current_[0]);
  }

 private:
  std::vector<std::string> lines_;
  const std::ostringstream& out_;
  std::size_t next_ = 0;
  std::string current_;
  std::vector<std::string> written_before_;
};

// A program that writes a query and waits for its answer gets it before
// it writes the next.
TEST_F(BatchTest, EachLineIsAnsweredBeforeTheNextIsRead) {
  const std::vector<std::string> queries = {"penalty\n", "keeper\n", "derby final\n"};
  for (OutputFormat format : {OutputFormat::kJson, OutputFormat::kText, OutputFormat::kTrec}) {
    BatchConfig batch = config();
    batch.format = format;
    std::ostringstream out, diagnostics;
    LineByLine lines(queries, out);
    std::istream in(&lines);
    Searcher searcher(db_path());
    const BatchReport report = answer_each_line(searcher, batch, in, out, diagnostics, "quarry");
    EXPECT_EQ(report.queries, queries.size());
    ASSERT_EQ(lines.written_before().size(), queries.size());
    EXPECT_EQ(lines.written_before()[0], "");
    for (std::size_t i = 1; i < queries.size(); ++i) {
      EXPECT_GT(lines.written_before()[i].size(), lines.written_before()[i - 1].size()) << i;
    }
    // The same answers as a batch run.
    EXPECT_EQ(out.str(), run(batch, queries[0] + queries[1] + queries[2]).out);
  }
}

class BatchCli : public BatchTest {
 protected:
  testing::RunResult quarry(std::vector<std::string> args, const std::string& input = "") {
    args.insert(args.begin(), {"--db", db_path()});
    return run_program(QUARRY_BIN, args, input);
  }
};

TEST_F(BatchCli, AnswersStandardInput) {
  const std::vector<std::string> queries = make_queries(30);
  const auto result = quarry({"--batch", "-", "-j", "2", "--no-timings"}, join_lines(queries));
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.err, "");
  const std::vector<json> answers = parse_lines(result.out);
  ASSERT_EQ(answers.size(), queries.size());
  Searcher searcher(db_path());
  for (std::size_t i = 0; i < answers.size(); ++i) {
    EXPECT_EQ(answers[i].at("qid"), std::to_string(i + 1));
    expect_same_as_search(answers[i], searcher, queries[i], {});
  }
}

// The batch's options, --recency and --as-of among them, rank every query.
TEST_F(BatchCli, RecencyRanksEveryQuery) {
  testing::index_articles(dir_, testing::recency_articles());
  const auto ids = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"--db", testing::index_path(dir_), "--batch", "-", "--no-timings"});
    const auto result = run_program(QUARRY_BIN, args, "q1\tlighthouse\nq2\tkeepers\n");
    EXPECT_EQ(result.exit_code, 0) << result.err;
    std::vector<std::vector<std::string>> ranked;
    for (const json& answer : parse_lines(result.out)) {
      ranked.emplace_back();
      for (const json& hit : answer.at("hits")) ranked.back().push_back(hit.at("id"));
    }
    return ranked;
  };
  const std::vector<std::string> old_first{"lighthouse-old", "lighthouse-new"};
  const std::vector<std::string> new_first{"lighthouse-new", "lighthouse-old"};
  EXPECT_EQ(ids({}), (std::vector<std::vector<std::string>>{old_first, old_first}));
  EXPECT_EQ(ids({"--recency", "7d", "--as-of", "2024-05-01"}),
            (std::vector<std::vector<std::string>>{new_first, new_first}));
}

TEST_F(BatchCli, ReadsAFileAndWritesTrec) {
  write_file(dir_ / "queries.tsv", "q1\tpenalty\nq2\tkeeper\n");
  const auto result =
      quarry({"--batch", (dir_ / "queries.tsv").string(), "--format", "trec", "-n", "3"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  const std::vector<std::string> lines = lines_of(result.out);
  EXPECT_FALSE(lines.empty());
  EXPECT_LE(lines.size(), 6u);
  for (const std::string& line : lines) {
    const std::vector<std::string> fields = split_on_spaces(line);
    ASSERT_EQ(fields.size(), 6u) << line;
    EXPECT_EQ(fields[1], "Q0");
    EXPECT_EQ(fields[5], "quarry");
  }
}

TEST_F(BatchCli, StrictExitsTwoWhenAQueryFails) {
  const std::string input = "q1\tpenalty\nq2\t(penalty\nq3\tgoal\n";
  const auto forgiving = quarry({"--batch", "-", "--no-timings"}, input);
  EXPECT_EQ(forgiving.exit_code, 0) << forgiving.err;
  EXPECT_EQ(parse_lines(forgiving.out).at(1).at("warnings").size(), 1u);
  const auto result = quarry({"--batch", "-", "--no-timings", "--strict"}, input);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(parse_lines(result.out).size(), 3u);
  const std::vector<std::string> errors = lines_of(result.err);
  ASSERT_EQ(errors.size(), 1u) << result.err;
  EXPECT_EQ(errors[0].rfind("quarry: ", 0), 0u) << errors[0];
  EXPECT_NE(errors[0].find("q2"), std::string::npos) << errors[0];
}

TEST_F(BatchCli, TrecWithoutBatchIsAUsageError) {
  const auto result = quarry({"--format", "trec", "penalty"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.out, "");
  EXPECT_NE(result.err.find("--batch"), std::string::npos) << result.err;
}

TEST_F(BatchCli, MissingBatchFileIsNamed) {
  const std::string missing = (dir_ / "no-such-queries.tsv").string();
  const auto result = quarry({"--batch", missing});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.out, "");
  EXPECT_NE(result.err.find(missing), std::string::npos) << result.err;
  EXPECT_EQ(result.err.rfind("quarry: ", 0), 0u) << result.err;
}

TEST_F(BatchCli, MissingIndexExitsOne) {
  const auto result = run_program(
      QUARRY_BIN, {"--db", (dir_ / "nothing-here").string(), "--batch", "-"}, "penalty\n");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.out, "");
  EXPECT_NE(result.err.find("nothing-here"), std::string::npos) << result.err;
}

}  // namespace
}  // namespace quarry
