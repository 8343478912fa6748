#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "lib/text/utf8_repair.h"
#include "quarry/input/article_reader.h"
#include "tests/article_sink.h"
#include "tests/test_util.h"

namespace quarry::testing {
namespace {

namespace fs = std::filesystem;

// ---------------------------------------------------------------------------
// Small pieces

TEST(SourceLocationTest, ToString) {
  EXPECT_EQ((SourceLocation{"corpus/a.txt", 0}).to_string(), "corpus/a.txt");
  EXPECT_EQ((SourceLocation{"news.jsonl", 12}).to_string(), "news.jsonl:12");
  EXPECT_EQ((SourceLocation{"", 0}).to_string(), "");
}

TEST(IsArticleFileTest, ByExtension) {
  const struct {
    const char* name;
    bool taken;
  } cases[] = {
      {"a.txt", true},         {"dir/A.TXT", true},  {"news.jsonl", true}, {"news.jsonl.gz", true},
      {"NEWS.JSONL.GZ", true}, {"news.json", false}, {"news.gz", false},   {"a.txt.bak", false},
      {"README", false},       {"a.md", false},      {".txt", false},      {"txt", false},
  };
  for (const auto& c : cases) EXPECT_EQ(is_article_file(c.name), c.taken) << c.name;
}

// ---------------------------------------------------------------------------
// Titles

struct TitleCase {
  const char* name;
  std::string text;
  std::string title;
  bool title_is_first_line;
};

TEST(DeriveTitleTest, HeadlineOrFirstSentence) {
  const TitleCase cases[] = {
      {"headline and blank line", "Mourinho in dressing-room row\n\nUnited's boss was angry.",
       "Mourinho in dressing-room row", true},
      {"headline and text at once", "Short headline\nThe story starts here.", "Short headline",
       true},
      {"blank lines first", "\n\n   Title here  \n\nBody.", "Title here", true},
      {"CRLF", "Headline\r\n\r\nBody\r\n", "Headline", true},
      {"headline in brackets", "Results (updated)\n\nText.", "Results (updated)", true},
      {"white space collapsed", "A \t spaced   headline\n\nText.", "A spaced headline", true},
      {"first line ends with a full stop", "Short sentence ends here.\n\nMore text.",
       "Short sentence ends here.", false},
      {"question", "Is this the end?\n\nNo.", "Is this the end?", false},
      {"full stop inside quotes", "He said \"No.\"\nThen he left.", "He said \"No.\"", false},
      {"ellipsis", "And then\xE2\x80\xA6\n\nNothing.", "And then\xE2\x80\xA6", false},
      {"only one line", "Just one line without a stop", "Just one line without a stop", false},
      {"first sentence of a paragraph", "First sentence. Second sentence.", "First sentence.",
       false},
      {"abbreviation", "Mr. Smith went to Washington. He stayed.", "Mr. Smith went to Washington.",
       false},
      {"hard-wrapped paragraph",
       "The fox jumped over the lazy dog and\nkept running to the river. Then it swam.",
       "The fox jumped over the lazy dog and kept running to the river.", false},
      {"wrapped after a comma", "When the match ended,\nTempers flared. Then calm.",
       "When the match ended, Tempers flared.", false},
      {"CJK sentence",
       "\xE6\x9D\xB1\xE4\xBA\xAC\xE3\x81\xA7\xE5\xA4\xA7\xE9\x9B\xA8\xE3\x80\x82"
       "\xE4\xBA\xA4\xE9\x80\x9A\xE3\x81\xAB\xE5\xBD\xB1\xE9\x9F\xBF\xE3\x80\x82",
       "\xE6\x9D\xB1\xE4\xBA\xAC\xE3\x81\xA7\xE5\xA4\xA7\xE9\x9B\xA8\xE3\x80\x82", false},
      {"CJK headline",
       "\xE6\x9D\xB1\xE4\xBA\xAC\xE3\x81\xA7\xE5\xA4\xA7\xE9\x9B\xA8\n\n"
       "\xE4\xBA\xA4\xE9\x80\x9A\xE3\x81\xAB\xE5\xBD\xB1\xE9\x9F\xBF\xE3\x80\x82",
       "\xE6\x9D\xB1\xE4\xBA\xAC\xE3\x81\xA7\xE5\xA4\xA7\xE9\x9B\xA8", true},
      {"empty", "", "", false},
      {"blank", " \n\t\n", "", false},
  };
  for (const TitleCase& c : cases) {
    bool title_is_first_line = !c.title_is_first_line;
    EXPECT_EQ(derive_title(c.text, &title_is_first_line), c.title) << c.name;
    EXPECT_EQ(title_is_first_line, c.title_is_first_line) << c.name;
  }
}

TEST(DeriveTitleTest, ShortensLongFirstSentenceAtWordBoundary) {
  const std::string text =
      "Manchester United boss Jose Mourinho was involved in a heated exchange with Manchester "
      "City players following his side's derby defeat at Old Trafford, Press Association Sport "
      "understands.\n\nMourinho reportedly had milk and water thrown at him.";
  bool title_is_first_line = true;
  EXPECT_EQ(derive_title(text, &title_is_first_line),
            "Manchester United boss Jose Mourinho was involved in a heated exchange with "
            "Manchester City players\xE2\x80\xA6");
  EXPECT_FALSE(title_is_first_line);
}

TEST(DeriveTitleTest, HeadlineLengthLimit) {
  const std::string longest(kMaxTitleChars, 'x');
  bool title_is_first_line = false;
  EXPECT_EQ(derive_title(longest + "\n\nBody.", &title_is_first_line), longest);
  EXPECT_TRUE(title_is_first_line);

  const std::string too_long = repeat("word ", 30);  // 150 characters, no full stop
  const std::string title = derive_title(too_long + "\n\nBody.", &title_is_first_line);
  EXPECT_FALSE(title_is_first_line);
  EXPECT_EQ(title, repeat("word ", 19) + "word\xE2\x80\xA6");
}

TEST(DeriveTitleTest, NeverLongerThanTheLimit) {
  const std::string han = "\xE6\xBC\xA2\xE5\xAD\x97\xE3\x81\xAE\xE6\x96\x87";  // 漢字の文
  const struct {
    const char* name;
    std::string text;
  } cases[] = {
      {"one long word", std::string(300, 'a')},
      {"many words", repeat("word ", 100)},
      {"long sentence", repeat("word ", 100) + "end."},
      {"commas", repeat("a, ", 100)},
      {"punctuation only", repeat("-", 300)},
      {"CJK without punctuation", repeat(han, 80)},
      {"emoji", repeat("\xF0\x9F\x98\x80", 150)},
      {"combining accents", repeat("e\xCC\x81", 150)},
      {"long line then more", repeat("word ", 100) + "\n\nMore."},
      {"very long line", repeat("word ", 2000) + "\n\nMore."},
  };
  for (const auto& c : cases) {
    const std::string title = derive_title(c.text, nullptr);
    const std::size_t length = count_code_points(title);
    EXPECT_GT(length, 0u) << c.name;
    EXPECT_LE(length, kMaxTitleChars) << c.name;
    EXPECT_EQ(detail::count_invalid_utf8(title), 0u) << c.name;
    ASSERT_TRUE(title.ends_with("\xE2\x80\xA6")) << c.name << ": " << title;
    const std::string kept = title.substr(0, title.size() - 3);
    EXPECT_TRUE(c.text.starts_with(kept)) << c.name << ": " << title;
  }
}

TEST(DeriveTitleTest, CorpusTitlesComeFromTheirHeaders) {
  RecordingSink sink;
  read_articles(QUARRY_CORPUS_DIR, sink);
  ASSERT_EQ(sink.articles.size(), 3u);
  EXPECT_TRUE(sink.problems.empty());
  for (const auto& delivery : sink.articles) {
    EXPECT_LE(count_code_points(delivery.article.title), kMaxTitleChars);
    EXPECT_EQ(delivery.article.category, "sport");
    EXPECT_TRUE(delivery.article.date.starts_with("2017-12-1")) << delivery.article.date;
  }
  const Article& first = sink.articles[0].article;
  EXPECT_EQ(first.id, "000_574c536d11495eda.txt");
  EXPECT_EQ(first.title, "Mourinho in heated exchange with City players after derby defeat");
  EXPECT_EQ(first.source, "Press Association");
  EXPECT_TRUE(first.body.starts_with("Manchester United boss Jose Mourinho")) << first.body;
  EXPECT_EQ(sink.articles[1].article.source, "");
  EXPECT_EQ(sink.articles[2].article.source, "Express");
}

}  // namespace
}  // namespace quarry::testing
