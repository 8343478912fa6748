// What the programs' --help says: the default index as the variables that
// locate it, and quarry-index's examples.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tests/child_process.h"
#include "tests/test_util.h"

namespace quarry::testing {
namespace {

// The long option a word names ("--db", "--wait=60" gives --wait), or "".
std::string long_option(std::string_view word) {
  if (word.rfind("--", 0) != 0) return "";
  const std::size_t end = word.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-", 2);
  return std::string(word.substr(0, end));
}

// The long options a --help lists ("  -n,--limit N ..." gives --limit).
std::set<std::string> listed_options(const std::string& help) {
  std::set<std::string> options;
  for (const std::string& line : lines_of(help)) {
    if (line.rfind("  -", 0) != 0) continue;
    std::string_view rest = std::string_view(line).substr(2);
    if (rest.size() > 3 && rest[0] == '-' && rest[1] != '-' && rest[2] == ',')
      rest.remove_prefix(3);
    const std::string option = long_option(rest);
    if (option.size() > 2) options.insert(option);
  }
  return options;
}

// The programs' helps: a program and its arguments.
const std::vector<std::pair<std::string, std::vector<std::string>>> kHelps{
    {QUARRY_BIN, {"--help"}}, {QUARRY_BIN, {"serve", "--help"}}, {QUARRY_INDEX_BIN, {"--help"}}};

// The help is the same for every user and in every package, so it names the
// default index by the variables that locate it, never by the path they
// give for whoever runs (or built) the program.
TEST(HelpTest, DefaultIndexIsNamedByItsVariablesNotExpanded) {
  const std::vector<std::string> env{"HOME=/home/somebody-else",
                                     "XDG_DATA_HOME=/srv/somebody-else/data",
                                     "QUARRY_DB=/srv/somebody-else/index"};
  for (const auto& [program, args] : kHelps) {
    RunResult result = run_program(program, args, "", env);
    ASSERT_EQ(result.exit_code, 0) << program << ' ' << args.front() << ": " << result.err;
    EXPECT_NE(result.out.find("$XDG_DATA_HOME/quarry/index"), std::string::npos) << result.out;
    EXPECT_EQ(result.out.find("somebody-else"), std::string::npos) << result.out;
  }
}

// Each option's value is named as a person would name it ("N", "SECONDS",
// "text|json|trec"), never by CLI11's C++ types and checks ("UINT:INT in
// [0 - 1048576]", "FLOAT:NONNEGATIVE", "--wait{3600}").
TEST(HelpTest, OptionValuesAreNamedCleanly) {
  for (const auto& [program, args] : kHelps) {
    RunResult result = run_program(program, args);
    ASSERT_EQ(result.exit_code, 0) << program << ' ' << args.front() << ": " << result.err;
    std::size_t checked = 0;
    for (const std::string& line : lines_of(result.out)) {
      if (line.rfind("  -", 0) != 0) continue;
      // "  -n,--limit N    Hits per query": the names, a value, two spaces.
      const std::string names_and_value = line.substr(2, line.find("  ", 2) - 2);
      std::istringstream words(names_and_value);
      std::string names, value, more;
      words >> names >> value >> more;
      EXPECT_EQ(line.find_first_of("{}"), std::string::npos) << line;
      // A value that may be left out: "--wait[=SECONDS]".
      if (names.ends_with("]")) names.erase(names.find("[="));
      EXPECT_EQ(names.find_first_of("[]:="), std::string::npos) << line;
      EXPECT_EQ(more, "") << "one word names the value: " << line;
      const bool upper =
          !value.empty() &&
          value.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ:[=]") == std::string::npos;
      const bool choices =
          value.find('|') != std::string::npos &&
          value.find_first_not_of("abcdefghijklmnopqrstuvwxyz|-") == std::string::npos;
      EXPECT_TRUE(value.empty() || upper || choices) << line;
      for (const char* garbage : {"UINT", "FLOAT", "TEXT", "INT in", "NONNEGATIVE", "POSITIVE"}) {
        EXPECT_EQ(line.find(garbage), std::string::npos) << line;
      }
      ++checked;
    }
    EXPECT_GT(checked, 5u) << result.out;
  }
}

// Each section of a help ("Options:", "Exit codes:") starts after a blank
// line, so that it reads apart from the paragraph before it.
TEST(HelpTest, SectionsAreSetApartByBlankLines) {
  for (const auto& [program, args] : kHelps) {
    RunResult result = run_program(program, args);
    ASSERT_EQ(result.exit_code, 0) << program << ' ' << args.front() << ": " << result.err;
    const std::vector<std::string> lines = lines_of(result.out);
    std::size_t sections = 0;
    for (std::size_t i = 1; i < lines.size(); ++i) {
      const bool heading = !lines[i].empty() && lines[i][0] != ' ' && lines[i].ends_with(":");
      if (!heading) continue;
      ++sections;
      EXPECT_EQ(lines[i - 1], "") << lines[i] << " follows [" << lines[i - 1] << "]";
    }
    EXPECT_GE(sections, 2u) << result.out;
  }
}

// Each example is a quarry-index command line, with options the program has.
TEST(HelpTest, IndexerHelpShowsExamplesOfItsOwnOptions) {
  RunResult result = run_program(QUARRY_INDEX_BIN, {"--help"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const std::set<std::string> options = listed_options(result.out);
  ASSERT_TRUE(options.count("--db")) << result.out;

  const std::vector<std::string> lines = lines_of(result.out);
  auto examples = std::find(lines.begin(), lines.end(), "Examples:");
  ASSERT_NE(examples, lines.end()) << result.out;
  std::size_t commands = 0;
  std::set<std::string> used;
  for (auto line = examples + 1; line != lines.end() && !line->empty(); ++line) {
    if (line->rfind("  quarry-index ", 0) != 0) continue;
    ++commands;
    std::istringstream words(*line);
    std::string word;
    while (words >> word) {
      const std::string name = long_option(word);
      if (name.empty()) continue;
      EXPECT_TRUE(options.count(name)) << "example uses " << name << ": " << *line;
      used.insert(name);
    }
  }
  EXPECT_GE(commands, 5u) << result.out;
  EXPECT_GE(used.size(), 3u) << result.out;
}

// The live index is documented where a person looks: its options, the
// standard input as a PATH, a gzipped corpus indexed once, and how SIGTERM
// ends it.
TEST(HelpTest, IndexerHelpTellsHowToRunALiveIndex) {
  RunResult result = run_program(QUARRY_INDEX_BIN, {"--help"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const std::set<std::string> options = listed_options(result.out);
  EXPECT_TRUE(options.count("--watch")) << result.out;
  EXPECT_TRUE(options.count("--commit-interval")) << result.out;
  for (const char* told : {"- reads JSON Lines from standard input", "SIGTERM",
                           ".jsonl.gz corpus is indexed once, not followed",
                           "with --watch, SIGINT or SIGTERM ends the"}) {
    EXPECT_NE(result.out.find(told), std::string::npos) << told << " in " << result.out;
  }
}

}  // namespace
}  // namespace quarry::testing
