#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "quarry/input/article_reader.h"
#include "tests/article_sink.h"
#include "tests/test_util.h"

namespace quarry::testing {
namespace {

namespace fs = std::filesystem;

// ---------------------------------------------------------------------------
// Plain-text files

struct TextCase {
  const char* name;
  std::string contents;
  std::string title;  // empty: no article expected
  std::string body;
  std::string problem;  // part of the reason; empty: no problem expected
};

void check_text_file(const TextCase& c) {
  SCOPED_TRACE(c.name);
  TempDir dir;
  const fs::path path = dir / "case.txt";
  write_file(path, c.contents);
  RecordingSink sink;
  read_articles(path, sink);
  if (c.problem.empty()) {
    EXPECT_TRUE(sink.problems.empty());
  } else {
    ASSERT_EQ(sink.problems.size(), 1u);
    const ReadProblem& problem = sink.problems[0];
    EXPECT_TRUE(contains(problem.reason, c.problem)) << problem.reason;
    EXPECT_EQ(problem.skipped, c.title.empty());
    EXPECT_EQ(problem.where.to_string(), path.string());
  }
  if (c.title.empty()) {
    EXPECT_TRUE(sink.articles.empty());
    return;
  }
  ASSERT_EQ(sink.articles.size(), 1u);
  const Article& article = sink.articles[0].article;
  EXPECT_EQ(article.id, "case.txt");
  EXPECT_EQ(article.title, c.title);
  EXPECT_EQ(article.body, c.body);
  EXPECT_EQ(sink.articles[0].where.to_string(), path.string());
}

TEST(TextFileTest, Contents) {
  const TextCase cases[] = {
      {"headline", "Title\n\nBody text.\n", "Title", "Body text.", ""},
      {"sentence", "First sentence. Second sentence.\n", "First sentence.",
       "First sentence. Second sentence.", ""},
      {"BOM and CRLF", "\xEF\xBB\xBFTitle\r\n\r\nLine one\r\nLine two\r\n", "Title",
       "Line one\nLine two", ""},
      {"old Mac line breaks", "Title\r\rLine one\rLine two", "Title", "Line one\nLine two", ""},
      {"overlong", "Caf\xC0\xAF is open\n\nBody.", "Caf" + kFffd + kFffd + " is open", "Body.",
       "invalid UTF-8 repaired (2 bytes)"},
      {"lone surrogate", "Title\n\nA \xED\xA0\x80 here.", "Title",
       "A " + kFffd + kFffd + kFffd + " here.", "invalid UTF-8 repaired (3 bytes)"},
      {"truncated sequence", "Price in euros\n\nIt costs 5\xE2\x82", "Price in euros",
       "It costs 5" + kFffd + kFffd, "invalid UTF-8 repaired (2 bytes)"},
      {"Latin-1", "Caf\xE9 cr\xE8me\n\nGood.", "Caf" + kFffd + " cr" + kFffd + "me", "Good.",
       "invalid UTF-8 repaired (2 bytes)"},
      {"NUL byte", std::string("Title\n\nBody\0with NUL", 20), "", "", "binary file"},
      {"control characters", repeat("\x01\x02\x03 abc", 20), "", "", "binary file"},
      {"other encoding", repeat("\xCF\xF0\xE8\xE2\xE5\xF2 ", 20), "", "", "not UTF-8 text"},
      {"empty", "", "", "", "empty article"},
      {"white space only", " \n\t\r\n  \n", "", "", "empty article"},
      {"BOM only", "\xEF\xBB\xBF\n", "", "", "empty article"},
  };
  for (const TextCase& c : cases) check_text_file(c);
}

// The fields of the article a header case reads; "" where the field is
// to be empty.
struct HeaderFields {
  std::string title;
  std::string body;
  std::string date = {};
  std::string category = {};
  std::string source = {};
  std::string language = {};
};

struct HeaderCase {
  const char* name;
  std::string contents;
  HeaderFields article;
  std::string problem = {};  // part of the reason; empty: no problem expected
};

// A .txt file may start with a header naming its fields; what is not all
// header lines is text.
TEST(TextFileTest, Headers) {
  const HeaderCase cases[] = {
      {"every field",
       "Title: Derby row\nDate: 2017-12-10\nSource: Press Association\nCategory: sport\n\n"
       "Mourinho had milk thrown at him.\n",
       {.title = "Derby row",
        .body = "Mourinho had milk thrown at him.",
        .date = "2017-12-10",
        .category = "sport",
        .source = "Press Association"}},
      {"names in any case, values trimmed, a time",
       "SOURCE:  Reuters \r\ndate: 2017-12-10T15:01:01\r\n\r\nHeadline\r\n\r\nText.",
       {.title = "Headline", .body = "Text.", .date = "2017-12-10T15:01:01", .source = "Reuters"}},
      {"a colon in the value",
       "Title: Derby: City win\n\nText.",
       {.title = "Derby: City win", .body = "Text."}},
      {"an empty value",
       "Category:\nSource: AP\n\nHeadline\n\nText.",
       {.title = "Headline", .body = "Text.", .source = "AP"}},
      {"a date that is not ISO 8601",
       "Date: yesterday\n\nHeadline\n\nText.",
       {.title = "Headline", .body = "Text."},
       "date 'yesterday' is not an ISO 8601 date (YYYY-MM-DD): the article is kept without it"},
      {"a language, as a code",
       "Language: fr-CA\n\nCrise\n\nTexte.",
       {.title = "Crise", .body = "Texte.", .language = "french"}},
      {"a language, as a name",
       "language: German\n\nKrise\n\nText.",
       {.title = "Krise", .body = "Text.", .language = "german"}},
      {"a language Quarry cannot stem",
       "Language: Klingon\n\nHeadline\n\nText.",
       {.title = "Headline", .body = "Text."},
       "language 'Klingon' is not one Quarry can stem: the article's language is told from its "
       "text"},
      {"a day that does not exist",
       "Date: 2017-02-30\n\nHeadline\n\nText.",
       {.title = "Headline", .body = "Text."},
       "date '2017-02-30'"},
      // No header: the lines are the article's text.
      {"an unknown name",
       "Title: Derby\nAuthor: Smith\n\nText.",
       {.title = "Title: Derby", .body = "Author: Smith\n\nText."}},
      {"a field twice",
       "Source: AP\nSource: Reuters\n\nText.",
       {.title = "Source: AP", .body = "Source: Reuters\n\nText."}},
      {"no blank line after it",
       "Source: the minutes of the meeting.",
       {.title = "Source: the minutes of the meeting.",
        .body = "Source: the minutes of the meeting."}},
      {"a line without a colon",
       "Source: AP\nBreaking news\n\nText.",
       {.title = "Source: AP", .body = "Breaking news\n\nText."}},
      {"not at the start",
       "Headline\n\nSource: AP\n\nText.",
       {.title = "Headline", .body = "Source: AP\n\nText."}},
  };
  for (const HeaderCase& c : cases) {
    SCOPED_TRACE(c.name);
    TempDir dir;
    write_file(dir / "case.txt", c.contents);
    RecordingSink sink;
    read_articles(dir / "case.txt", sink);
    ASSERT_EQ(sink.articles.size(), 1u);
    const Article& article = sink.articles[0].article;
    EXPECT_EQ(article.title, c.article.title);
    EXPECT_EQ(article.body, c.article.body);
    EXPECT_EQ(article.date, c.article.date);
    EXPECT_EQ(article.category, c.article.category);
    EXPECT_EQ(article.source, c.article.source);
    EXPECT_EQ(article.language, c.article.language);
    if (c.problem.empty()) {
      EXPECT_TRUE(sink.problems.empty()) << sink.problems[0].reason;
    } else {
      ASSERT_EQ(sink.problems.size(), 1u);
      EXPECT_TRUE(contains(sink.problems[0].reason, c.problem)) << sink.problems[0].reason;
      EXPECT_FALSE(sink.problems[0].skipped);
    }
  }
}

TEST(TextFileTest, HeaderWithNoTextIsAnEmptyArticle) {
  TempDir dir;
  write_file(dir / "case.txt", "Title: Nothing here\nSource: AP\n\n\n");
  RecordingSink sink;
  read_articles(dir / "case.txt", sink);
  EXPECT_TRUE(sink.articles.empty());
  ASSERT_EQ(sink.problems.size(), 1u);
  EXPECT_TRUE(contains(sink.problems[0].reason, "empty article")) << sink.problems[0].reason;
}

TEST(TextFileTest, LongHeaderFieldsAreCutAndLongPathsRefused) {
  TempDir dir;
  write_file(dir / "long.txt",
             "Category: " + std::string(1000, 'c') + "\nSource: AP\n\nHeadline\n\nText.\n");
  // Folders of 200 bytes each: the path, the article's id, passes 512.
  const std::string folder(200, 'f');
  write_file(dir / folder / folder / folder / "deep.txt", "Headline\n\nText.\n");
  RecordingSink sink;
  read_articles(dir.path(), sink);
  ASSERT_EQ(sink.ids(), (std::vector<std::string>{"long.txt"}));
  EXPECT_EQ(sink.articles[0].article.category, std::string(256, 'c'));
  EXPECT_EQ(sink.articles[0].article.source, "AP");
  ASSERT_EQ(sink.problems.size(), 2u);
  EXPECT_TRUE(contains(sink.problems[0].reason, "an id may be 512 bytes at most"))
      << sink.problems[0].reason;
  EXPECT_TRUE(sink.problems[0].where.path.ends_with("deep.txt")) << sink.problems[0].where.path;
  EXPECT_TRUE(sink.problems[0].skipped);
  EXPECT_EQ(sink.problems[1].reason,
            "category of 1000 bytes is longer than 256: only its first 256 bytes are kept");
  EXPECT_FALSE(sink.problems[1].skipped);
}

}  // namespace
}  // namespace quarry::testing
