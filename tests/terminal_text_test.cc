#include "app/common/terminal_text.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/table_case.h"

namespace quarry {
namespace {

TEST(TerminalTextTest, TerminalSafeShowsControlCharacters) {
  const testing::SettingCase<bool> cases[] = {
      {"", false, ""},
      {"plain café 😀", false, "plain café 😀"},
      {"\x1b]0;pwned\x07 \x1b[2J", false, "^[]0;pwned^G ^[[2J"},
      {"a\rb\x7f\x01", false, "a^Mb^?^A"},
      {"one\ntwo\tthree", false, "one^Jtwo^Ithree"},
      {"one\ntwo\tthree\r", true, "one\ntwo\tthree^M"},
      {"a\u009b2Jb\u0085", false, "a<U+009B>2Jb<U+0085>"},
      {"bad \xc2 \xff utf-8", false, "bad \xc2 \xff utf-8"},
  };
  for (const auto& [text, keep_lines, safe] : cases) {
    EXPECT_EQ(terminal_safe(text, keep_lines), safe) << text;
  }
}

TEST(TerminalTextTest, DisplayWidthCountsColumnsOnATerminal) {
  const testing::Case<std::string, std::size_t> cases[] = {
      {"", 0},       {"Mourinho", 8},   {"\x1b[1;33mMourinho\x1b[0m", 8},
      {"café", 4},   {"cafe\u0301", 4},                   // NFD: the accent takes no column
      {"日本語", 6}, {"😀 ok", 5},       {"\xff\xfe", 2},  // not UTF-8: a column a byte
  };
  for (const auto& [text, width] : cases) EXPECT_EQ(display_width(text), width) << text;
}

TEST(TerminalTextTest, ScreenRowsCountWrappedLines) {
  const testing::SettingCase<std::size_t, std::size_t> cases[] = {
      {"", 10, 1},
      {"one\ntwo", 10, 2},
      {"one\n\ntwo", 10, 3},
      {std::string(10, 'a'), 10, 1},
      {std::string(11, 'a'), 10, 2},
      {std::string(25, 'a') + "\nb", 10, 4},
      {"日本語日本語", 10, 2},
      {std::string(25, 'a'), 0, 1},
  };
  for (const auto& [text, columns, rows] : cases) {
    EXPECT_EQ(screen_rows(text, columns), rows) << text << " in " << columns;
  }
}

TEST(TerminalTextTest, WrapBreaksAtSpacesWithinTheWidth) {
  const testing::SettingCase<std::size_t> cases[] = {
      {"   one two three four", 10, "   one two\n   three\n   four"},
      {"   one two", 10, "   one two"},
      {"   one two", 0, "   one two"},
      {"1. Averyveryverylongword x", 10, "1.\n   Averyveryverylongword\n   x"},
      {"\x1b[1mone\x1b[0m two three", 9, "\x1b[1mone\x1b[0m two\n   three"},
      {"日本 日本 日本", 10, "日本 日本\n   日本"},
  };
  for (const auto& [line, width, wrapped] : cases) {
    EXPECT_EQ(wrap(line, width, "   "), wrapped) << line;
  }
}

// Each line of a text is wrapped on its own, and lines already short enough
// (and blank ones) are kept.
TEST(TerminalTextTest, WrapLinesWrapsEachLine) {
  const testing::SettingCase<std::size_t> cases[] = {
      {"", 10, ""},
      {"short\n\nalso short", 10, "short\n\nalso short"},
      {"the political party\nof the year", 10, "the\npolitical\nparty\nof the\nyear"},
      {"no width given at all", 0, "no width given at all"},
      {"\x1b[1mbold\x1b[0m words here", 10, "\x1b[1mbold\x1b[0m words\nhere"},
      {"東京 大阪 名古屋", 6, "東京\n大阪\n名古屋"},
      // CJK has no spaces: lines break between its characters, but not
      // before its punctuation; a Latin word is never cut.
      {"東京の天気は晴れです。明日も", 10, "東京の天気\nは晴れで\nす。明日も"},
      {"日本語 abcdefghijkl", 8, "日本語\nabcdefghijkl"},
      {"\x1b[1m東京\x1b[0m大阪", 6, "\x1b[1m東京\x1b[0m大\n阪"},
  };
  for (const auto& [text, width, wrapped] : cases) {
    EXPECT_EQ(wrap_lines(text, width), wrapped) << text;
  }
}

}  // namespace
}  // namespace quarry
