// An input that could not be read whole is no list of its articles: the
// articles it held are kept, not deleted, until a run reads it through.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "quarry/index/index_writer.h"
#include "quarry/search/searcher.h"
#include "tests/article_sink.h"
#include "tests/test_util.h"

namespace quarry::testing {
namespace {

namespace fs = std::filesystem;

std::string article(const std::string& title, const std::string& word) {
  return title + "\n\nThis article is about the " + word + " and nothing else.\n";
}

class KeepTest : public ::testing::Test {
 protected:
  // Indexes the corpus (a folder or a file) into the test's index.
  IndexReport index() {
    IndexConfig config;
    config.db_path = (dir_ / "index").string();
    return index_paths(config, {corpus_.string()});
  }
  std::size_t article_count() { return Searcher((dir_ / "index").string()).article_count(); }
  std::set<std::string> hits(const std::string& query) { return hit_ids(dir_ / "index", query); }

  // Makes the corpus a folder of two articles, a.txt about an aardvark and
  // b.txt about a bison, and indexes it.
  void index_aardvark_and_bison() {
    corpus_ = dir_ / "corpus";
    write_file(corpus_ / "a.txt", article("A", "aardvark"));
    write_file(corpus_ / "b.txt", article("B", "bison"));
    ASSERT_EQ(index().added, 2u);
  }

  // Writes `count` JSON lines, ids n1.., the last one about a wombat, as
  // the corpus file, gzipped when it ends in .gz.
  void write_lines(int count) {
    const std::string contents = numbered_lines(count, " wombat");
    if (corpus_.extension() == ".gz") {
      write_gzip(corpus_, contents);
    } else {
      write_file(corpus_, contents);
    }
  }

  // Makes the corpus the file `name` of `count` JSON lines, and indexes it.
  void index_lines(const std::string& name, int count) {
    corpus_ = dir_ / name;
    write_lines(count);
    ASSERT_EQ(index().added, static_cast<std::size_t>(count));
  }

  // Expects the damaged corpus to be named and every article indexed before
  // to be kept and found.
  void expect_kept(const IndexReport& report, std::size_t count, const std::string& query,
                   const std::string& id) {
    EXPECT_GT(report.skipped, 0u);
    EXPECT_EQ(report.deleted, 0u);
    ASSERT_EQ(report.kept.size(), 1u);
    EXPECT_EQ(report.kept.begin()->first, fs::weakly_canonical(corpus_).string());
    EXPECT_EQ(article_count(), count);
    EXPECT_EQ(hits(query), std::set<std::string>{id});
  }

  TempDir dir_;
  fs::path corpus_;
};

TEST_F(KeepTest, TruncatedGzipKeepsItsArticles) {
  ASSERT_NO_FATAL_FAILURE(index_lines("c.jsonl.gz", 2000));
  fs::resize_file(corpus_, fs::file_size(corpus_) / 2);
  const IndexReport damaged = index();
  expect_kept(damaged, 2000, "wombat", "n2000");
  EXPECT_EQ(damaged.kept.begin()->second, 2000u - damaged.unchanged);
  // Read whole again, it is the list of its articles.
  write_lines(1500);
  const IndexReport fixed = index();
  EXPECT_EQ(fixed.deleted, 500u);
  EXPECT_TRUE(fixed.kept.empty());
  EXPECT_EQ(article_count(), 1500u);
}

TEST_F(KeepTest, CorruptGzipKeepsItsArticles) {
  ASSERT_NO_FATAL_FAILURE(index_lines("c.jsonl.gz", 2000));
  std::string bytes = read_file(corpus_);
  for (std::size_t i = 20; i < 50; ++i) bytes[i] ^= 0x5A;
  write_file(corpus_, bytes);
  expect_kept(index(), 2000, "wombat", "n2000");
  write_lines(1500);
  EXPECT_EQ(index().deleted, 500u);
  EXPECT_EQ(article_count(), 1500u);
}

TEST_F(KeepTest, MalformedJsonLineKeepsTheArticlesOfItsFile) {
  ASSERT_NO_FATAL_FAILURE(index_lines("c.jsonl", 3));
  std::vector<std::string> lines = lines_of(read_file(corpus_));
  ASSERT_EQ(lines.size(), 3u);
  write_file(corpus_, lines[0] + "\n" + "{\"id\": \"n2\", \"body\": \n" + lines[2] + "\n");
  expect_kept(index(), 3, "wombat", "n3");
  write_lines(2);
  EXPECT_EQ(index().deleted, 1u);
  EXPECT_EQ(article_count(), 2u);
}

TEST_F(KeepTest, TxtThatTurnsBinaryKeepsItsArticle) {
  ASSERT_NO_FATAL_FAILURE(index_aardvark_and_bison());
  write_file(corpus_ / "b.txt", article("B", "bison") + std::string(1, '\0'));
  expect_kept(index(), 2, "bison", "b.txt");
  fs::remove(corpus_ / "b.txt");
  EXPECT_EQ(index().deleted, 1u);
  EXPECT_EQ(hits("bison"), std::set<std::string>{});
}

// An empty file was read whole: the article it held is gone.
TEST_F(KeepTest, TxtThatTurnsEmptyLosesItsArticle) {
  ASSERT_NO_FATAL_FAILURE(index_aardvark_and_bison());
  write_file(corpus_ / "b.txt", "");
  const IndexReport emptied = index();
  EXPECT_EQ(emptied.skipped, 1u);
  EXPECT_EQ(emptied.deleted, 1u);
  EXPECT_TRUE(emptied.kept.empty());
  EXPECT_EQ(hits("bison"), std::set<std::string>{});
}

// A link to itself cannot be opened, whoever runs the test, root included.
TEST_F(KeepTest, UnreadableFileKeepsItsArticle) {
  ASSERT_NO_FATAL_FAILURE(index_aardvark_and_bison());
  fs::remove(corpus_ / "b.txt");
  fs::create_symlink("b.txt", corpus_ / "b.txt");
  expect_kept(index(), 2, "bison", "b.txt");
  fs::remove(corpus_ / "b.txt");
  EXPECT_EQ(index().deleted, 1u);
  EXPECT_EQ(article_count(), 1u);
}

}  // namespace
}  // namespace quarry::testing
