#include "app/common/session.h"

#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "app/terminal/prompt.h"
#include "quarry/index/index_writer.h"
#include "tests/test_util.h"

namespace quarry {
namespace {

using testing::lines_of;
using testing::TempDir;
using testing::write_file;

constexpr char kProgram[] = "quarry";

// A few articles, indexed once for the suite's tests, which only read them.
class SessionTest : public testing::SharedIndexTest {
 protected:
  static void SetUpTestSuite() {
    const auto articles = suite_dir() / "articles";
    write_file(articles / "mourinho.txt",
               "Mourinho leaves United\n\nJosé Mourinho left Manchester United after the derby "
               "defeat at Old Trafford.");
    write_file(articles / "guardiola.txt",
               "Guardiola praises squad\n\nPep Guardiola praised his squad after City won the "
               "derby 2-1.");
    write_file(articles / "cafe.txt", "Café by the ground\n\nA café near the stadium sells tea.");
    ASSERT_EQ(index_suite_paths({articles.string()}).added, 3u);
  }

  Answer answer(std::string_view query, const SessionConfig& config = {}) {
    return answer_query(searcher(), query, config, out_, diagnostics_, kProgram);
  }

  std::size_t answer_all(const std::string& input, const SessionConfig& config = {}) {
    std::istringstream in(input);
    return answer_lines(searcher(), in, config, out_, diagnostics_, kProgram);
  }

  static SessionConfig json_config() {
    SessionConfig config;
    config.format = OutputFormat::kJson;
    return config;
  }

  // Queries that cannot be parsed are refused, as these tests expect.
  static SessionConfig strict_config() {
    SessionConfig config;
    config.search.parse = ParseMode::kStrict;
    return config;
  }

  std::ostringstream out_;
  std::ostringstream diagnostics_;
};

TEST_F(SessionTest, GoodQueryWritesItsHits) {
  EXPECT_EQ(answer("mourinho"), Answer::kAnswered);
  const std::string out = out_.str();
  EXPECT_TRUE(out.starts_with("1 article matches\n1. Mourinho leaves United  [")) << out;
  EXPECT_NE(out.find("   mourinho.txt · en\n"), std::string::npos) << out;
  EXPECT_NE(out.find("José Mourinho left"), std::string::npos) << out;
  EXPECT_EQ(out.find("Guardiola"), std::string::npos) << out;
  EXPECT_EQ(out.find('\x1b'), std::string::npos) << out;
  EXPECT_EQ(diagnostics_.str(), "");
}

TEST_F(SessionTest, DanglingOperatorIsDroppedWithOneWarning) {
  EXPECT_EQ(answer("Mourinho AND"), Answer::kAnswered);
  EXPECT_TRUE(out_.str().starts_with("1 article matches\n1. Mourinho leaves United")) << out_.str();
  EXPECT_EQ(diagnostics_.str(),
            "quarry: warning: AND needs words on both sides (column 10); searched without it\n");

  out_.str("");
  diagnostics_.str("");
  EXPECT_EQ(answer("Mourinho AND", json_config()), Answer::kAnswered);
  EXPECT_EQ(diagnostics_.str(), "");
  const nlohmann::json result = nlohmann::json::parse(out_.str());
  EXPECT_EQ(result.at("warnings"),
            nlohmann::json::parse(
                R"(["AND needs words on both sides (column 10); searched without it"])"));
  EXPECT_EQ(result.at("total"), 1);
}

TEST_F(SessionTest, ColorComesFromTheConfig) {
  SessionConfig config;
  config.style.color = true;
  EXPECT_EQ(answer("mourinho", config), Answer::kAnswered);
  EXPECT_NE(out_.str().find('\x1b'), std::string::npos) << out_.str();
}

TEST_F(SessionTest, NoHitsIsAnAnswer) {
  EXPECT_EQ(answer("zidane"), Answer::kAnswered);
  EXPECT_EQ(out_.str(), "No articles match.\n");
  EXPECT_EQ(diagnostics_.str(), "");
}

TEST_F(SessionTest, StrictBadQueryIsOneDiagnosticLineWithTheColumn) {
  struct Case {
    std::string query;
    std::size_t column;
  };
  const std::vector<Case> cases = {
      {"Mourinho AND", 10}, {"café AND", 6}, {"OR derby", 1},
      {"(derby", 1},        {"derby)", 6},   {"derby NOT", 7},
  };
  for (const Case& c : cases) {
    out_.str("");
    diagnostics_.str("");
    EXPECT_EQ(answer(c.query, strict_config()), Answer::kBadQuery) << c.query;
    EXPECT_EQ(out_.str(), "") << c.query;
    const std::vector<std::string> lines = lines_of(diagnostics_.str());
    ASSERT_EQ(lines.size(), 1u) << c.query << ": " << diagnostics_.str();
    EXPECT_TRUE(diagnostics_.str().ends_with("\n")) << c.query;
    EXPECT_TRUE(lines[0].starts_with("quarry: ")) << lines[0];
    EXPECT_NE(lines[0].find("column " + std::to_string(c.column)), std::string::npos) << lines[0];
  }
}

TEST_F(SessionTest, NotesGoToDiagnosticsAndJson) {
  EXPECT_EQ(answer("\"derby defeat", json_config()), Answer::kAnswered);
  const std::vector<std::string> notes = lines_of(diagnostics_.str());
  ASSERT_EQ(notes.size(), 1u) << diagnostics_.str();
  EXPECT_TRUE(notes[0].starts_with("quarry: note: ")) << notes[0];
  EXPECT_NE(notes[0].find("column 1"), std::string::npos) << notes[0];
  const nlohmann::json json = nlohmann::json::parse(out_.str());
  ASSERT_TRUE(json.contains("notes")) << out_.str();
  EXPECT_EQ(json["notes"].size(), 1u);
  ASSERT_EQ(json["hits"].size(), 1u) << out_.str();
  EXPECT_EQ(json["hits"][0]["id"], "mourinho.txt");
}

TEST_F(SessionTest, JsonAnswerParsesBack) {
  EXPECT_EQ(answer("CAFE", json_config()), Answer::kAnswered);
  const std::string out = out_.str();
  EXPECT_EQ(out.find('\n'), out.size() - 1) << "one line: " << out;
  const nlohmann::json json = nlohmann::json::parse(out);
  EXPECT_EQ(json["query"], "CAFE");
  EXPECT_EQ(json["total"], 1);
  EXPECT_FALSE(json.contains("notes"));
  ASSERT_EQ(json["hits"].size(), 1u);
  const nlohmann::json& hit = json["hits"][0];
  EXPECT_EQ(hit["rank"], 1);
  EXPECT_EQ(hit["id"], "cafe.txt");
  EXPECT_EQ(hit["title"], "Café by the ground");
  EXPECT_GT(hit["score"].get<double>(), 0);
  EXPECT_EQ(hit["snippet"], "A café near the stadium sells tea.");
  EXPECT_EQ(hit["highlights"], nlohmann::json::parse("[[2, 6]]"));
}

TEST_F(SessionTest, AnswerLinesAnswersEachQueryAndCountsBadOnes) {
  EXPECT_EQ(answer_all("mourinho\n\nbad AND\nguardiola\n", strict_config()), 1u);
  const std::string out = out_.str();
  const std::size_t first = out.find("Mourinho leaves United");
  const std::size_t second = out.find("Guardiola praises squad");
  EXPECT_NE(first, std::string::npos) << out;
  EXPECT_NE(second, std::string::npos) << out;
  EXPECT_LT(first, second) << out;
  const std::vector<std::string> diagnostics = lines_of(diagnostics_.str());
  ASSERT_EQ(diagnostics.size(), 1u) << diagnostics_.str();
  EXPECT_TRUE(diagnostics[0].starts_with("quarry: ")) << diagnostics[0];
  EXPECT_NE(diagnostics[0].find("column 5"), std::string::npos) << diagnostics[0];
}

TEST_F(SessionTest, TextAnswersAreSeparatedByOneBlankLine) {
  struct Case {
    std::string input;
    std::size_t bad;
  };
  const std::vector<Case> cases = {
      {"mourinho\nguardiola\n", 0},
      {"mourinho\n\n\nguardiola\n", 0},
      {"mourinho\nbad AND\nguardiola\n", 1},
      {"bad AND\nmourinho\nguardiola\n", 1},
  };
  for (const Case& c : cases) {
    out_.str("");
    EXPECT_EQ(answer_all(c.input, strict_config()), c.bad) << c.input;
    const std::string out = out_.str();
    // A bad query writes nothing to `out`: no blank line of its own either.
    EXPECT_FALSE(out.starts_with("\n")) << c.input << "--->\n" << out;
    EXPECT_EQ(out.find("\n\n\n"), std::string::npos) << c.input << "--->\n" << out;
    const std::size_t separator = out.find("\n\n1 article matches\n1. ");
    EXPECT_NE(separator, std::string::npos) << c.input << "--->\n" << out;
    EXPECT_EQ(out.find("\n\n1 article matches\n1. ", separator + 1), std::string::npos)
        << c.input << "--->\n"
        << out;
  }
}

TEST_F(SessionTest, JsonLinesAnswerOneLineEach) {
  struct Case {
    std::string name;
    std::string input;
    std::vector<std::string> queries;  // answered, in order
    std::vector<std::size_t> totals;
    std::size_t bad;
  };
  const std::vector<Case> cases = {
      {"mixed",
       "mourinho\n\nbad AND\nguardiola\nzidane\n",
       {"mourinho", "guardiola", "zidane"},
       {1, 1, 0},
       1},
      {"no final newline", "derby", {"derby"}, {2}, 0},
      {"empty input", "", {}, {}, 0},
      {"blank lines only", "\n  \n\t\n", {}, {}, 0},
      {"all bad", "bad AND\n(oops\n", {}, {}, 2},
  };
  SessionConfig strict = json_config();
  strict.search.parse = ParseMode::kStrict;
  for (const Case& c : cases) {
    out_.str("");
    diagnostics_.str("");
    EXPECT_EQ(answer_all(c.input, strict), c.bad) << c.name;
    EXPECT_EQ(lines_of(diagnostics_.str()).size(), c.bad) << c.name;
    std::vector<std::string> queries;
    std::vector<std::size_t> totals;
    for (const std::string& line : lines_of(out_.str())) {
      nlohmann::json json;
      ASSERT_NO_THROW(json = nlohmann::json::parse(line)) << c.name << ": " << line;
      queries.push_back(json["query"]);
      totals.push_back(json["total"]);
    }
    EXPECT_EQ(queries, c.queries) << c.name;
    EXPECT_EQ(totals, c.totals) << c.name;
  }
}

// A query file saved with Windows line ends must be read as the same
// queries: the "\r" is part of the line end, not of the query.
TEST_F(SessionTest, CrlfLineEndsAreNotPartOfTheQuery) {
  EXPECT_EQ(answer_all("mourinho\r\n\r\nguardiola\r\n", json_config()), 0u);
  std::vector<std::string> queries;
  for (const std::string& line : lines_of(out_.str())) {
    queries.push_back(nlohmann::json::parse(line)["query"]);
  }
  EXPECT_EQ(queries, (std::vector<std::string>{"mourinho", "guardiola"}));
}

}  // namespace
}  // namespace quarry
