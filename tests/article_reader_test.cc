#include "quarry/input/article_reader.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cstdint>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "lib/text/utf8_repair.h"
#include "quarry/error.h"
#include "tests/test_util.h"

namespace quarry {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;
using testing::write_file;
using namespace std::string_literals;

const std::string kFffd = "\xEF\xBF\xBD";

class RecordingSink : public ArticleSink {
 public:
  struct Delivery {
    Article article;
    SourceLocation where;
  };

  explicit RecordingSink(std::size_t stop_after = std::numeric_limits<std::size_t>::max())
      : stop_after_(stop_after) {}

  void on_article(Article&& article, const SourceLocation& where) override {
    articles.push_back({std::move(article), where});
  }
  void on_problem(const ReadProblem& problem) override { problems.push_back(problem); }
  bool should_stop() const override { return articles.size() >= stop_after_; }

  std::vector<std::string> ids() const {
    std::vector<std::string> ids;
    for (const auto& delivery : articles) ids.push_back(delivery.article.id);
    return ids;
  }

  std::vector<Delivery> articles;
  std::vector<ReadProblem> problems;

 private:
  std::size_t stop_after_;
};

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

void write_gzip(const fs::path& path, const std::string& contents) {
  gzFile file = gzopen(path.c_str(), "wb");
  ASSERT_NE(file, nullptr);
  ASSERT_EQ(gzwrite(file, contents.data(), static_cast<unsigned>(contents.size())),
            static_cast<int>(contents.size()));
  ASSERT_EQ(gzclose(file), Z_OK);
}

std::string repeat(const std::string& text, int times) {
  std::string repeated;
  for (int i = 0; i < times; ++i) repeated += text;
  return repeated;
}

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

struct HeaderCase {
  const char* name;
  std::string contents;
  Article article;      // id aside
  std::string problem;  // part of the reason; empty: no problem expected
};

// A .txt file may start with a header naming its fields; what is not all
// header lines is text.
TEST(TextFileTest, Headers) {
  const HeaderCase cases[] = {
      {"every field",
       "Title: Derby row\nDate: 2017-12-10\nSource: Press Association\nCategory: sport\n\n"
       "Mourinho had milk thrown at him.\n",
       {"", "Derby row", "Mourinho had milk thrown at him.", "2017-12-10", "sport",
        "Press Association"},
       ""},
      {"names in any case, values trimmed, a time",
       "SOURCE:  Reuters \r\ndate: 2017-12-10T15:01:01\r\n\r\nHeadline\r\n\r\nText.",
       {"", "Headline", "Text.", "2017-12-10T15:01:01", "", "Reuters"},
       ""},
      {"a colon in the value",
       "Title: Derby: City win\n\nText.",
       {"", "Derby: City win", "Text.", "", "", ""},
       ""},
      {"an empty value",
       "Category:\nSource: AP\n\nHeadline\n\nText.",
       {"", "Headline", "Text.", "", "", "AP"},
       ""},
      {"a date that is not ISO 8601",
       "Date: yesterday\n\nHeadline\n\nText.",
       {"", "Headline", "Text.", "", "", ""},
       "date 'yesterday' is not an ISO 8601 date (YYYY-MM-DD): the article is kept without it"},
      {"a language, as a code",
       "Language: fr-CA\n\nCrise\n\nTexte.",
       {"", "Crise", "Texte.", "", "", "", "french"},
       ""},
      {"a language, as a name",
       "language: German\n\nKrise\n\nText.",
       {"", "Krise", "Text.", "", "", "", "german"},
       ""},
      {"a language Quarry cannot stem",
       "Language: Klingon\n\nHeadline\n\nText.",
       {"", "Headline", "Text.", "", "", ""},
       "language 'Klingon' is not one Quarry can stem: the article's language is told from its "
       "text"},
      {"a day that does not exist",
       "Date: 2017-02-30\n\nHeadline\n\nText.",
       {"", "Headline", "Text.", "", "", ""},
       "date '2017-02-30'"},
      // No header: the lines are the article's text.
      {"an unknown name",
       "Title: Derby\nAuthor: Smith\n\nText.",
       {"", "Title: Derby", "Author: Smith\n\nText.", "", "", ""},
       ""},
      {"a field twice",
       "Source: AP\nSource: Reuters\n\nText.",
       {"", "Source: AP", "Source: Reuters\n\nText.", "", "", ""},
       ""},
      {"no blank line after it",
       "Source: the minutes of the meeting.",
       {"", "Source: the minutes of the meeting.", "Source: the minutes of the meeting.", "", "",
        ""},
       ""},
      {"a line without a colon",
       "Source: AP\nBreaking news\n\nText.",
       {"", "Source: AP", "Breaking news\n\nText.", "", "", ""},
       ""},
      {"not at the start",
       "Headline\n\nSource: AP\n\nText.",
       {"", "Headline", "Source: AP\n\nText.", "", "", ""},
       ""},
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

// ---------------------------------------------------------------------------
// Folders

TEST(ReadArticlesTest, WalksFoldersInSortedOrder) {
  TempDir dir;
  for (const char* name :
       {"b.txt", "a.txt", "sub/c.txt", "sub/deeper/d.TXT", "a0/x.txt", "ignored.md", "notes",
        ".hidden.txt", ".git/e.txt", "sub/.cache/f.txt"}) {
    write_file(dir / name, std::string("Headline of ") + name + "\n\nBody.");
  }
  write_file(dir / "z.jsonl", R"({"id": "j1", "title": "T", "body": "B"})"
                              "\n");

  RecordingSink sink;
  read_articles(dir.path(), sink);
  EXPECT_EQ(sink.ids(), (std::vector<std::string>{"a.txt", "a0/x.txt", "b.txt", "sub/c.txt",
                                                  "sub/deeper/d.TXT", "j1"}));
  EXPECT_TRUE(sink.problems.empty());
  ASSERT_EQ(sink.articles.size(), 6u);
  EXPECT_EQ(sink.articles[3].where.path, (dir / "sub" / "c.txt").string());
  EXPECT_EQ(sink.articles[3].article.title, "Headline of sub/c.txt");
  EXPECT_EQ(sink.articles[5].where.path, (dir / "z.jsonl").string());
  EXPECT_EQ(sink.articles[5].where.line, 1u);
}

TEST(ReadArticlesTest, SingleFileIdIsItsName) {
  TempDir dir;
  write_file(dir / "sub" / "story.txt", "Headline\n\nBody.");
  RecordingSink sink;
  read_articles(dir / "sub/story.txt", sink);
  EXPECT_EQ(sink.ids(), std::vector<std::string>{"story.txt"});
}

TEST(ReadArticlesTest, FileNameThatIsNotUtf8) {
  TempDir dir;
  write_file(dir / "caf\xE9.txt", "Headline\n\nBody.");
  RecordingSink sink;
  read_articles(dir.path(), sink);
  EXPECT_EQ(sink.ids(), std::vector<std::string>{"caf%E9.txt"});
}

// Names that differ only where they are not UTF-8 stay apart, in ids and
// in the places reported; names that are UTF-8 keep their own spelling.
TEST(ReadArticlesTest, FileNamesThatDifferOnlyInInvalidBytesKeepTheirOwnIds) {
  TempDir dir;
  for (const std::string& name : {"a\xFF.txt"s, "a\xFE.txt"s, "a" + kFffd + ".txt", "100%.txt"s,
                                  "sub\xE9/b.txt"s, "sub%E9/b.txt"s}) {
    write_file(dir / name, "Headline\n\nBody.");
  }
  write_file(dir / "a\xFF\xFF.txt", "Binary\0"s);

  RecordingSink sink;
  read_articles(dir.path(), sink);
  EXPECT_EQ(sink.ids(), (std::vector<std::string>{"100%.txt", "a" + kFffd + ".txt", "a%FE.txt",
                                                  "a%FF.txt", "sub%25E9/b.txt", "sub%E9/b.txt"}));
  ASSERT_EQ(sink.articles.size(), 6u);
  EXPECT_EQ(sink.articles[3].where.path, (dir / "a%FF.txt").string());
  ASSERT_EQ(sink.problems.size(), 1u);
  EXPECT_EQ(sink.problems[0].where.path, (dir / "a%FF%FF.txt").string());
}

TEST(ReadArticlesTest, BadRootThrowsInputError) {
  TempDir dir;
  write_file(dir / "notes.md", "Not an article.");
  for (const fs::path& root : {dir / "missing", dir / "missing.txt", dir / "notes.md"}) {
    RecordingSink sink;
    try {
      read_articles(root, sink);
      ADD_FAILURE() << "no InputError for " << root;
    } catch (const InputError& error) {
      EXPECT_TRUE(contains(error.what(), root.string())) << error.what();
    }
  }
}

TEST(ReadArticlesTest, SymlinkLoopsAreNotFollowed) {
  TempDir dir;
  write_file(dir / "a.txt", "A\n\nBody.");
  write_file(dir / "sub" / "b.txt", "B\n\nBody.");
  fs::create_directory_symlink("..", dir / "sub" / "loop");
  fs::create_directory_symlink(".", dir / "self");
  fs::create_directory_symlink(dir.path(), dir / "absolute");

  RecordingSink sink;
  read_articles(dir.path(), sink);
  EXPECT_EQ(sink.ids(), (std::vector<std::string>{"a.txt", "sub/b.txt"}));
  EXPECT_TRUE(sink.problems.empty());
}

// Links to files are followed where they stay inside the folders given: a
// link to anywhere else is named, and what it points to is not read. Links
// to folders inside are left out, as their articles are read where they
// are.
TEST(ReadArticlesTest, LinksAreFollowedOnlyInsideTheFoldersGiven) {
  TempDir dir;
  const fs::path corpus = dir / "corpus";
  write_file(corpus / "a.txt", "A\n\nBody.");
  write_file(corpus / "sub" / "b.txt", "B\n\nBody.");
  write_file(dir / "passwd", "root:x:0:0:root:/root:/bin/bash\n");
  write_file(dir / "other" / "c.txt", "C\n\nBody.");
  fs::create_symlink("sub/b.txt", corpus / "inside.txt");
  fs::create_directory_symlink("sub", corpus / "inside-folder");
  fs::create_directory_symlink("..", corpus / "sub" / "loop");
  fs::create_symlink(dir / "passwd", corpus / "passwd.txt");
  fs::create_symlink("../../passwd", corpus / "sub" / "relative.txt");
  fs::create_symlink(dir / "other" / "c.txt", corpus / "other.txt");
  fs::create_directory_symlink(dir / "other", corpus / "other-folder");
  fs::create_directory_symlink("/", corpus / "root");

  RecordingSink sink;
  read_articles(corpus, sink);
  EXPECT_EQ(sink.ids(), (std::vector<std::string>{"a.txt", "inside.txt", "sub/b.txt"}));
  std::vector<std::string> left_out;
  for (const ReadProblem& problem : sink.problems) {
    EXPECT_EQ(problem.reason, "a link to outside the folders given");
    EXPECT_TRUE(problem.skipped);
    EXPECT_TRUE(problem.read_whole);
    left_out.push_back(problem.where.path);
  }
  EXPECT_EQ(left_out, (std::vector<std::string>{
                          (corpus / "other-folder").string(), (corpus / "other.txt").string(),
                          (corpus / "passwd.txt").string(), (corpus / "root").string(),
                          (corpus / "sub" / "relative.txt").string()}));

  // A link to a file in another folder given is followed; one to that
  // folder is left out, its articles read there.
  RecordingSink both;
  read_articles(corpus, both, {dir / "other"});
  EXPECT_EQ(both.ids(),
            (std::vector<std::string>{"a.txt", "inside.txt", "other.txt", "sub/b.txt"}));
  EXPECT_EQ(both.problems.size(), 3u);
}

TEST(ReadArticlesTest, UnreadableEntriesAreReportedAndSkipped) {
  TempDir dir;
  write_file(dir / "a.txt", "A\n\nBody.");
  fs::create_symlink(dir / "nowhere.txt", dir / "b-dangling.txt");
  ASSERT_EQ(mkfifo((dir / "c-fifo.txt").c_str(), 0644), 0);
  fs::create_directory(dir / "d-folder.txt");
  write_file(dir / "e.txt", "E\n\nBody.");

  RecordingSink sink;
  read_articles(dir.path(), sink);
  EXPECT_EQ(sink.ids(), (std::vector<std::string>{"a.txt", "e.txt"}));
  ASSERT_EQ(sink.problems.size(), 2u);
  EXPECT_EQ(sink.problems[0].where.path, (dir / "b-dangling.txt").string());
  EXPECT_TRUE(contains(sink.problems[0].reason, "cannot open")) << sink.problems[0].reason;
  EXPECT_TRUE(sink.problems[0].skipped);
  EXPECT_EQ(sink.problems[1].where.path, (dir / "c-fifo.txt").string());
  EXPECT_EQ(sink.problems[1].reason, "not a regular file");
}

TEST(ReadArticlesTest, PermissionDenied) {
  if (geteuid() == 0) GTEST_SKIP() << "root reads files whatever their permissions";
  TempDir dir;
  write_file(dir / "a.txt", "A\n\nBody.");
  write_file(dir / "b.txt", "B\n\nBody.");
  write_file(dir / "c" / "d.txt", "D\n\nBody.");
  write_file(dir / "e.txt", "E\n\nBody.");
  fs::permissions(dir / "b.txt", fs::perms::none);
  fs::permissions(dir / "c", fs::perms::none);
  // TempDir cannot clear out a folder it may not enter.
  struct RestoreOnExit {
    fs::path folder;
    ~RestoreOnExit() {
      std::error_code ignored;
      fs::permissions(folder, fs::perms::owner_all, fs::perm_options::add, ignored);
    }
  } restore{dir / "c"};

  RecordingSink sink;
  read_articles(dir.path(), sink);
  EXPECT_EQ(sink.ids(), (std::vector<std::string>{"a.txt", "e.txt"}));
  ASSERT_EQ(sink.problems.size(), 2u);
  EXPECT_EQ(sink.problems[0].where.path, (dir / "b.txt").string());
  EXPECT_EQ(sink.problems[1].where.path, (dir / "c").string());
  EXPECT_TRUE(contains(sink.problems[1].reason, "cannot read folder"));
}

TEST(ReadArticlesTest, StopsWhenTheSinkSaysSo) {
  TempDir dir;
  std::string jsonl;
  for (int i = 0; i < 5; ++i) {
    const std::string number = std::to_string(i);
    write_file(dir / "folder" / (number + ".txt"), "Title\n\nBody.");
    jsonl += R"({"id": "j)";
    jsonl += number + R"(", "title": "T", "body": "B"})"
                      "\n";
  }
  write_file(dir / "corpus.jsonl", jsonl);
  for (const fs::path& root : {dir / "folder", dir / "corpus.jsonl", dir.path()}) {
    for (std::size_t stop_after : {0, 2}) {
      RecordingSink sink(stop_after);
      read_articles(root, sink);
      EXPECT_EQ(sink.articles.size(), stop_after) << root;
    }
  }
}

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

std::string numbered_lines(int count) {
  std::string contents;
  for (int i = 1; i <= count; ++i) {
    // Varied text, so that the compressed stream is long enough to cut.
    contents += R"({"id": "n)" + std::to_string(i) + R"(", "title": "Title )" +
                std::to_string(i * 7919 % 10007) + R"(", "body": "Body )" +
                std::to_string(i * 104729 % 1000003) + " " + std::to_string(i * i) + "\"}\n";
  }
  return contents;
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
}  // namespace quarry
