#include "quarry/input/article_reader.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "quarry/error.h"
#include "tests/article_sink.h"
#include "tests/test_util.h"

namespace quarry::testing {
namespace {

namespace fs = std::filesystem;
using namespace std::string_literals;

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

}  // namespace
}  // namespace quarry::testing
