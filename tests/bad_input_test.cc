// Bad input, to the indexer and to the searcher: each is handled without a
// crash or a hang, reported with its location, and everything else works.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "quarry/error.h"
#include "quarry/index/index_writer.h"
#include "quarry/input/article_reader.h"
#include "quarry/search/searcher.h"
#include "tests/fault_util.h"
#include "tests/table_case.h"
#include "tests/test_util.h"

namespace quarry::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace std::string_literals;

std::string article(const std::string& title, const std::string& word) {
  return title + "\n\nThis article is about the " + word + " and nothing else.\n";
}

// Builds `depth` nested folders named `name` below `folder` relative to
// each other, so that the whole path may exceed PATH_MAX, and writes
// `file` with `contents` at the bottom.
void write_deep(const fs::path& folder, int depth, const std::string& name, const std::string& file,
                const std::string& contents) {
  int fd = open(folder.c_str(), O_RDONLY | O_DIRECTORY);
  ASSERT_GE(fd, 0);
  for (int i = 0; i < depth; ++i) {
    ASSERT_EQ(mkdirat(fd, name.c_str(), 0755), 0) << i;
    const int next = openat(fd, name.c_str(), O_RDONLY | O_DIRECTORY);
    close(fd);
    ASSERT_GE(next, 0);
    fd = next;
  }
  const int out = openat(fd, file.c_str(), O_WRONLY | O_CREAT, 0644);
  close(fd);
  ASSERT_GE(out, 0);
  ASSERT_EQ(write(out, contents.data(), contents.size()), static_cast<ssize_t>(contents.size()));
  close(out);
}

// One folder holding every kind of bad input beside good articles: each bad
// one is named with its location, the good ones are all indexed.
TEST(BadInputTest, EveryBadInputIsNamedAndEverythingElseIndexed) {
  TempDir dir;
  const fs::path corpus = dir / "corpus";
  write_file(corpus / "good.txt", article("Good", "aardvark"));
  write_file(corpus / "empty.txt", "");
  write_file(corpus / "blank.txt", " \n\t\n");
  write_file(corpus / "binary.txt",
             "\x7f"
             "ELF\x02\x01\x01\0\0\0\0 bat \0\0"s);
  write_file(corpus / "nul.txt", "Nul bytes\n\nA gecko\0 hides."s);
  write_file(corpus / "overlong.txt",
             "Overlong\n\nA \xC0\xAF \xE0\x80\xAF \xF0\x80\x80\xAF\xF8\x88\x80\x80\x80 bison.\n");
  // U+D800 and U+DFFF as CESU-8 / WTF-8 write them: not UTF-8.
  write_file(corpus / "surrogates.txt", "Surrogates\n\nA \xED\xA0\x80\xED\xBF\xBF capybara.\n");
  write_file(corpus / "latin1.txt", "Caf\xE9 cr\xE8me\n\nUn caf\xE9 pour le dingo.\n");
  write_file(corpus / "nested" / "a" / "b" / "c" / "deep.txt", article("Deep", "echidna"));
  fs::create_directory_symlink("..", corpus / "nested" / "a" / "loop");
  fs::create_symlink(corpus / "nowhere.txt", corpus / "dangling.txt");
  write_deep(corpus, 20, std::string(250, 'd'), "far.txt", article("Far", "ferret"));
  std::string lines;
  lines += R"({"id": "j1", "title": "Narwhal", "body": "The narwhal swims."})"
           "\n";
  lines += R"({"id": "j2", "title": "Cut", "body": "never clo)"
           "\n";
  lines += R"([1, 2, 3])"
           "\n";
  lines += R"("a string")"
           "\n";
  lines += R"({"id": 7, "body": "typed wrong"})"
           "\n";
  lines += R"({"id": "j6", "body": 12})"
           "\n";
  lines += R"({"id": "j7", "body": "A \ud800 gibbon\u0000 with a \udfff."})"
           "\n";
  lines += R"({"id": "j1", "title": "Narwhal again", "body": "The narwhal dives."})"
           "\n";
  lines += "{\"id\": \"j9\", \"body\": \"raw \0 nul\"}\n"s;
  lines += R"({"id": "j10", "title": "Platypus", "body": "The platypus lays eggs."})";
  write_file(corpus / "articles.jsonl", lines);
  const fs::path db = dir / "index";
  const auto start = std::chrono::steady_clock::now();
  const RunResult indexed = run_program(QUARRY_INDEX_BIN, {"--db", db.string(), corpus.string()});
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(indexed.exit_code, 3) << indexed.err;
  EXPECT_LT(seconds, time_allowed(std::chrono::seconds(20)).count());

  const std::string jsonl = (corpus / "articles.jsonl").string();
  const struct {
    std::string where;
    std::string reason;
  } kExpected[] = {
      {(corpus / "empty.txt").string(), "empty article (skipped)"},
      {(corpus / "blank.txt").string(), "empty article (skipped)"},
      {(corpus / "binary.txt").string(), "binary file (skipped)"},
      {(corpus / "nul.txt").string(), "binary file (skipped)"},
      {(corpus / "overlong.txt").string(), "invalid UTF-8 repaired"},
      {(corpus / "surrogates.txt").string(), "invalid UTF-8 repaired (6 bytes)"},
      {(corpus / "latin1.txt").string(), "invalid UTF-8 repaired"},
      {(corpus / "dangling.txt").string(), "cannot open"},
      {jsonl + ":2", "malformed JSON"},
      {jsonl + ":3", "not a JSON object"},
      {jsonl + ":4", "not a JSON object"},
      {jsonl + ":5", "field \"id\" must be a non-empty string"},
      {jsonl + ":6", "field \"body\" must be a string"},
      {jsonl + ":7", "lone surrogate escapes repaired (2)"},
      {jsonl + ":8", "duplicate id 'j1'"},
      {jsonl + ":9", "malformed JSON"},
  };
  for (const auto& expected : kExpected) {
    const std::string line = line_naming(indexed.err, expected.where);
    EXPECT_NE(line, "") << expected.where << " not named in:\n" << indexed.err;
    EXPECT_NE(line.find(expected.reason), std::string::npos) << line;
  }
  // The folder too deep for a path is named, not followed forever.
  EXPECT_NE(indexed.err.find("File name too long"), std::string::npos) << indexed.err;
  for (const std::string& line : lines_of(indexed.err)) {
    EXPECT_TRUE(line.starts_with("quarry-index: ")) << line;
    if (line.find("File name too long") == std::string::npos) {
      EXPECT_LT(line.size(), 600u) << line.substr(0, 600);
    }
  }

  const Case<std::string, std::set<std::string>> kSearches[] = {
      {"aardvark", {"good.txt"}},
      {"bison", {"overlong.txt"}},
      {"capybara", {"surrogates.txt"}},
      {"dingo", {"latin1.txt"}},
      {"echidna", {"nested/a/b/c/deep.txt"}},
      {"narwhal", {"j1"}},
      {"swims", {"j1"}},  // the first of two duplicates is kept
      {"dives", {}},
      {"gibbon", {"j7"}},
      {"platypus", {"j10"}},  // the last line, without a line break
      {"gecko", {}},
      {"bat", {}},
  };
  for (const auto& [query, ids] : kSearches) EXPECT_EQ(hit_ids(db, query), ids) << query;
  EXPECT_EQ(Searcher(db.string()).article_count(), 8u);
  EXPECT_EQ(xapian_check(db), "");
  // std::filesystem cannot remove a tree deeper than PATH_MAX; rm can.
  run_program(find_program("rm"), {"-rf", (corpus / std::string(250, 'd')).string()});
}

TEST(BadInputTest, UnreadableFilesAreNamedEvenForRoot) {
  TempDir dir;
  const fs::path corpus = dir / "corpus";
  write_file(corpus / "a.txt", article("A", "aardvark"));
  write_file(corpus / "b.txt", article("B", "bison"));
  write_file(corpus / "c" / "d.txt", article("D", "dingo"));
  write_file(corpus / "e.jsonl", R"({"id": "e", "body": "An emu."})"
                                 "\n");
  fs::permissions(corpus / "b.txt", fs::perms::none);
  fs::permissions(corpus / "e.jsonl", fs::perms::none);
  fs::permissions(corpus / "c", fs::perms::none);
  const fs::path db = dir / "index";

  // Root reads whatever the permissions; in a user namespace of its own it
  // has no such power over the files outside, as any other user.
  std::vector<std::string> command{QUARRY_INDEX_BIN, "--db", db.string(), corpus.string()};
  if (geteuid() == 0) {
    const std::string unshare = find_program("unshare");
    if (unshare.empty()) GTEST_SKIP() << "root reads every file, and unshare is missing";
    const RunResult probe = run_program(unshare, {"--user", "/bin/true"});
    if (probe.exit_code != 0) GTEST_SKIP() << "root reads every file: " << probe.err;
    command.insert(command.begin(), {unshare, "--user"});
  }
  const std::string program = command.front();
  const RunResult indexed =
      run_program(program, std::vector<std::string>(command.begin() + 1, command.end()));
  fs::permissions(corpus / "c", fs::perms::owner_all);
  EXPECT_EQ(indexed.exit_code, 3) << indexed.err;
  EXPECT_NE(line_naming(indexed.err, (corpus / "b.txt").string()).find("Permission denied"),
            std::string::npos)
      << indexed.err;
  EXPECT_NE(line_naming(indexed.err, (corpus / "e.jsonl").string()).find("Permission denied"),
            std::string::npos)
      << indexed.err;
  EXPECT_NE(line_naming(indexed.err, (corpus / "c").string()).find("cannot read folder"),
            std::string::npos)
      << indexed.err;
  EXPECT_EQ(hit_ids(db, "aardvark"), std::set<std::string>{"a.txt"});
  EXPECT_EQ(Searcher(db.string()).article_count(), 1u);
}

// An input that could not be read whole is no list of its articles: the
// articles it held are kept, not deleted, until a run reads it through.
// Files and folders that vanish between being listed and being read.
class VanishingSink : public ArticleSink {
 public:
  explicit VanishingSink(std::vector<fs::path> doomed) : doomed_(std::move(doomed)) {}
  void on_article(Article&& article, const SourceLocation&) override {
    ids.push_back(article.id);
    for (const fs::path& path : doomed_) fs::remove_all(path);
    doomed_.clear();
  }
  void on_problem(const ReadProblem& problem) override { problems.push_back(problem); }

  std::vector<std::string> ids;
  std::vector<ReadProblem> problems;

 private:
  std::vector<fs::path> doomed_;
};

TEST(BadInputTest, FilesThatVanishMidRunAreNamed) {
  TempDir dir;
  write_file(dir / "a.txt", article("A", "aardvark"));
  write_file(dir / "b.txt", article("B", "bison"));
  write_file(dir / "c" / "d.txt", article("D", "dingo"));
  write_file(dir / "e.txt", article("E", "emu"));
  VanishingSink sink({dir / "b.txt", dir / "c"});
  read_articles(dir.path(), sink);
  EXPECT_EQ(sink.ids, (std::vector<std::string>{"a.txt", "e.txt"}));
  ASSERT_EQ(sink.problems.size(), 2u);
  EXPECT_EQ(sink.problems[0].where.path, (dir / "b.txt").string());
  EXPECT_NE(sink.problems[0].reason.find("No such file"), std::string::npos);
  EXPECT_EQ(sink.problems[1].where.path, (dir / "c").string());
}

TEST(BadInputTest, DbPathWithATrailingSlashIsTheSameIndex) {
  TempDir dir;
  write_file(dir / "a.txt", article("A", "aardvark"));
  const std::string db = (dir / "index").string() + "/";
  for (int run = 0; run < 2; ++run) {
    const RunResult indexed = run_program(QUARRY_INDEX_BIN, {"--db", db, (dir / "a.txt").string()});
    EXPECT_EQ(indexed.exit_code, 0) << indexed.err;
  }
  EXPECT_EQ(hit_ids(dir / "index", "aardvark"), std::set<std::string>{"a.txt"});
}

std::string index_summary(const std::string& counts) { return "quarry-index: " + counts + " in "; }

// Runs quarry-index with `args` again, over input that has not changed: it
// succeeds, says `counts` with the problems "as before", and does not
// repeat the message holding `not_again`.
void expect_rerun_as_before(const std::vector<std::string>& args, const std::string& counts,
                            const std::string& not_again) {
  const RunResult again = run_program(QUARRY_INDEX_BIN, args);
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(again.err.find(not_again), std::string::npos) << again.err;
  EXPECT_NE(again.err.find(index_summary(counts + ", as before,")), std::string::npos) << again.err;
}

// Names that differ only in bytes that are not UTF-8 are three articles,
// each named apart, and a second run finds them unchanged.
TEST(BadInputTest, FileNamesThatDifferOnlyInInvalidBytesAreArticlesOfTheirOwn) {
  TempDir dir;
  const fs::path corpus = dir / "corpus";
  write_file(corpus / "a\xFF.txt", article("FF", "aardvark"));
  write_file(corpus / "a\xFE.txt", article("FE", "bison"));
  write_file(corpus / "a\xEF\xBF\xBD.txt", article("FFFD", "capybara"));
  write_file(corpus / "b\xFF.txt", "");
  write_file(corpus / "b\xFE.txt", "");
  const fs::path db = dir / "index";
  const std::vector<std::string> args{"--db", db.string(), corpus.string()};
  const RunResult first = run_program(QUARRY_INDEX_BIN, args);
  EXPECT_EQ(first.exit_code, 3) << first.err;
  EXPECT_NE(first.err.find(index_summary("3 added, 0 updated, 0 unchanged, 0 deleted, 2 skipped")),
            std::string::npos)
      << first.err;
  EXPECT_NE(line_naming(first.err, (corpus / "b%FF.txt").string()), "") << first.err;
  EXPECT_NE(line_naming(first.err, (corpus / "b%FE.txt").string()), "") << first.err;
  EXPECT_EQ(hit_ids(db, "aardvark"), std::set<std::string>{"a%FF.txt"});
  EXPECT_EQ(hit_ids(db, "bison"), std::set<std::string>{"a%FE.txt"});
  EXPECT_EQ(hit_ids(db, "capybara"), std::set<std::string>{"a\xEF\xBF\xBD.txt"});

  expect_rerun_as_before(args, "0 added, 0 updated, 3 unchanged, 0 deleted, 2 skipped", "b%FF.txt");
}

// Of two articles with one id the first is kept; the second is named once,
// and a run over the same file rewrites nothing and succeeds.
TEST(BadInputTest, DuplicateIdsAreReportedOnceAndTheFirstKept) {
  TempDir dir;
  const fs::path corpus = dir / "news.jsonl";
  write_file(corpus, R"({"id": "x", "title": "First", "body": "The aardvark digs."})"
                     "\n"
                     R"({"id": "y", "title": "Other", "body": "The bison grazes."})"
                     "\n"
                     R"({"id": "x", "title": "Second", "body": "The capybara swims."})"
                     "\n");
  const fs::path more = dir / "more.jsonl";
  write_file(more, R"({"id": "y", "title": "Again", "body": "The dingo howls."})"
                   "\n");
  const fs::path db = dir / "index";
  const std::vector<std::string> args{"--db", db.string(), corpus.string(), more.string()};
  const RunResult first = run_program(QUARRY_INDEX_BIN, args);
  EXPECT_EQ(first.exit_code, 3) << first.err;
  const std::vector<std::string> lines = lines_of(first.err);
  ASSERT_EQ(lines.size(), 3u) << first.err;
  EXPECT_EQ(lines[0], "quarry-index: " + corpus.string() + ":3: duplicate id 'x', first at " +
                          corpus.string() + ":1 (skipped)");
  EXPECT_EQ(lines[1], "quarry-index: " + more.string() + ":1: duplicate id 'y', first at " +
                          corpus.string() + ":2 (skipped)");
  EXPECT_TRUE(
      lines[2].starts_with(index_summary("2 added, 0 updated, 0 unchanged, 0 deleted, 2 skipped")))
      << lines[2];
  EXPECT_EQ(hit_ids(db, "aardvark"), std::set<std::string>{"x"});
  EXPECT_EQ(hit_ids(db, "bison"), std::set<std::string>{"y"});
  EXPECT_EQ(hit_ids(db, "capybara OR dingo"), std::set<std::string>{});

  expect_rerun_as_before(args, "0 added, 0 updated, 2 unchanged, 0 deleted, 2 skipped",
                         "duplicate");
}

// A link inside the folders given is read; one to outside them is named,
// and what it points to is not indexed.
TEST(BadInputTest, ALinkToOutsideTheFoldersGivenIsNamedAndNotRead) {
  TempDir dir;
  const fs::path corpus = dir / "corpus";
  const fs::path other = dir / "other";
  write_file(corpus / "a.txt", article("A", "aardvark"));
  write_file(other / "b.txt", article("B", "bison"));
  write_file(dir / "secret" / "passwd", "root:x:0:0:root:/root:/bin/bash\n");
  fs::create_symlink(dir / "secret" / "passwd", corpus / "passwd.txt");
  fs::create_directory_symlink(dir / "secret", corpus / "secret");
  fs::create_symlink("a.txt", corpus / "also.txt");
  fs::create_symlink(other / "b.txt", corpus / "linked.txt");
  const fs::path db = dir / "index";
  const std::vector<std::string> args{"--db", db.string(), corpus.string(), other.string()};
  const RunResult first = run_program(QUARRY_INDEX_BIN, args);
  EXPECT_EQ(first.exit_code, 3) << first.err;
  for (const fs::path& link : {corpus / "passwd.txt", corpus / "secret"}) {
    EXPECT_EQ(line_naming(first.err, link.string()),
              "quarry-index: " + link.string() + ": a link to outside the folders given (skipped)")
        << first.err;
  }
  // A link and its file are one article twice, which quarry shows once.
  Searcher searcher(db.string());
  auto ids_of = [&](const std::string& query) {
    std::set<std::string> ids;
    for (const Hit& hit : searcher.search(query).hits) ids.insert(hit.id);
    return ids;
  };
  EXPECT_EQ(ids_of("root"), std::set<std::string>{});
  EXPECT_EQ(ids_of("aardvark"), (std::set<std::string>{"a.txt", "also.txt"}));
  EXPECT_EQ(ids_of("bison"), (std::set<std::string>{"b.txt", "linked.txt"}));
  EXPECT_EQ(searcher.article_count(), 4u);

  expect_rerun_as_before(args, "0 added, 0 updated, 4 unchanged, 0 deleted, 2 skipped",
                         "a link to outside");
}

}  // namespace
}  // namespace quarry::testing
