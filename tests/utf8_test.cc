#include <gtest/gtest.h>

#include <string>

#include "lib/text/utf8_repair.h"
#include "tests/table_case.h"

namespace quarry::detail {
namespace {

const std::string kFffd(kReplacementCharacter);

TEST(Utf8Test, ValidSequenceLength) {
  const struct {
    std::string text;
    std::size_t length;
  } cases[] = {
      {"", 0},
      {"a", 1},
      {"\x7F", 1},
      {"\xC3\xA9", 2},          // é
      {"\xE2\x82\xAC", 3},      // €
      {"\xF0\x9F\x98\x80", 4},  // 😀
      {"\xF4\x8F\xBF\xBF", 4},  // U+10FFFF
      {"\xC0\xAF", 0},          // overlong '/'
      {"\xC1\xBF", 0},          // overlong
      {"\xE0\x80\xAF", 0},      // overlong, three bytes
      {"\xF0\x80\x80\xAF", 0},  // overlong, four bytes
      {"\xED\xA0\x80", 0},      // lone surrogate U+D800
      {"\xED\xBF\xBF", 0},      // lone surrogate U+DFFF
      {"\xED\x9F\xBF", 3},      // U+D7FF, just below the surrogates
      {"\xF4\x90\x80\x80", 0},  // above U+10FFFF
      {"\xF5\x80\x80\x80", 0},
      {"\x80", 0},       // stray continuation byte
      {"\xE2\x82", 0},   // truncated
      {"\xE2\x82x", 0},  // interrupted
      {"\xFF", 0},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(valid_sequence_length(c.text), c.length) << ::testing::PrintToString(c.text);
  }
}

TEST(Utf8Test, RepairReplacesEachInvalidByte) {
  const testing::TextCase cases[] = {
      {"", ""},
      {"plain ASCII", "plain ASCII"},
      {"caf\xC3\xA9 \xE6\x9D\xB1\xE4\xBA\xAC \xF0\x9F\x98\x80",
       "caf\xC3\xA9 \xE6\x9D\xB1\xE4\xBA\xAC \xF0\x9F\x98\x80"},
      {"a\xC0\xAF"
       "b",
       "a" + kFffd + kFffd + "b"},
      {"\xED\xA0\x80", kFffd + kFffd + kFffd},
      {"x\xE2\x82", "x" + kFffd + kFffd},
      {"\xE2\x82\xE2\x82\xAC", kFffd + kFffd + "\xE2\x82\xAC"},
      {"caf\xE9", "caf" + kFffd},  // Latin-1
      {"\xF4\x90\x80\x80", kFffd + kFffd + kFffd + kFffd},
  };
  for (const auto& [text, repaired] : cases) {
    EXPECT_EQ(repair_utf8(text), repaired) << ::testing::PrintToString(text);
    EXPECT_EQ(count_invalid_utf8(text), (repaired.size() - text.size()) / 2)
        << ::testing::PrintToString(text);
    EXPECT_EQ(count_invalid_utf8(repair_utf8(text)), 0u);
    EXPECT_EQ(is_valid_utf8(text), text == repaired) << ::testing::PrintToString(text);
  }
}

TEST(Utf8Test, CountCodePoints) {
  EXPECT_EQ(count_code_points(""), 0u);
  EXPECT_EQ(count_code_points("abc"), 3u);
  EXPECT_EQ(count_code_points("caf\xC3\xA9"), 4u);
  EXPECT_EQ(count_code_points("\xE6\x9D\xB1\xE4\xBA\xAC"), 2u);
  EXPECT_EQ(count_code_points("\xF0\x9F\x98\x80!"), 2u);
}

TEST(Utf8Test, PrefixDoesNotSplitSequences) {
  const std::string text = "a\xC3\xA9\xE2\x82\xAC";  // a é €
  const std::size_t expected[] = {0, 1, 1, 3, 3, 3, 6, 6};
  for (std::size_t max = 0; max < std::size(expected); ++max) {
    EXPECT_EQ(utf8_prefix(text, max).size(), expected[max]) << max;
  }
}

}  // namespace
}  // namespace quarry::detail
