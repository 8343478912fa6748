// Helpers shared by the test suites: fresh temporary folders, indexes of
// test articles, waiting without timing; and, from headers of their own
// included here, programs on a terminal (pty.h) and servers on loopback
// ports (loopback.h).
#ifndef QUARRY_TESTS_TEST_UTIL_H_
#define QUARRY_TESTS_TEST_UTIL_H_

#include <gtest/gtest.h>
#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "quarry/index/index_writer.h"
#include "quarry/input/article.h"
#include "quarry/search/searcher.h"
#include "tests/child_process.h"
#include "tests/loopback.h"
#include "tests/pty.h"

namespace quarry::testing {

// A fresh, empty folder removed (with its contents) when this goes out of scope.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

// Articles as a JSON Lines corpus, one object per line, every field set
// (the language when there is one).
std::string to_json_lines(const std::vector<Article>& articles);

// Two reports of one event, each saying its language: "strike-en" in
// English and "strike-fr" in French. Both hold "trains", a word of both
// languages.
std::vector<Article> english_and_french_articles();

// Two reports of one meeting, "lighthouse-old" (2024-04-01) and
// "lighthouse-new" (2024-04-29, longer, so a little less relevant to
// "lighthouse"), and others without the word: ranked by relevance the older
// comes first; with a week's recency as of 2024-05-01, the newer.
std::vector<Article> recency_articles();

// Expects every field of `actual` to equal that of `expected`, each field
// checked and reported on its own, so that a failure names the field.
void expect_same_article(const Article& actual, const Article& expected);

// Indexes `articles`, written as dir/articles.jsonl, into dir/index (see
// index_path), with `synonyms` as the synonym list when not empty.
IndexReport index_articles(const TempDir& dir, const std::vector<Article>& articles,
                           const std::string& synonyms = "");

// Where index_articles puts the index.
std::string index_path(const TempDir& dir);

// Writes `contents` to `path`, creating parent folders.
void write_file(const std::filesystem::path& path, const std::string& contents);

// write_file, then open to its owner alone (mode 0600), as a file of secrets
// must be.
void write_private_file(const std::filesystem::path& path, const std::string& contents);

// The arguments of a quiet quarry-index run: `options`, then `inputs`,
// indexed into `db`.
std::vector<std::string> index_args(const std::filesystem::path& db,
                                    const std::vector<std::filesystem::path>& inputs,
                                    const std::vector<std::string>& options = {});

// The contents of the file at `path`; "" when it cannot be read.
std::string read_file(const std::filesystem::path& path);

// The names of what `folder` holds.
std::set<std::string> names_in(const std::filesystem::path& folder);

// The lines of `text`, without their line breaks.
std::vector<std::string> lines_of(const std::string& text);

// The line of a program's messages `err` about `where` (a path, or a
// path:line), or "" when none is.
std::string line_naming(const std::string& err, const std::string& where);

// The ids of `result`'s hits, sorted.
std::vector<std::string> sorted_ids(const SearchResult& result);

// The ids of the first 100 hits the quarry program finds in `db` for
// `query`; a failed search fails the test.
std::set<std::string> hit_ids(const std::filesystem::path& db, const std::string& query);

// How long a bounded operation may take here that takes `idle` on an idle
// machine: more with sanitizers, which slow a program several times, and
// on cores shared with other work. For telling a slow answer from a hang
// or a blow-up, never for measuring speed.
std::chrono::duration<double> time_allowed(std::chrono::duration<double> idle);

// Whether `done` turns true within time_allowed(`patience`), looking every
// `interval`: for waiting on another thread or process, never for timing.
bool eventually(const std::function<bool()>& done,
                std::chrono::seconds patience = std::chrono::seconds(10),
                std::chrono::milliseconds interval = std::chrono::milliseconds(20));

// How many articles of `db` match `query`, as a reader opening it now
// finds: 0 while there is no index yet.
std::size_t matches(const std::filesystem::path& db, const std::string& query);

// A query for the article `id` alone.
std::string id_query(const std::string& id);

// A suite whose tests only read one index, built once before the first of
// them and removed after the last. SetUpTestSuite indexes the sample
// articles of corpus/; a suite that needs others declares its own, which
// calls one of the index_* functions below. Tests that change an index
// build their own (index_articles above).
class SharedIndexTest : public ::testing::Test {
 public:
  static void SetUpTestSuite();
  static void TearDownTestSuite();

 protected:
  // The suite's folder, created on first use; the index is "index" in it.
  static const TempDir& suite_dir();
  static std::string db_path() { return index_path(suite_dir()); }
  // A searcher of the index, opened when it was built.
  static Searcher& searcher() { return *searcher_; }

  // Builds the suite's index of `articles`, as index_articles does.
  static IndexReport index_suite_articles(const std::vector<Article>& articles,
                                          const std::string& synonyms = "");
  // Builds the suite's index of the files and folders at `paths`.
  static IndexReport index_suite_paths(const std::vector<std::string>& paths);

 private:
  static void open_searcher();

  static std::unique_ptr<TempDir> dir_;
  static std::unique_ptr<Searcher> searcher_;
};

// The code points of valid UTF-8 text, in which the API's highlight
// offsets count.
std::u32string to_u32(const std::string& utf8);

// A sentence of a language written without spaces between words, with
// words and runs of words a reader would search it for, each written as in
// the sentence: the sentence's dictionary segmentation cuts some of them
// apart or holds them inside a longer word.
struct ScriptSample {
  std::string language;  // in English, lower case
  std::string sentence;
  std::vector<std::string> words;
  std::string phrase;  // a long run of the sentence, without spaces
};

// Thai, Lao, Khmer, Myanmar, Chinese and Japanese.
const std::vector<ScriptSample>& script_samples();

}  // namespace quarry::testing

#endif  // QUARRY_TESTS_TEST_UTIL_H_
