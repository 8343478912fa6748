#include "lib/input/path_text.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "lib/text/utf8_repair.h"
#include "tests/table_case.h"

namespace quarry::detail {
namespace {

using namespace std::string_literals;

TEST(PathTextTest, EscapesWhatIsNotUtf8AndWhatWouldReadAsAnEscape) {
  const testing::TextCase kCases[] = {
      {"", ""},
      {"a.txt", "a.txt"},
      {"sub/caf\xC3\xA9.txt", "sub/caf\xC3\xA9.txt"},
      {"\xE6\x97\xA5\xE6\x9C\xAC.txt", "\xE6\x97\xA5\xE6\x9C\xAC.txt"},
      {"a\xEF\xBF\xBD.txt", "a\xEF\xBF\xBD.txt"},  // U+FFFD itself is UTF-8
      // Names with "%" keep their spelling unless it would read as an escape.
      {"100%.txt", "100%.txt"},
      {"My%20File.txt", "My%20File.txt"},
      {"caf%e9.txt", "caf%e9.txt"},
      {"%41%7F%%.txt", "%41%7F%%.txt"},
      {"a%FF.txt", "a%25FF.txt"},
      {"a%25.txt", "a%2525.txt"},
      {"caf%C3%A9.txt", "caf%25C3%25A9.txt"},
      // Bytes that are not UTF-8, one escape each.
      {"a\xFF.txt", "a%FF.txt"},
      {"a\xFE.txt", "a%FE.txt"},
      {"caf\xE9.txt", "caf%E9.txt"},
      {"\xC3", "%C3"},
      {"\xC3(", "%C3("},
      {"\xED\xA0\x80", "%ED%A0%80"},  // a surrogate
      {"\xC0\xAF", "%C0%AF"},         // overlong
      {"%\xFF", "%%FF"},
      {"%F\xFF", "%F%FF"},
      {"\x80%80", "%80%2580"},
      {"a\0b"s, "a\0b"s},
  };
  for (const auto& [bytes, text] : kCases) {
    EXPECT_EQ(path_text(bytes), text) << bytes;
    EXPECT_EQ(path_bytes(text), bytes) << text;
  }
}

// Every string of up to five bytes from an alphabet of the characters that
// matter: each text is UTF-8, and reads back as the bytes it came from, so
// that no two names share one.
TEST(PathTextTest, EveryNameReadsBackAsItselfFromUtf8) {
  const std::string alphabet = "%258AFa\xFF\xC3\xA9\xBF\xEF";
  std::vector<std::string> names{""};
  std::set<std::string> texts;
  for (std::size_t at = 0; at < names.size(); ++at) {
    const std::string name = names[at];
    const std::string text = path_text(name);
    EXPECT_EQ(count_invalid_utf8(text), 0u) << name;
    EXPECT_EQ(path_bytes(text), name) << name;
    EXPECT_TRUE(texts.insert(text).second) << name;
    if (name.size() < 5) {
      for (char c : alphabet) names.push_back(name + c);
    }
  }
  EXPECT_EQ(texts.size(), names.size());
}

}  // namespace
}  // namespace quarry::detail
