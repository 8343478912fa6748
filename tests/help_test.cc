// What the programs' --help says: the default index as the variables that
// locate it, and quarry-index's examples.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "tests/child_process.h"
#include "tests/test_util.h"

namespace quarry::testing {
namespace {

// The long options a --help lists ("  -n,--limit UINT ..." gives --limit).
std::set<std::string> listed_options(const std::string& help) {
  std::set<std::string> options;
  const std::regex option(R"(^  (?:-[a-zA-Z],)?(--[a-z][-a-z0-9]*))");
  for (const std::string& line : lines_of(help)) {
    std::smatch match;
    if (std::regex_search(line, match, option)) options.insert(match[1]);
  }
  return options;
}

// The help is the same for every user and in every package, so it names the
// default index by the variables that locate it, never by the path they
// give for whoever runs (or built) the program.
TEST(HelpTest, DefaultIndexIsNamedByItsVariablesNotExpanded) {
  const std::vector<std::string> env{"HOME=/home/somebody-else",
                                     "XDG_DATA_HOME=/srv/somebody-else/data",
                                     "QUARRY_DB=/srv/somebody-else/index"};
  const std::vector<std::pair<std::string, std::vector<std::string>>> helps{
      {QUARRY_BIN, {"--help"}}, {QUARRY_BIN, {"serve", "--help"}}, {QUARRY_INDEX_BIN, {"--help"}}};
  for (const auto& [program, args] : helps) {
    RunResult result = run_program(program, args, "", env);
    ASSERT_EQ(result.exit_code, 0) << program << ' ' << args.front() << ": " << result.err;
    EXPECT_NE(result.out.find("$XDG_DATA_HOME/quarry/index"), std::string::npos) << result.out;
    EXPECT_EQ(result.out.find("somebody-else"), std::string::npos) << result.out;
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
    const std::regex option(R"( (--[a-z][-a-z0-9]*))");
    for (std::sregex_iterator it(line->begin(), line->end(), option), end; it != end; ++it) {
      const std::string name = (*it)[1];
      EXPECT_TRUE(options.count(name)) << "example uses " << name << ": " << *line;
      used.insert(name);
    }
  }
  EXPECT_GE(commands, 5u) << result.out;
  EXPECT_GE(used.size(), 3u) << result.out;
}

}  // namespace
}  // namespace quarry::testing
