// An option's value is read and checked once, by the option table's
// checker (app/common/option_reader.h), whichever front end it came from:
// the command line, the HTTP API and the prompt take the same values and
// refuse the others in the checker's own words.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "app/common/http_query.h"
#include "app/common/option_reader.h"
#include "app/common/value_parsers.h"
#include "tests/child_process.h"
#include "tests/test_util.h"

namespace quarry {
namespace {

using testing::lines_of;
using testing::run_program;
using testing::RunResult;

TEST(ValueParsers, WholeNumbersAreDigitsAlone) {
  EXPECT_EQ(parse_whole_number("0"), 0u);
  EXPECT_EQ(parse_whole_number("007"), 7u);
  EXPECT_EQ(parse_whole_number("18446744073709551615"), SIZE_MAX);
  for (const char* text : {"", "-1", "+1", " 1", "1 ", "1.0", "1e3", "0x10", "3x",
                           "18446744073709551616", "99999999999999999999999"}) {
    EXPECT_EQ(parse_whole_number(text), std::nullopt) << text;
  }
  EXPECT_TRUE(is_digits("99999999999999999999999"));
  EXPECT_FALSE(is_digits(""));
}

TEST(ValueParsers, DecimalsAreWholeTexts) {
  EXPECT_EQ(parse_decimal("2"), 2.0);
  EXPECT_EQ(parse_decimal("-0.5"), -0.5);
  EXPECT_EQ(parse_decimal("1e3"), 1000.0);
  for (const char* text : {"", "+1", " 1", "1 ", "2s", "0x10", "1e400", "1,5"}) {
    EXPECT_EQ(parse_decimal(text), std::nullopt) << text;
  }
}

// A value an option of the search is given, to be refused.
struct BadValue {
  std::string option;  // the long name
  std::string value;
};

const BadValue kBadValues[] = {
    // A time limit is at most a day wherever it is given.
    {"time-limit", "86401"},
    {"time-limit", "1e9"},
    {"time-limit", "-1"},
    {"time-limit", "nan"},
    {"time-limit", "inf"},
    {"time-limit", "1e400"},
    {"time-limit", "2s"},
    {"time-limit", "0x10"},
    {"limit", "-1"},
    {"limit", "abc"},
    {"limit", "2x"},
    {"limit", "+3"},
    {"limit", "99999999999999999999999"},
    {"language", "klingon"},
    {"recency", "7x"},
    {"recency", "0d"},
    {"as-of", "yesterday"},
};

const SearchOption& option_of(const BadValue& bad) {
  return *option_named(bad.option, kSearchCommand);
}

// What the checker says of the value, in the front end's words.
std::string refusal(const BadValue& bad, const OptionNaming& naming) {
  try {
    read_option_value(option_of(bad), bad.value, naming);
  } catch (const OptionError& error) {
    return error.what();
  }
  ADD_FAILURE() << bad.option << " takes '" << bad.value << "'";
  return "";
}

std::string percent_encoded(std::string_view text) {
  std::string encoded;
  for (const char c : text) {
    char escape[4];
    std::snprintf(escape, sizeof escape, "%%%02X", static_cast<unsigned char>(c));
    encoded += std::isalnum(static_cast<unsigned char>(c)) ? std::string(1, c) : escape;
  }
  return encoded;
}

// What /api/search answers the value: the message of its 400, or nothing
// when it takes it.
std::optional<std::string> http_refusal(const SearchOption& option, std::string_view value) {
  try {
    parse_search_request(parse_target("/api/search?q=penalty&" + std::string(option.http) + "=" +
                                      percent_encoded(value)));
  } catch (const HttpError& error) {
    EXPECT_EQ(error.status(), 400);
    return error.what();
  }
  return std::nullopt;
}

class OptionValuesTest : public testing::SharedIndexTest {
 protected:
  // quarry's prompt answering `lines` as at a terminal (-i): what it said
  // of each, one diagnostic line a problem.
  RunResult prompt(const std::string& lines) {
    return run_program(QUARRY_BIN, {"--db", db_path(), "-i", "--format", "json"}, lines);
  }

  RunResult command_line(const SearchOption& option, const std::string& value) {
    return run_program(QUARRY_BIN, {"--db", db_path(), option.long_flag(), value, "penalty"});
  }
};

TEST_F(OptionValuesTest, EveryFrontEndRefusesABadValueInTheCheckersWords) {
  std::string lines;
  std::vector<std::string> expected_problems;
  for (const BadValue& bad : kBadValues) {
    const SearchOption& option = option_of(bad);
    const std::string label = bad.option + " " + bad.value;

    const RunResult given = command_line(option, bad.value);
    EXPECT_EQ(given.exit_code, 2) << label;
    EXPECT_EQ(given.out, "") << label;
    EXPECT_EQ(given.err, "quarry: " + refusal(bad, kCommandLineNaming) +
                             " (quarry --help lists the options)\n")
        << label;

    EXPECT_EQ(http_refusal(option, bad.value), refusal(bad, kHttpNaming)) << label;

    lines += std::string(option.prompt) + " " + bad.value + "\n";
    expected_problems.push_back("quarry: " + refusal(bad, kPromptNaming) + "; for example " +
                                option.prompt_usage);
  }
  const RunResult typed = prompt(lines);
  EXPECT_EQ(typed.out, "");
  EXPECT_EQ(lines_of(typed.err), expected_problems);
}

// The same bound, said the same way: a time limit of a day is taken
// everywhere, a second more nowhere.
TEST_F(OptionValuesTest, ATimeLimitIsBoundedAlikeEverywhere) {
  const SearchOption& option = *option_named("time-limit", kSearchCommand);
  const BadValue over = {"time-limit", "86401"};
  EXPECT_EQ(refusal(over, kCommandLineNaming),
            "--time-limit must be a number from 0 to 86400, not '86401'");
  EXPECT_EQ(refusal(over, kHttpNaming),
            "parameter time_limit must be a number from 0 to 86400, not '86401'");
  EXPECT_EQ(refusal(over, kPromptNaming),
            ":time-limit must be a number from 0 to 86400, not '86401'");

  EXPECT_EQ(command_line(option, "86400").exit_code, 0);
  EXPECT_EQ(http_refusal(option, "86400"), std::nullopt);
  EXPECT_EQ(
      parse_search_request(parse_target("/api/search?q=a&time_limit=86400")).options.time_limit,
      86400);
  const RunResult typed = prompt(":time-limit 86400\n:time-limit 0.5\n");
  EXPECT_EQ(typed.err, "");
}

// A page bound is the HTTP API's own (a deep page costs the server), but
// the value is read by the same checker, which says the bound.
TEST_F(OptionValuesTest, TheHttpPageBoundIsSaidByTheChecker) {
  const SearchOption& option = *option_named("limit", kSearchCommand);
  EXPECT_EQ(http_refusal(option, "101"),
            "parameter n must be a whole number from 0 to 100, not '101'");
  EXPECT_EQ(command_line(option, "101").exit_code, 0);
  EXPECT_EQ(prompt(":limit 101\n:limit 0\n").err, "");
}

}  // namespace
}  // namespace quarry
