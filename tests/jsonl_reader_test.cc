#include <gtest/gtest.h>

#include <cstdio>
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
// JSON Lines

TEST(JsonlTest, ReadsFields) {
  TempDir dir;
  const fs::path path = dir / "news.jsonl";
  write_file(path, R"({"id": "a", "title": "Title A", "body": "Body A.", "date": "2017-12-10",)"
                   R"( "category": "sport", "source": "PA", "language": "PT-br", "extra": [1, 2]})"
                   "\n"
                   "\n"
                   R"({"id": "b", "title": null, "body": "First sentence. Second.", "date": null})"
                   "\r\n"
                   R"({"id": "c", "title": "", "body": "Headline\n\nText."})"
                   "\n"
                   R"({"id": "d", "title": "Only a title", "body": ""})");

  RecordingSink sink;
  read_articles(path, sink);
  EXPECT_TRUE(sink.problems.empty());
  ASSERT_EQ(sink.articles.size(), 4u);
  const Article& a = sink.articles[0].article;
  EXPECT_EQ(a.id, "a");
  EXPECT_EQ(a.title, "Title A");
  EXPECT_EQ(a.body, "Body A.");
  EXPECT_EQ(a.date, "2017-12-10");
  EXPECT_EQ(a.category, "sport");
  EXPECT_EQ(a.source, "PA");
  EXPECT_EQ(a.language, "portuguese");
  EXPECT_EQ(sink.articles[0].where.to_string(), path.string() + ":1");

  const Article& b = sink.articles[1].article;
  EXPECT_EQ(b.title, "First sentence.");
  EXPECT_EQ(b.body, "First sentence. Second.");
  EXPECT_EQ(b.date, "");
  EXPECT_EQ(sink.articles[1].where.line, 3u);

  // A derived title leaves the body as it was given.
  EXPECT_EQ(sink.articles[2].article.title, "Headline");
  EXPECT_EQ(sink.articles[2].article.body, "Headline\n\nText.");
  EXPECT_EQ(sink.articles[3].article.title, "Only a title");
}

TEST(JsonlTest, BadLinesAreReportedAndSkipped) {
  const struct {
    std::string line;
    std::string id;       // the article expected, or
    std::string problem;  // part of the reason expected
  } cases[] = {
      {R"({"id": "ok1", "body": "Fine."})", "ok1", ""},
      {R"({"id": "x", "body": )", "", "malformed JSON at column"},
      {R"(not json at all)", "", "malformed JSON"},
      {R"({"id": "n", "body": "b", "n": 5e690})", "",
       "malformed JSON: number overflow parsing '5e690'"},
      {R"([1, 2, 3])", "", "not a JSON object"},
      {R"("just a string")", "", "not a JSON object"},
      {R"({"id": 5, "body": "b"})", "", "field \"id\" must be a non-empty string"},
      {R"({"id": "", "body": "b"})", "", "field \"id\" must be a non-empty string"},
      {R"({"body": "b"})", "", "field \"id\" must be a non-empty string"},
      {R"({"id": "y"})", "", "field \"body\" must be a string"},
      {R"({"id": "y", "body": ["b"]})", "", "field \"body\" must be a string"},
      {R"({"id": "y", "body": "b", "title": 3})", "", "field \"title\" must be a string"},
      {R"({"id": "y", "body": "b", "date": 20171210})", "", "field \"date\" must be a string"},
      {R"({"id": "y", "body": "b", "source": {}})", "", "field \"source\" must be a string"},
      {R"({"id": "y", "body": "b", "language": 7})", "", "field \"language\" must be a string"},
      {R"({"id": "k", "body": "b", "language": "tlh"})", "k",
       "language 'tlh' is not one Quarry can stem"},
      {R"({"id": "y", "body": "  ", "title": ""})", "", "empty article"},
      {R"({"id": "s", "body": "\ud800 split \udc00 \ud83d\ude00"})", "s",
       "lone surrogate escapes repaired (2)"},
      {"{\"id\": \"u\", \"body\": \"caf\xE9 \xC0\xAF\"}", "u", "invalid UTF-8 repaired (3 bytes)"},
      {R"({"id": "ok2", "body": "Also fine."})", "ok2", ""},
  };
  TempDir dir;
  const fs::path path = dir / "bad.jsonl";
  std::string contents;
  for (const auto& c : cases) contents += c.line + "\n";
  write_file(path, contents);

  RecordingSink sink;
  read_articles(path, sink);
  std::size_t next_article = 0;
  std::size_t next_problem = 0;
  for (std::size_t i = 0; i < std::size(cases); ++i) {
    const auto& c = cases[i];
    const std::size_t line = i + 1;
    if (!c.problem.empty()) {
      ASSERT_LT(next_problem, sink.problems.size()) << c.line;
      const ReadProblem& problem = sink.problems[next_problem++];
      EXPECT_EQ(problem.where.path, path.string());
      EXPECT_EQ(problem.where.line, line) << c.line;
      EXPECT_TRUE(contains(problem.reason, c.problem)) << c.line << ": " << problem.reason;
      EXPECT_EQ(problem.reason.find('\n'), std::string::npos) << problem.reason;
      EXPECT_EQ(problem.skipped, c.id.empty()) << c.line;
    }
    if (!c.id.empty()) {
      ASSERT_LT(next_article, sink.articles.size()) << c.line;
      EXPECT_EQ(sink.articles[next_article].article.id, c.id);
      EXPECT_EQ(sink.articles[next_article++].where.line, line) << c.line;
    }
  }
  EXPECT_EQ(next_article, sink.articles.size());
  EXPECT_EQ(next_problem, sink.problems.size());
  ASSERT_EQ(sink.ids(), (std::vector<std::string>{"ok1", "k", "s", "u", "ok2"}));
  EXPECT_EQ(sink.articles[1].article.language, "");
  EXPECT_EQ(sink.articles[2].article.body, kFffd + " split " + kFffd + " \U0001F600");
  EXPECT_EQ(sink.articles[3].article.body, "caf" + kFffd + " " + kFffd + kFffd);
}

// A value of the input a message quotes is cut to its first characters,
// whole ones: a field may hold a whole body.
TEST(JsonlTest, MessagesQuoteLongValuesShort) {
  const std::string long_language(10 * 1024, 'x');
  const std::string long_date = "2017-12-10T" + std::string(10 * 1024, '1');
  std::string accents;
  for (int i = 0; i < 5000; ++i) accents += "\xC3\xA9";  // é
  TempDir dir;
  const fs::path path = dir / "long.jsonl";
  write_file(path, R"({"id": "l", "body": "b", "language": ")" + long_language + "\"}\n" +
                       R"({"id": "d", "body": "b", "date": ")" + long_date + "\"}\n" +
                       R"({"id": "e", "body": "b", "language": ")" + accents + "\"}\n");
  RecordingSink sink;
  read_articles(path, sink);
  ASSERT_EQ(sink.ids(), (std::vector<std::string>{"l", "d", "e"}));
  ASSERT_EQ(sink.problems.size(), 3u);
  EXPECT_EQ(sink.problems[0].reason, "language '" + std::string(64, 'x') +
                                         "…' is not one Quarry can stem: the article's language "
                                         "is told from its text");
  EXPECT_EQ(sink.problems[1].reason, "date '" + long_date.substr(0, 64) +
                                         "…' is not an ISO 8601 date (YYYY-MM-DD): the article "
                                         "is kept without it");
  EXPECT_EQ(sink.articles[1].article.date, "");
  EXPECT_TRUE(contains(sink.problems[2].reason, "language '" + accents.substr(0, 64) + "…'"))
      << sink.problems[2].reason;
  for (const ReadProblem& problem : sink.problems) {
    EXPECT_LT(problem.reason.size(), 200u) << problem.reason;
    EXPECT_EQ(detail::count_invalid_utf8(problem.reason), 0u) << problem.reason;
    EXPECT_FALSE(problem.skipped);
  }
}

// Titles, categories and sources past their limits are cut where a
// character ends, a title at a word when one is near, and the article kept
// with a note; every other field is kept whole.
TEST(JsonlTest, LongFieldsAreCutAndReported) {
  std::string title;
  while (title.size() < 5000) title += "words ";
  const std::string category(300 * 1024, 'c');
  std::string source;
  for (int i = 0; i < 200; ++i) source += "\xC3\xA9";  // 400 bytes
  TempDir dir;
  const fs::path path = dir / "long.jsonl";
  write_file(path, R"({"id": "a", "body": "b", "title": ")" + title + R"(", "category": ")" +
                       category + R"(", "source": ")" + source + "\"}\n" +
                       R"({"id": "b", "body": "b", "title": ")" + std::string(1024, 't') +
                       R"(", "category": ")" + std::string(256, 'c') + "\"}\n");
  RecordingSink sink;
  read_articles(path, sink);
  ASSERT_EQ(sink.ids(), (std::vector<std::string>{"a", "b"}));
  const Article& cut = sink.articles[0].article;
  EXPECT_EQ(cut.title, title.substr(0, 1019)) << "cut at the last space before the limit";
  EXPECT_EQ(cut.category, std::string(kMaxLabelBytes, 'c'));
  EXPECT_EQ(cut.source, source.substr(0, 256));
  EXPECT_EQ(detail::count_invalid_utf8(cut.source), 0u);
  ASSERT_EQ(sink.problems.size(), 3u);
  EXPECT_EQ(sink.problems[0].reason,
            "title of 5004 bytes is longer than 1024: only its first 1019 bytes are kept");
  EXPECT_EQ(sink.problems[1].reason,
            "category of 307200 bytes is longer than 256: only its first 256 bytes are kept");
  EXPECT_EQ(sink.problems[2].reason,
            "source of 400 bytes is longer than 256: only its first 256 bytes are kept");
  for (const ReadProblem& problem : sink.problems) {
    EXPECT_EQ(problem.where.to_string(), path.string() + ":1");
    EXPECT_FALSE(problem.skipped);
  }
  // At the limits, nothing is cut.
  EXPECT_EQ(sink.articles[1].article.title, std::string(1024, 't'));
  EXPECT_EQ(sink.articles[1].article.category, std::string(256, 'c'));
}

// An id is a key: cut, two articles could become one. One past the limit
// is refused, naming the limit.
TEST(JsonlTest, IdsLongerThanTheLimitAreRefused) {
  const std::string at_limit(kMaxIdBytes, 'i');
  const std::string past_limit(100000, 'j');
  TempDir dir;
  const fs::path path = dir / "ids.jsonl";
  write_file(path, R"({"id": ")" + at_limit + R"(", "body": "b"})" + "\n" + R"({"id": ")" +
                       at_limit + "i" + R"(", "body": "b"})" + "\n" + R"({"id": ")" + past_limit +
                       R"(", "body": "b"})" + "\n");
  RecordingSink sink;
  read_articles(path, sink);
  ASSERT_EQ(sink.ids(), (std::vector<std::string>{at_limit}));
  ASSERT_EQ(sink.problems.size(), 2u);
  EXPECT_EQ(sink.problems[0].where.line, 2u);
  EXPECT_EQ(sink.problems[0].reason, "id '" + at_limit.substr(0, 64) +
                                         "…' is 513 bytes long; an id may be 512 bytes at most");
  EXPECT_EQ(sink.problems[1].where.line, 3u);
  EXPECT_TRUE(contains(sink.problems[1].reason, "is 100000 bytes long; an id may be 512 bytes"))
      << sink.problems[1].reason;
  for (const ReadProblem& problem : sink.problems) EXPECT_TRUE(problem.skipped);
}

TEST(JsonlTest, MalformedMessageIsShort) {
  TempDir dir;
  const fs::path path = dir / "long.jsonl";
  write_file(path, R"({"id": "x", "body": ")" + std::string(100000, 'a') + "\n");
  RecordingSink sink;
  read_articles(path, sink);
  ASSERT_EQ(sink.problems.size(), 1u);
  EXPECT_LT(sink.problems[0].reason.size(), 300u) << sink.problems[0].reason;
}

TEST(JsonlTest, LongLines) {
  TempDir dir;
  const fs::path path = dir / "long.jsonl";
  const std::string body(3'000'000, 'w');  // several read chunks
  write_file(path, R"({"id": "a", "title": "T", "body": ")" + body + "\"}\n" +
                       R"({"id": "b", "title": "T", "body": "short"})" + "\n");
  RecordingSink sink;
  read_articles(path, sink);
  EXPECT_TRUE(sink.problems.empty());
  ASSERT_EQ(sink.ids(), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(sink.articles[0].article.body, body);
}

TEST(JsonlTest, Gzipped) {
  TempDir dir;
  const fs::path path = dir / "news.jsonl.gz";
  write_gzip(path, numbered_lines(3));
  RecordingSink sink;
  read_articles(path, sink);
  EXPECT_TRUE(sink.problems.empty());
  EXPECT_EQ(sink.ids(), (std::vector<std::string>{"n1", "n2", "n3"}));
  ASSERT_EQ(sink.articles.size(), 3u);
  EXPECT_EQ(sink.articles[2].where.to_string(), path.string() + ":3");
}

TEST(JsonlTest, TruncatedGzipIsReported) {
  TempDir dir;
  const fs::path path = dir / "news.jsonl.gz";
  const int lines = 5000;
  write_gzip(path, numbered_lines(lines));
  fs::resize_file(path, fs::file_size(path) / 2);

  RecordingSink sink;
  read_articles(path, sink);
  EXPECT_GT(sink.articles.size(), 0u);
  EXPECT_LT(sink.articles.size(), static_cast<std::size_t>(lines));
  ASSERT_EQ(sink.problems.size(), 1u);
  EXPECT_EQ(sink.problems[0].reason, "truncated gzip stream");
  EXPECT_TRUE(sink.problems[0].skipped);
  EXPECT_EQ(sink.problems[0].where.line, sink.articles.size() + 1);
}

TEST(JsonlTest, CorruptGzipIsReported) {
  TempDir dir;
  const fs::path path = dir / "news.jsonl.gz";
  write_gzip(path, numbered_lines(2000));
  std::string bytes(fs::file_size(path), '\0');
  {
    FILE* file = std::fopen(path.c_str(), "r+b");
    ASSERT_NE(file, nullptr);
    ASSERT_EQ(std::fread(bytes.data(), 1, bytes.size(), file), bytes.size());
    for (std::size_t i = bytes.size() / 2; i < bytes.size() / 2 + 64; ++i) bytes[i] ^= 0x5A;
    std::rewind(file);
    ASSERT_EQ(std::fwrite(bytes.data(), 1, bytes.size(), file), bytes.size());
    std::fclose(file);
  }
  RecordingSink sink;
  read_articles(path, sink);
  EXPECT_LT(sink.articles.size(), 2000u);
  ASSERT_FALSE(sink.problems.empty());
  EXPECT_TRUE(contains(sink.problems.back().reason, "gzip stream")) << sink.problems.back().reason;
}

}  // namespace
}  // namespace quarry::testing
