// Runs the real quarry-index and quarry programs, as a user or a script would,
// and checks their output and exit codes against the documented contract.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xapian.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "tests/child_process.h"
#include "tests/fault_util.h"
#include "tests/test_util.h"

namespace quarry::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using Ids = std::set<std::string>;

// The sample articles, named by a word only each of them has. All three have
// "Ederson", "penalty", "Herrera", "dressing room" and "2-1"; kKompany and
// kAmazon also have "Portuguese".
constexpr char kRaucous[] = "000_574c536d11495eda.txt";
constexpr char kKompany[] = "001_371a5a90d3b1c93b.txt";
constexpr char kAmazon[] = "002_d1cfeb7c7497b831.txt";

const Ids kAllArticles{kRaucous, kKompany, kAmazon};

RunResult run_index(const fs::path& db, const std::vector<std::string>& paths) {
  std::vector<std::string> args{"--db", db.string()};
  args.insert(args.end(), paths.begin(), paths.end());
  return run_program(QUARRY_INDEX_BIN, args);
}

// The sample articles are one story: these tests see each of them
// (story_cli_test.cc shows stories).
RunResult run_quarry(const fs::path& db, const std::vector<std::string>& args,
                     const std::string& input = "") {
  std::vector<std::string> all{"--db", db.string(), "--collapse", "none"};
  all.insert(all.end(), args.begin(), args.end());
  return run_program(QUARRY_BIN, all, input);
}

std::string summary(const std::string& counts) { return "quarry-index: " + counts + " in "; }

std::vector<std::string> ranked_ids(const json& result) {
  std::vector<std::string> ids;
  for (const json& hit : result.at("hits")) ids.push_back(hit.at("id").get<std::string>());
  return ids;
}

Ids id_set(const json& result) {
  std::vector<std::string> ids = ranked_ids(result);
  return Ids(ids.begin(), ids.end());
}

std::u32string ascii_lower(std::u32string text) {
  for (char32_t& c : text) {
    if (c >= U'A' && c <= U'Z') c += U'a' - U'A';
  }
  return text;
}

// The highlighted words of a hit, lower-cased, checked to lie in the snippet.
std::vector<std::u32string> highlighted_words(const json& hit) {
  const std::u32string snippet = to_u32(hit.at("snippet").get<std::string>());
  std::vector<std::u32string> words;
  for (const json& range : hit.at("highlights")) {
    const auto begin = range.at(0).get<std::size_t>();
    const auto end = range.at(1).get<std::size_t>();
    EXPECT_LT(begin, end) << hit.dump();
    EXPECT_LE(end, snippet.size()) << hit.dump();
    if (begin >= end || end > snippet.size()) continue;
    words.push_back(ascii_lower(snippet.substr(begin, end - begin)));
  }
  return words;
}

// An index of the sample corpus, shared by the tests that only search it.
class CliCorpusTest : public SharedIndexTest {
 protected:
  static fs::path db() { return db_path(); }

  json search_json(const std::string& query) {
    RunResult result = run_quarry(db(), {"--format", "json", query});
    EXPECT_EQ(result.exit_code, 0) << query << ": " << result.err;
    EXPECT_EQ(lines_of(result.out).size(), 1u) << result.out;
    return json::parse(result.out);
  }
};

// 1. Incremental indexing.

TEST(CliIndexTest, IndexesCorpusThenFindsItUnchanged) {
  TempDir dir;
  RunResult first = run_index(dir / "index", {QUARRY_CORPUS_DIR});
  EXPECT_EQ(first.exit_code, 0) << first.err;
  EXPECT_NE(first.err.find(summary("3 added, 0 updated, 0 unchanged, 0 deleted, 0 skipped")),
            std::string::npos)
      << first.err;
  EXPECT_EQ(first.out, "");

  RunResult second = run_index(dir / "index", {QUARRY_CORPUS_DIR});
  EXPECT_EQ(second.exit_code, 0) << second.err;
  EXPECT_NE(second.err.find(summary("0 added, 0 updated, 3 unchanged, 0 deleted, 0 skipped")),
            std::string::npos)
      << second.err;
}

TEST(CliIndexTest, ReplacesChangedArticleAndDeletesVanishedOne) {
  TempDir dir;
  const fs::path corpus = dir / "corpus";
  fs::copy(QUARRY_CORPUS_DIR, corpus);
  ASSERT_EQ(run_index(dir / "index", {corpus.string()}).exit_code, 0);

  write_file(corpus / kRaucous, "A xylophone recital at Old Trafford.\n\nNothing else happened.\n");
  fs::remove(corpus / kKompany);
  RunResult update = run_index(dir / "index", {corpus.string()});
  EXPECT_EQ(update.exit_code, 0) << update.err;
  EXPECT_NE(update.err.find(summary("0 added, 1 updated, 1 unchanged, 1 deleted, 0 skipped")),
            std::string::npos)
      << update.err;

  const struct {
    std::string query;
    Ids expected;
  } kCases[] = {
      {"xylophone", {kRaucous}},  // the new text of the changed article
      {"raucous", {}},            // its old text
      {"kompany", {}},            // only in the deleted article
      {"Portuguese", {kAmazon}},  // no longer in the deleted article
      {"Mourinho", {kAmazon}},
  };
  for (const auto& c : kCases) {
    RunResult result = run_quarry(dir / "index", {"--format", "json", c.query});
    ASSERT_EQ(result.exit_code, 0) << c.query << ": " << result.err;
    EXPECT_EQ(id_set(json::parse(result.out)), c.expected) << c.query;
  }
}

// 1b. What cannot be indexed at all is a usage error, and writes nothing.

// How many times `needle` occurs in `text`.
std::size_t occurrences(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos;
       at = text.find(needle, at + 1)) {
    ++count;
  }
  return count;
}

TEST(CliIndexTest, APathThatCannotBeReadIsAUsageError) {
  TempDir dir;
  write_file(dir / "notes.md", "Not an article.");
  for (const fs::path& bad : {dir / "missing.txt", dir / "notes.md"}) {
    RunResult result = run_index(dir / "index", {QUARRY_CORPUS_DIR, bad.string()});
    EXPECT_EQ(result.exit_code, 2) << result.err;
    EXPECT_EQ(lines_of(result.err).size(), 1u) << result.err;
    EXPECT_TRUE(result.err.starts_with("quarry-index: " + bad.string() + ": ")) << result.err;
    EXPECT_EQ(occurrences(result.err, bad.string()), 1u) << "named once: " << result.err;
    EXPECT_FALSE(fs::exists(dir / "index")) << bad;
    EXPECT_FALSE(fs::exists(dir / "index.lock")) << bad;
  }
}

TEST(CliIndexTest, AnIndexIsNeverWrittenAmongOtherFiles) {
  TempDir dir;
  fs::copy(QUARRY_CORPUS_DIR, dir / "articles");
  RunResult result = run_index(dir / "articles", {(dir / "articles").string()});
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_NE(result.err.find("holds files that are not an index; choose an empty or new folder"),
            std::string::npos)
      << result.err;
  EXPECT_EQ(std::distance(fs::directory_iterator(dir / "articles"), fs::directory_iterator()), 3);
}

// The files of a folder, by name.
std::set<std::string> names_in(const fs::path& folder) {
  std::set<std::string> names;
  for (const fs::directory_entry& entry : fs::directory_iterator(folder)) {
    names.insert(entry.path().filename().string());
  }
  return names;
}

TEST(CliIndexTest, EmptyPathsAndPipesAreUsageErrorsThatWriteNothing) {
  TempDir dir;
  fs::create_directory(dir / "work");
  const fs::path fifo = dir / "fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const fs::path fifo_corpus = dir / "news.jsonl";
  ASSERT_EQ(mkfifo(fifo_corpus.c_str(), 0600), 0);
  // Run from a folder of its own, where an empty path would write.
  const fs::path before = fs::current_path();
  fs::current_path(dir / "work");
  const RunResult empty = run_program(QUARRY_INDEX_BIN, {"--db", "", QUARRY_CORPUS_DIR});
  const RunResult piped = run_index(fifo, {QUARRY_CORPUS_DIR});
  const RunResult piped_in = run_index(dir / "index", {fifo_corpus.string()});
  const RunResult searched = run_program(QUARRY_BIN, {"--db", "", "Ederson"});
  fs::current_path(before);
  for (const RunResult& result : {empty, piped, piped_in, searched}) {
    EXPECT_EQ(result.exit_code, 2) << result.err;
    EXPECT_EQ(lines_of(result.err).size(), 1u) << result.err;
    EXPECT_EQ(result.out, "");
  }
  EXPECT_TRUE(names_in(dir / "work").empty());
  EXPECT_EQ(names_in(dir.path()), (std::set<std::string>{"fifo", "news.jsonl", "work"}));
  EXPECT_TRUE(fs::is_fifo(fifo));
  EXPECT_TRUE(fs::is_fifo(fifo_corpus));
}

TEST(CliIndexTest, AnEmptyFolderWarnsAndOtherFilesAreNamedOnce) {
  TempDir dir;
  fs::create_directories(dir / "empty");
  // Nothing to make a new index of: refused, and nothing is left behind.
  RunResult nothing = run_index(dir / "new-index", {(dir / "empty").string()});
  EXPECT_EQ(nothing.exit_code, 2) << nothing.err;
  EXPECT_EQ(nothing.err, "quarry-index: nothing to index in " + (dir / "empty").string() +
                             ": no .txt, .jsonl or .jsonl.gz file; no index was made at " +
                             (dir / "new-index").string() + "\n");
  EXPECT_FALSE(fs::exists(dir / "new-index"));
  EXPECT_FALSE(fs::exists(dir / "new-index.lock"));
  // Beside articles, or into an index that exists, an empty folder is named.
  ASSERT_EQ(run_index(dir / "index", {QUARRY_CORPUS_DIR}).exit_code, 0);
  RunResult empty = run_index(dir / "index", {(dir / "empty").string()});
  EXPECT_EQ(empty.exit_code, 3) << empty.err;
  EXPECT_NE(empty.err.find((dir / "empty").string() +
                           ": no .txt, .jsonl or .jsonl.gz file in this folder (skipped)"),
            std::string::npos)
      << empty.err;

  fs::copy(QUARRY_CORPUS_DIR, dir / "mixed");
  for (const char* other : {"a.md", "b.md", "c.html", "d.csv"}) {
    write_file(dir / "mixed" / other, "Not an article.");
  }
  RunResult mixed = run_index(dir / "mixed-index", {(dir / "mixed").string()});
  EXPECT_EQ(mixed.exit_code, 0) << mixed.err;
  EXPECT_NE(mixed.err.find("quarry-index: skipped 4 files of unknown kinds: .md ×2, .csv, .html\n"),
            std::string::npos)
      << mixed.err;
  EXPECT_EQ(occurrences(mixed.err, ".md"), 1u) << mixed.err;
  // Quiet runs still say so: the files were left out.
  RunResult quiet = run_index(dir / "quiet-index", {"--quiet", (dir / "mixed").string()});
  EXPECT_EQ(quiet.err, "quarry-index: skipped 4 files of unknown kinds: .md ×2, .csv, .html\n");
}

TEST(CliIndexTest, ADateThatIsNoDateIsDroppedWithAWarning) {
  TempDir dir;
  write_file(dir / "news.jsonl",
             R"({"id": "a", "title": "Milk", "body": "Milk prices.", "date": "yesterday"})"
             "\n");
  RunResult result = run_index(dir / "index", {(dir / "news.jsonl").string()});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.err.find((dir / "news.jsonl").string() +
                            ":1: date 'yesterday' is not an ISO 8601 date (YYYY-MM-DD): the "
                            "article is kept without it\n"),
            std::string::npos)
      << result.err;
  const json found = json::parse(run_quarry(dir / "index", {"--format", "json", "milk"}).out);
  ASSERT_EQ(found.at("hits").size(), 1u);
  EXPECT_FALSE(found.at("hits")[0].contains("date")) << found.dump();
}

// A value past its field's limit is cut, and a message quotes no more than
// the start of one: a 10 KB language, a 300 KB category.
TEST(CliIndexTest, LongFieldValuesAreCutAndQuotedShort) {
  TempDir dir;
  const fs::path news = dir / "news.jsonl";
  write_file(news, R"({"id": "a", "title": "Milk", "body": "Milk prices.", "language": ")" +
                       std::string(10 * 1024, 'x') + "\"}\n" +
                       R"({"id": "b", "title": "Milk", "body": "Milk shortage.", "category": ")" +
                       std::string(300 * 1024, 'c') + "\"}\n");
  RunResult result = run_index(dir / "index", {news.string()});
  EXPECT_EQ(result.exit_code, 0) << result.err.substr(0, 1000);
  for (const std::string& line : lines_of(result.err)) EXPECT_LT(line.size(), 300u) << line;
  EXPECT_NE(result.err.find(news.string() + ":1: language '" + std::string(64, 'x') +
                            "…' is not one Quarry can stem"),
            std::string::npos)
      << result.err.substr(0, 1000);
  EXPECT_NE(result.err.find(news.string() +
                            ":2: category of 307200 bytes is longer than 256: only its first 256 "
                            "bytes are kept\n"),
            std::string::npos)
      << result.err.substr(0, 1000);
  const json found = json::parse(
      run_quarry(dir / "index", {"--format", "json", "--facets", "category", "milk"}).out);
  ASSERT_EQ(found.at("hits").size(), 2u);
  EXPECT_EQ(found.at("facets").at("category"),
            json::parse(R"([[")" + std::string(256, 'c') + R"(", 1]])"));
}

TEST(CliIndexTest, ARunThatMeetsOnlyProblemsReportedBeforeSaysSoOnceAndSucceeds) {
  TempDir dir;
  const fs::path corpus = dir / "news.jsonl";
  const std::string good = R"({"id": "a", "title": "Milk", "body": "Milk prices."})"
                           "\n";
  const std::string empty = R"({"id": "b", "title": "", "body": " "})"
                            "\n";
  const std::string undated =
      R"({"id": "c", "title": "Derby", "body": "A derby.", "date": "yesterday"})"
      "\n";
  write_file(corpus, good + empty + undated);
  RunResult first = run_index(dir / "index", {corpus.string()});
  EXPECT_EQ(first.exit_code, 3) << first.err;
  EXPECT_NE(first.err.find(":2: empty article (skipped)\n"), std::string::npos) << first.err;
  EXPECT_NE(first.err.find(":3: date 'yesterday'"), std::string::npos) << first.err;

  RunResult again = run_index(dir / "index", {corpus.string()});
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(again.err.find("empty article"), std::string::npos) << again.err;
  EXPECT_EQ(again.err.find("yesterday"), std::string::npos) << again.err;
  EXPECT_NE(again.err.find("quarry-index: 1 warning of an earlier run not repeated: its file is "
                           "unchanged\n"),
            std::string::npos)
      << again.err;
  EXPECT_NE(again.err.find(" 2 unchanged, 0 deleted, 1 skipped, as before, in "), std::string::npos)
      << again.err;

  // A new problem in the file is news, and the run fails again: the old one
  // is named again too, since its file changed.
  write_file(corpus, good + empty + undated + R"({"id": "d"})" + "\n");
  RunResult changed = run_index(dir / "index", {corpus.string()});
  EXPECT_EQ(changed.exit_code, 3) << changed.err;
  EXPECT_NE(changed.err.find(":4: field \"body\" must be a string (skipped)\n"), std::string::npos)
      << changed.err;
  EXPECT_NE(changed.err.find(":2: empty article (skipped)\n"), std::string::npos) << changed.err;
  EXPECT_NE(changed.err.find(" 2 skipped in "), std::string::npos) << changed.err;

  // Fixed: nothing is skipped, and nothing old is remembered.
  write_file(corpus, good);
  RunResult fixed = run_index(dir / "index", {corpus.string()});
  EXPECT_EQ(fixed.exit_code, 0) << fixed.err;
  EXPECT_NE(fixed.err.find(" 1 unchanged, 1 deleted, 0 skipped in "), std::string::npos)
      << fixed.err;
}

// 2. Bad inputs are reported and skipped; the rest is indexed.

TEST(CliIndexTest, SkipsBrokenFilesAndIndexesTheRest) {
  TempDir dir;
  const fs::path corpus = dir / "corpus";
  write_file(corpus / "good.txt", "A quokka smiles.\n\nThe quokka lives on Rottnest Island.\n");
  constexpr char kBinary[] =
      "\x7f"
      "ELF\2\1\1\0\0\0\0 quokka \0\0\x3e\0";
  write_file(corpus / "binary.txt", std::string(kBinary, sizeof kBinary - 1));
  write_file(corpus / "invalid_utf8.txt",
             "The wombat\xff\xfe sleeps.\n\nA wombat digs a burrow \xc3\x28 at night.\n");
  write_file(corpus / "empty.txt", "");
  write_file(corpus / "articles.jsonl",
             R"({"id": "j1", "title": "Narwhal", "body": "The narwhal swims under the ice."})"
             "\n"
             R"({"id": "j2", "title": "Broken", "body": "never closed)"
             "\n"
             R"({"id": "j3", "title": "Platypus", "body": "The platypus lays eggs."})"
             "\n");

  RunResult indexed = run_index(dir / "index", {corpus.string()});
  EXPECT_EQ(indexed.exit_code, 3) << indexed.err;
  for (const std::string bad :
       {"binary.txt", "invalid_utf8.txt", "empty.txt", "articles.jsonl:2"}) {
    EXPECT_NE(indexed.err.find(bad), std::string::npos) << bad << " not named in:\n" << indexed.err;
  }
  EXPECT_EQ(indexed.err.find("articles.jsonl:1"), std::string::npos) << indexed.err;
  EXPECT_EQ(indexed.err.find("articles.jsonl:3"), std::string::npos) << indexed.err;
  EXPECT_NE(indexed.err.find("quarry-index: 4 added, 0 updated"), std::string::npos) << indexed.err;

  const struct {
    std::string query;
    Ids expected;
  } kCases[] = {
      {"quokka", {"good.txt"}}, {"wombat", {"invalid_utf8.txt"}},
      {"narwhal", {"j1"}},      {"platypus", {"j3"}},
      {"closed", {}},
  };
  for (const auto& c : kCases) {
    RunResult result = run_quarry(dir / "index", {"--format", "json", c.query});
    ASSERT_EQ(result.exit_code, 0) << c.query << ": " << result.err;
    EXPECT_EQ(id_set(json::parse(result.out)), c.expected) << c.query;
  }
}

// 3. Ranking, snippets and highlights.

TEST_F(CliCorpusTest, RanksArticlesWithMoreQueryWordsFirst) {
  json result = search_json("Ederson Portuguese");
  std::vector<std::string> ids = ranked_ids(result);
  ASSERT_EQ(ids.size(), 3u) << result.dump();
  EXPECT_EQ(Ids(ids.begin(), ids.begin() + 2), Ids({kKompany, kAmazon})) << result.dump();
  EXPECT_EQ(ids[2], kRaucous);
  EXPECT_EQ(result.at("total"), 3);
  for (std::size_t i = 0; i < ids.size(); ++i) EXPECT_EQ(result["hits"][i].at("rank"), i + 1);
}

TEST_F(CliCorpusTest, SnippetsShowAndHighlightEveryQueryWord) {
  json result = search_json("penalty Herrera");
  ASSERT_EQ(id_set(result), kAllArticles) << result.dump();
  for (const json& hit : result.at("hits")) {
    const std::u32string snippet = ascii_lower(to_u32(hit.at("snippet").get<std::string>()));
    EXPECT_NE(snippet.find(U"penalty"), std::u32string::npos) << hit.dump();
    EXPECT_NE(snippet.find(U"herrera"), std::u32string::npos) << hit.dump();
    std::vector<std::u32string> words = highlighted_words(hit);
    for (const std::u32string& word : words) {
      EXPECT_TRUE(word == U"penalty" || word == U"herrera") << hit.dump();
    }
    EXPECT_NE(std::find(words.begin(), words.end(), U"penalty"), words.end()) << hit.dump();
    EXPECT_NE(std::find(words.begin(), words.end(), U"herrera"), words.end()) << hit.dump();
  }
}

TEST_F(CliCorpusTest, TextOutputShowsTitlesAndIdsAndColoursOnlyWhenAsked) {
  json result = search_json("penalty Herrera");
  ASSERT_EQ(result.at("hits").size(), 3u);

  RunResult plain = run_quarry(db(), {"--color", "never", "penalty", "Herrera"});
  EXPECT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_EQ(plain.out.find('\x1b'), std::string::npos) << plain.out;
  for (const json& hit : result.at("hits")) {
    EXPECT_NE(plain.out.find(hit.at("title").get<std::string>()), std::string::npos) << plain.out;
    EXPECT_NE(plain.out.find(hit.at("id").get<std::string>()), std::string::npos) << plain.out;
  }

  // Standard output is a pipe here, so "auto" means no colour too.
  RunResult automatic = run_quarry(db(), {"penalty", "Herrera"});
  EXPECT_EQ(automatic.out, plain.out);

  RunResult coloured = run_quarry(db(), {"--color", "always", "penalty", "Herrera"});
  EXPECT_EQ(coloured.exit_code, 0) << coloured.err;
  EXPECT_NE(coloured.out.find("\x1b["), std::string::npos) << coloured.out;
}

// 4. Words are found as they are typed.

TEST_F(CliCorpusTest, FindsWordsAsTyped) {
  const struct {
    std::string query;
    Ids expected;
  } kCases[] = {
      {"\"dressing room\"", kAllArticles},
      {"dressing-room", kAllArticles},
      {"2-1", kAllArticles},
      {"£10million", {kAmazon}},
      {"Ederson", kAllArticles},
      {"ederson", kAllArticles},
      {"EDERSON", kAllArticles},
      {"penalties", kAllArticles},  // the stem of "penalty"
  };
  for (const auto& c : kCases) {
    json result = search_json(c.query);
    EXPECT_EQ(id_set(result), c.expected) << c.query;
    for (const json& hit : result.at("hits")) {
      EXPECT_FALSE(highlighted_words(hit).empty()) << c.query << ": " << hit.dump();
    }
  }
}

TEST_F(CliCorpusTest, CurlyAndStraightApostrophesFindTheSameArticles) {
  json curly = search_json("Guardiola’s");
  json straight = search_json("Guardiola's");
  // 001 writes "Guardiola’s", 002 "Guardiola's": each query must find both.
  EXPECT_TRUE(id_set(curly).contains(kKompany)) << curly.dump();
  EXPECT_TRUE(id_set(curly).contains(kAmazon)) << curly.dump();
  EXPECT_EQ(id_set(curly), id_set(straight));
  for (const json* result : {&curly, &straight}) {
    for (const json& hit : result->at("hits")) {
      EXPECT_FALSE(highlighted_words(hit).empty()) << hit.dump();
    }
  }
}

// 5. No hits is a success.

TEST_F(CliCorpusTest, NoHitsIsSuccess) {
  RunResult text = run_quarry(db(), {"zyzzyva"});
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(text.out, "No articles match.\n");
  EXPECT_EQ(text.err, "");

  json result = search_json("zyzzyva");
  EXPECT_EQ(result.at("total"), 0);
  EXPECT_TRUE(result.at("hits").is_array());
  EXPECT_TRUE(result.at("hits").empty());
  EXPECT_EQ(result.at("query"), "zyzzyva");
}

// A query that can find nothing says why, and what to do, in text and JSON.
TEST_F(CliCorpusTest, QueriesThatSearchNothingSayWhatToDo) {
  const struct {
    std::string query, note;
  } cases[] = {
      {"", "the query is empty: give words to search for"},
      {"*", "'*' needs the start of a word before it, as in Manches*"},
      {"Herr?ra",
       "Herr?ra: a wildcard is a '*' that ends a word; search Herr* for the words "
       "that start with Herr"},
  };
  for (const auto& c : cases) {
    RunResult text = run_quarry(db(), {c.query});
    EXPECT_EQ(text.exit_code, 0) << text.err;
    EXPECT_EQ(text.out, "No articles match.\n") << c.query;
    EXPECT_EQ(text.err, "quarry: note: " + c.note + "\n") << c.query;
    EXPECT_EQ(search_json(c.query).at("notes"), json::array({c.note})) << c.query;
  }
}

// Sorted by date, every word must match unless the query joins them with OR.
TEST_F(CliCorpusTest, SortedByDateEveryWordMustMatch) {
  EXPECT_EQ(run_quarry(db(), {"--count", "Kompany Amazon"}).out, "2\n");
  EXPECT_EQ(run_quarry(db(), {"--count", "--sort", "-date", "Kompany Amazon"}).out, "0\n");
  EXPECT_EQ(run_quarry(db(), {"--count", "--sort", "-date", "Kompany Portuguese"}).out, "1\n");
  EXPECT_EQ(run_quarry(db(), {"--count", "--sort", "-date", "Kompany OR Amazon"}).out, "2\n");
  EXPECT_EQ(run_quarry(db(), {"--count", "--sort", "date", "--match", "any", "Kompany Amazon"}).out,
            "2\n");
}

// 5b. Counts that are true, and hits that say what they are.

TEST_F(CliCorpusTest, CountsWhateverThePage) {
  RunResult none_asked = run_quarry(db(), {"-n", "0", "penalty"});
  EXPECT_EQ(none_asked.exit_code, 0) << none_asked.err;
  EXPECT_EQ(none_asked.out, "3 articles match\n");

  RunResult count = run_quarry(db(), {"--count", "penalty"});
  EXPECT_EQ(count.exit_code, 0) << count.err;
  EXPECT_EQ(count.out, "3\n");
  EXPECT_EQ(run_quarry(db(), {"--count", "Portuguese"}).out, "2\n");
  EXPECT_EQ(run_quarry(db(), {"--count", "zyzzyva"}).out, "0\n");
  // The count is exact whatever the limit of a page's count.
  EXPECT_EQ(run_quarry(db(), {"--count", "--count-limit", "1", "penalty"}).out, "3\n");

  for (const std::string n : {"0", "1", "10"}) {
    const json result = json::parse(run_quarry(db(), {"-n", n, "--format", "json", "penalty"}).out);
    EXPECT_EQ(result.at("total"), 3) << n;
    EXPECT_EQ(result.at("total_relation"), "eq") << n;
  }
  RunResult text = run_quarry(db(), {"penalty"});
  EXPECT_TRUE(text.out.starts_with("3 articles match\n1. ")) << text.out;
}

TEST_F(CliCorpusTest, PastTheCountLimitTheTotalIsALowerBound) {
  RunResult text = run_quarry(db(), {"-n", "1", "--count-limit", "2", "penalty"});
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_TRUE(text.out.starts_with("2+ articles match\n1. ")) << text.out;
  const json result = json::parse(
      run_quarry(db(), {"-n", "1", "--count-limit", "2", "--format", "json", "penalty"}).out);
  EXPECT_EQ(result.at("total"), 2);
  EXPECT_EQ(result.at("total_relation"), "gte");
  EXPECT_EQ(result.at("hits").size(), 1u);
}

// A page that reaches past the count limit is counted as far as it
// reaches: no output says fewer matches than the hits it shows.
TEST_F(CliCorpusTest, APageBeyondTheCountLimitIsCountedToItsEnd) {
  const struct {
    std::vector<std::string> args;
    std::size_t hits;
    std::size_t total;
    std::string relation;
    std::string first_line;
  } kCases[] = {
      {{"-n", "2", "--count-limit", "1"}, 2, 2, "gte", "2+ articles match"},
      {{"-n", "10", "--count-limit", "2"}, 3, 3, "eq", "3 articles match"},
      {{"--offset", "1", "-n", "1", "--count-limit", "1"}, 1, 2, "gte", "2+ articles match"},
      {{"-n", "1000000"}, 3, 3, "eq", "3 articles match"},
  };
  for (const auto& c : kCases) {
    SCOPED_TRACE(::testing::PrintToString(c.args));
    std::vector<std::string> args = c.args;
    args.insert(args.end(), {"--format", "json", "penalty"});
    const json result = json::parse(run_quarry(db(), args).out);
    EXPECT_EQ(result.at("hits").size(), c.hits);
    EXPECT_EQ(result.at("total"), c.total);
    EXPECT_EQ(result.at("total_relation"), c.relation);
    args = c.args;
    args.push_back("penalty");
    const RunResult text = run_quarry(db(), args);
    EXPECT_TRUE(text.out.starts_with(c.first_line + "\n")) << text.out;
  }
}

// Weights that are not finite, or out of their range, would rank every
// match NaN and print an empty page: they are usage errors, on one line.
TEST_F(CliCorpusTest, WeightingParametersMustBeFiniteAndInRange) {
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{"--bm25", "k1=nan,b=nan"}, "--bm25: ranking scheme bm25: b must be a number from 0 to 1"},
      {{"--bm25", "k1=1e308"}, "--bm25: ranking scheme bm25: k1 must be a number from 0 to 1000"},
      {{"--bm25", "k1=inf"}, "k1 must be a number from 0 to 1000"},
      {{"--bm25", "k1=-1"}, "k1 must be a number from 0 to 1000"},
      {{"--bm25", "b=1.5"}, "b must be a number from 0 to 1"},
      {{"--title-weight", "nan"}, "--title-weight"},
      {{"--title-weight", "inf"}, "--title-weight"},
      {{"--title-weight", "-1"}, "--title-weight"},
      {{"--feedback", "on,weight=nan"}, "--feedback"},
      {{"--feedback", "on,power=inf"}, "--feedback"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = c.args;
    args.push_back("penalty");
    RunResult result = run_quarry(db(), args);
    EXPECT_EQ(result.exit_code, 2) << c.args[0] << " " << c.args[1] << ": " << result.err;
    EXPECT_NE(result.err.find(c.message), std::string::npos) << result.err;
    EXPECT_EQ(lines_of(result.err).size(), 1u) << result.err;
    EXPECT_EQ(result.out, "");
  }
  EXPECT_EQ(run_quarry(db(), {"--bm25", "k1=1000,b=1", "penalty"}).exit_code, 0);
  EXPECT_EQ(run_quarry(db(), {"--title-weight", "0.5", "penalty"}).exit_code, 0);
}

// A NEAR distance out of range is a warning, and with --strict an error.
TEST_F(CliCorpusTest, NearDistanceOutOfRangeIsWarnedOfOrRefused) {
  for (const std::string query :
       {"Mourinho NEAR/0 milk", "Mourinho NEAR/-5 milk", "Mourinho NEAR/4294967296 milk"}) {
    const std::string near = query.substr(9, query.find(' ', 9) - 9);
    RunResult strict = run_quarry(db(), {"--strict", query});
    EXPECT_EQ(strict.exit_code, 2) << query << ": " << strict.err;
    EXPECT_EQ(strict.out, "");
    EXPECT_EQ(lines_of(strict.err).size(), 1u) << strict.err;
    EXPECT_NE(strict.err.find(near + ": the distance must be a whole number from 1 to 1000"),
              std::string::npos)
        << strict.err;
    RunResult forgiving = run_quarry(db(), {query});
    EXPECT_EQ(forgiving.exit_code, 0) << query << ": " << forgiving.err;
    EXPECT_NE(forgiving.err.find(near + ": the distance must be a whole number from 1 to 1000 "
                                        "(column 10); searched as plain words"),
              std::string::npos)
        << forgiving.err;
  }
}

TEST_F(CliCorpusTest, CountOptionsAreChecked) {
  struct Case {
    std::vector<std::string> args;
    std::string mention;
  };
  const std::vector<Case> cases = {
      {{"--count"}, "--count"},
      {{"--count", "--batch", "-", "x"}, "--count"},
      {{"--count-limit", "0", "penalty"}, "--count-limit"},
      {{"--facets", "source,author", "penalty"}, "'author'"},
  };
  for (const Case& c : cases) {
    RunResult result = run_quarry(db(), c.args);
    EXPECT_EQ(result.exit_code, 2) << c.args[0] << ": " << result.err;
    EXPECT_NE(result.err.find(c.mention), std::string::npos) << result.err;
    EXPECT_EQ(result.out, "");
  }
  RunResult bad = run_quarry(db(), {"--strict", "--count", "Mourinho AND"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.out, "");
  EXPECT_EQ(lines_of(bad.err).size(), 1u) << bad.err;
  // Without --strict, its words are counted, with the warning a search gives.
  RunResult plain = run_quarry(db(), {"--count", "(Portuguese"});
  EXPECT_EQ(plain.out, "2\n");
  EXPECT_EQ(plain.err, run_quarry(db(), {"(Portuguese"}).err);
  EXPECT_EQ(plain.err,
            "quarry: warning: '(' is never closed (column 1); searched as plain words\n");
  EXPECT_EQ(run_quarry(db(), {"--count", "Portuguese"}).err, "");
}

// An index of English and French articles: each hit says its language,
// a facet counts them, and --language searches one.
TEST(CliResultPage, LanguagesAreShownCountedAndSearchedOneAtATime) {
  TempDir dir;
  write_file(dir / "news.jsonl", to_json_lines(english_and_french_articles()));
  ASSERT_EQ(run_index(dir / "index", {(dir / "news.jsonl").string()}).exit_code, 0);

  RunResult both =
      run_quarry(dir / "index", {"--format", "json", "--facets", "language", "trains"});
  ASSERT_EQ(both.exit_code, 0) << both.err;
  const json all = json::parse(both.out);
  std::map<std::string, std::string> languages;
  for (const json& hit : all.at("hits")) languages[hit.at("id")] = hit.at("language");
  EXPECT_EQ(languages,
            (std::map<std::string, std::string>{{"strike-en", "en"}, {"strike-fr", "fr"}}));
  EXPECT_EQ(all.at("facets").at("language"), json::parse(R"([["en", 1], ["fr", 1]])"));

  for (const std::string french : {"fr", "French"}) {
    RunResult one = run_quarry(dir / "index", {"--format", "json", "--language", french, "trains"});
    ASSERT_EQ(one.exit_code, 0) << one.err;
    EXPECT_EQ(ranked_ids(json::parse(one.out)), std::vector<std::string>{"strike-fr"}) << french;
  }
  RunResult text = run_quarry(dir / "index", {"--language", "fr", "trains"});
  EXPECT_EQ(lines_of(text.out).at(2), "   strike-fr · 2026-03-02 · Wire · transport · fr");

  RunResult unknown = run_quarry(dir / "index", {"--language", "klingon", "trains"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_EQ(unknown.out, "");
  EXPECT_EQ(unknown.err,
            "quarry: --language: no language 'klingon': name one by its ISO 639-1 code (fr) or "
            "its name (french) (quarry --help lists the options)\n");
}

TEST(CliResultPage, HitsSayWhatTheyAreAndFacetsCountThem) {
  TempDir dir;
  const std::vector<Article> articles = {
      {"w1", "Wheat harvest late", "The wheat harvest was late.", "2017-12-01", "grain", "Reuters"},
      {"w2", "Wheat prices", "Wheat prices rose again.", "2017-11-03", "grain", "Reuters"},
      {"w3", "Exports", "Wheat exports fell.", "", "trade", ""}};
  write_file(dir / "news.jsonl", to_json_lines(articles));
  ASSERT_EQ(run_index(dir / "index", {(dir / "news.jsonl").string()}).exit_code, 0);

  RunResult text = run_quarry(dir / "index", {"--sort", "-date", "wheat"});
  EXPECT_EQ(text.exit_code, 0) << text.err;
  const std::vector<std::string> lines = lines_of(text.out);
  ASSERT_GE(lines.size(), 10u) << text.out;
  EXPECT_EQ(lines[0], "3 articles match");
  EXPECT_EQ(lines[2], "   w1 · 2017-12-01 · Reuters · grain · en");
  EXPECT_EQ(lines[5], "   w2 · 2017-11-03 · Reuters · grain · en");
  EXPECT_EQ(lines[8], "   w3 · trade · en");

  const json result = json::parse(
      run_quarry(dir / "index", {"--format", "json", "--facets", "source,category,date", "wheat"})
          .out);
  std::map<std::string, json> hits;
  for (const json& hit : result.at("hits")) hits[hit.at("id")] = hit;
  EXPECT_EQ(hits.at("w1").at("source"), "Reuters");
  EXPECT_EQ(hits.at("w1").at("category"), "grain");
  EXPECT_EQ(hits.at("w1").at("date"), "2017-12-01");
  EXPECT_EQ(hits.at("w1").at("language"), "en");
  EXPECT_FALSE(hits.at("w3").contains("source"));
  EXPECT_FALSE(hits.at("w3").contains("date"));
  // "Wheat" is the first word of w1's title; "Exports" is not a query word.
  EXPECT_EQ(hits.at("w1").at("title_highlights"), json::parse("[[0, 5]]"));
  EXPECT_EQ(hits.at("w3").at("title_highlights"), json::array());
  EXPECT_EQ(result.at("facets").at("source"), json::parse(R"([["Reuters", 2]])"));
  EXPECT_EQ(result.at("facets").at("category"), json::parse(R"([["grain", 2], ["trade", 1]])"));
  EXPECT_EQ(result.at("facets").at("date"), json::parse(R"([["2017-11", 1], ["2017-12", 1]])"));

  RunResult facets = run_quarry(dir / "index", {"-n", "0", "--facets", "category", "wheat"});
  EXPECT_EQ(facets.out, "3 articles match\n  category: grain 2 · trade 1\n");
}

// 6. A query that cannot be parsed is searched as plain words, with one
// line saying why; with --strict it is a usage error, explained in one line.

TEST_F(CliCorpusTest, BadQueryIsSearchedAsPlainWords) {
  RunResult text = run_quarry(db(), {"(penalty"});
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_TRUE(text.out.starts_with("3 articles match\n1. ")) << text.out;
  EXPECT_EQ(text.err, "quarry: warning: '(' is never closed (column 1); searched as plain words\n");

  const json result = search_json("Mourinho AND");
  EXPECT_EQ(id_set(result), kAllArticles);
  EXPECT_EQ(
      result.at("warnings"),
      json::parse(R"(["AND needs words on both sides (column 10); searched as plain words"])"));
}

// Queries people typed into another search box, that Xapian's QueryParser
// reads: each finds something or nothing, with one line at most.
TEST_F(CliCorpusTest, QueriesFromOtherSearchBoxesAreAnswered) {
  for (const std::string query :
       {"mkdir() failed (File exists) php", "windows update werkt niet (windows se",
        "java :) als icon", "+-dvd", "wget domein --http-user",
        "kraan NEAR (Elektrisch OR Electrisch)", "Mourinho NEAR (milk OR water)", "+-Kompany",
        "site:example.org Mourinho", "\"unclosed phrase", "->", "NOT", "c++ -c#"}) {
    RunResult result = run_quarry(db(), {"--", query});
    EXPECT_EQ(result.exit_code, 0) << query << ": " << result.err;
    EXPECT_LE(lines_of(result.err).size(), 1u) << query << ": " << result.err;
    EXPECT_TRUE(result.out.find("match") != std::string::npos) << query << ": " << result.out;
  }
  // A group beside NEAR: either word.
  Ids either = id_set(search_json("Mourinho NEAR/3 milk"));
  either.merge(id_set(search_json("Mourinho NEAR/3 water")));
  EXPECT_FALSE(either.empty());
  EXPECT_EQ(id_set(search_json("Mourinho NEAR/3 (milk OR water)")), either);
}

TEST_F(CliCorpusTest, StrictBadQueryIsUsageError) {
  for (const std::string query : {"Mourinho AND", "(penalty", "AND"}) {
    for (const std::string format : {"text", "json"}) {
      RunResult result = run_quarry(db(), {"--strict", "--format", format, query});
      EXPECT_EQ(result.exit_code, 2) << query;
      EXPECT_EQ(result.out, "") << query;
      std::vector<std::string> lines = lines_of(result.err);
      ASSERT_EQ(lines.size(), 1u) << query << ": " << result.err;
      EXPECT_TRUE(lines[0].starts_with("quarry: ")) << lines[0];
      EXPECT_NE(lines[0].find(query), std::string::npos) << lines[0];
    }
  }
}

// A query of more than 1,024 words is refused, however it is read and
// wherever it is typed, rather than searched as plain words that lose its
// operators: usage errors, exit 2, one line naming the limit.
TEST_F(CliCorpusTest, QueriesOfMoreWordsThanTheMostAreUsageErrors) {
  std::string query = "w1";
  for (int i = 2; i <= 1100; ++i) query += " AND w" + std::to_string(i);
  const std::string reason = "more than 1024 words, the most a query may hold";
  for (const std::vector<std::string>& options :
       {std::vector<std::string>{}, {"--format", "json"}, {"--plain"}, {"--count"}}) {
    SCOPED_TRACE(::testing::PrintToString(options));
    std::vector<std::string> args = options;
    args.push_back(query);
    const RunResult result = run_quarry(db(), args);
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_EQ(result.out, "");
    const std::vector<std::string> lines = lines_of(result.err);
    ASSERT_EQ(lines.size(), 1u) << result.err.substr(0, 300);
    EXPECT_TRUE(lines[0].starts_with("quarry: query \"w1 AND w2 AND")) << lines[0].substr(0, 300);
    EXPECT_NE(lines[0].find(reason), std::string::npos) << lines[0].substr(0, 300);
  }
  // Piped, the query is an error of its own among the others' answers.
  const RunResult piped =
      run_quarry(db(), {"--format", "json", "-n", "1"}, "penalty\n" + query + "\nHerrera\n");
  EXPECT_EQ(piped.exit_code, 2);
  const std::vector<std::string> records = lines_of(piped.out);
  ASSERT_EQ(records.size(), 3u) << piped.out.substr(0, 300);
  EXPECT_NE(json::parse(records[1]).at("error").get<std::string>().find(reason), std::string::npos);
  EXPECT_EQ(json::parse(records[2]).at("total"), 3);
  EXPECT_NE(piped.err.find("quarry: qid 2: query \"w1 AND"), std::string::npos)
      << piped.err.substr(0, 300);
  // At the prompt, it is said, and the prompt goes on.
  const RunResult prompt =
      run_quarry(db(), {"-i", "--format", "json", "-n", "1"}, query + "\npenalty\n");
  EXPECT_NE(prompt.err.find(reason), std::string::npos) << prompt.err.substr(0, 300);
  ASSERT_EQ(lines_of(prompt.out).size(), 1u) << prompt.out.substr(0, 300);
  EXPECT_EQ(json::parse(prompt.out).at("total"), 3);
}

// 7. A missing index names where it was looked for and how to build it.

TEST(CliSearchTest, MissingIndexIsRuntimeFailure) {
  TempDir dir;
  fs::create_directories(dir / "empty");
  for (const fs::path& db : {dir / "nowhere", dir / "empty"}) {
    RunResult result = run_quarry(db, {"Ederson"});
    EXPECT_EQ(result.exit_code, 1) << db;
    EXPECT_EQ(result.out, "");
    EXPECT_TRUE(result.err.starts_with("quarry: ")) << result.err;
    EXPECT_NE(result.err.find(db.string()), std::string::npos) << result.err;
    EXPECT_NE(result.err.find("quarry-index"), std::string::npos) << result.err;
  }
}

TEST(CliSearchTest, AMissingIndexSuggestsACommandThatBuildsIt) {
  TempDir dir;
  fs::create_directories(dir / "empty");
  write_file(dir / "others" / "notes.md", "Not an index.");
  for (const fs::path& db : {dir / "nowhere", dir / "empty", dir / "others"}) {
    const RunResult result = run_quarry(db, {"Ederson"});
    EXPECT_EQ(result.exit_code, 1) << db;
    const std::size_t command = result.err.find(": quarry-index --db ");
    ASSERT_NE(command, std::string::npos) << result.err;
    // The suggestion, run as it says: FOLDER the articles, NEW-FOLDER a
    // folder of the user's choosing.
    std::istringstream words(result.err.substr(command + 2));
    std::vector<std::string> args;
    for (std::string word; words >> word;) {
      if (word == "FOLDER") word = QUARRY_CORPUS_DIR;
      if (word == "NEW-FOLDER") word = (dir / "new").string();
      args.push_back(word);
    }
    ASSERT_EQ(args.front(), "quarry-index") << result.err;
    args.erase(args.begin());
    const RunResult built = run_program(QUARRY_INDEX_BIN, args);
    EXPECT_EQ(built.exit_code, 0) << result.err << built.err;
    fs::remove_all(dir / "new");
  }
}

// 8. Options.

TEST(CliOptionsTest, BadOptionsAreUsageErrors) {
  TempDir dir;
  const std::string db = (dir / "index").string();
  const struct {
    std::string program;
    std::vector<std::string> args;
  } kCases[] = {
      {QUARRY_BIN, {"--bogus"}},
      {QUARRY_BIN, {"--db", db, "--format", "xml", "Ederson"}},
      {QUARRY_BIN, {"--db", db, "--color", "sometimes", "Ederson"}},
      {QUARRY_BIN, {"--db", db, "--limit", "many", "Ederson"}},
      {QUARRY_INDEX_BIN, {"--bogus", "x"}},
      {QUARRY_INDEX_BIN, {"--db", db}},  // no PATH
      {QUARRY_INDEX_BIN, {"--db", db, "--commit-every", "0", QUARRY_CORPUS_DIR}},
      {QUARRY_INDEX_BIN, {"--db", db, "--language", "klingon", QUARRY_CORPUS_DIR}},
  };
  for (const auto& c : kCases) {
    RunResult result = run_program(c.program, c.args);
    EXPECT_EQ(result.exit_code, 2) << c.program << " " << ::testing::PrintToString(c.args);
    EXPECT_FALSE(result.err.empty()) << c.program;
    EXPECT_EQ(result.out, "") << c.program;
    EXPECT_FALSE(fs::exists(db)) << "a usage error must not create the index: "
                                 << ::testing::PrintToString(c.args);
    fs::remove_all(db);
  }
}

// Every option error is one line named after the program, exit 2, and
// nothing on stdout; no option is accepted and then ignored.
TEST_F(CliCorpusTest, OptionErrorsAreOneLineAndExitTwo) {
  struct Case {
    std::vector<std::string> args;
    std::string mention;
  };
  const std::vector<Case> cases = {
      {{"--bogus", "penalty"}, "--bogus"},
      {{"--format", "xml", "penalty"}, "xml"},
      {{"-n", "-1", "penalty"}, "--limit must be a whole number of 0 or more, not '-1'"},
      {{"-n", "18446744073709551616", "penalty"}, "from 0 to 18446744073709551615"},
      {{"-n", "3x", "--", "penalty"}, "3x"},
      {{"--offset", "-1", "penalty"}, "--offset"},
      {{"-j", "-3", "--batch", "-"}, "--threads"},
      {{"--count-limit", "0", "penalty"}, "--count-limit"},
      {{"--batch", "-", "oil"}, "'oil' would be ignored"},
      {{"-i", "oil"}, "'oil' would be ignored"},
      {{"-i", "--batch", "-"}, "-i"},
      {{"--format", "trec", "penalty"}, "--batch"},
      {{"--run-tag", "mine", "penalty"}, "--format trec"},
      {{"--batch", "-", "--run-tag", "mine"}, "--format trec"},
      {{"--batch", "-", "--format", "trec", "--run-tag", "my run"}, "one word"},
      {{"--language", "klingon", "penalty"}, "--language: no language 'klingon'"},
      {{"--recency", "7x", "penalty"}, "--recency: '7x' is not a half-life"},
      {{"--recency", "0d", "penalty"}, "'0d' is not a half-life"},
      {{"--as-of", "yesterday", "penalty"}, "--as-of: 'yesterday' is not a date"},
  };
  for (const Case& c : cases) {
    const std::string args = ::testing::PrintToString(c.args);
    RunResult result = run_quarry(db(), c.args, "penalty\n");
    EXPECT_EQ(result.exit_code, 2) << args << ": " << result.err;
    EXPECT_EQ(result.out, "") << args;
    const std::vector<std::string> lines = lines_of(result.err);
    ASSERT_EQ(lines.size(), 1u) << args << ": " << result.err;
    EXPECT_TRUE(lines[0].starts_with("quarry: ")) << args << ": " << lines[0];
    EXPECT_NE(lines[0].find(c.mention), std::string::npos) << args << ": " << lines[0];
  }
  // The largest number there is, is a number.
  RunResult largest = run_quarry(db(), {"-n", "18446744073709551615", "-n0", "penalty"});
  EXPECT_EQ(largest.exit_code, 2) << "given twice";
  EXPECT_EQ(run_quarry(db(), {"-n", "18446744073709551615", "--offset", "1", "penalty"}).exit_code,
            0);
}

TEST(CliSearchTest, RecencyRanksNewerArticlesHigher) {
  TempDir dir;
  index_articles(dir, recency_articles());
  const auto ids = [&](const std::vector<std::string>& args) {
    std::vector<std::string> all{"--format", "json"};
    all.insert(all.end(), args.begin(), args.end());
    all.push_back("lighthouse");
    const RunResult result = run_quarry(index_path(dir), all);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    return ranked_ids(json::parse(result.out));
  };
  EXPECT_EQ(ids({}), (std::vector<std::string>{"lighthouse-old", "lighthouse-new"}));
  EXPECT_EQ(ids({"--recency", "7d", "--as-of", "2024-05-01"}),
            (std::vector<std::string>{"lighthouse-new", "lighthouse-old"}));
  EXPECT_EQ(ids({"--recency", "off", "--as-of", "2024-05-01"}),
            (std::vector<std::string>{"lighthouse-old", "lighthouse-new"}));
}

TEST_F(CliCorpusTest, AnUnreadableBatchFileIsNamedWithTheReason) {
  TempDir dir;
  const std::string missing = (dir / "nonexist.tsv").string();
  RunResult result = run_quarry(db(), {"--batch", missing});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(result.err, "quarry: cannot read " + missing + ": No such file or directory\n");
  RunResult folder = run_quarry(db(), {"--batch", dir.path().string()});
  EXPECT_EQ(folder.exit_code, 1);
  EXPECT_EQ(folder.err, "quarry: cannot read " + dir.path().string() + ": Is a directory\n");
}

// Queries piped in are answered as --batch - answers them: one answer for
// each line read, in order, however each query fares.
TEST_F(CliCorpusTest, PipedQueriesGetOneAnswerEachLabelledWithTheQuery) {
  const std::string input = "penalty Herrera\n\n(penalty\nq7\tzyzzyva\n";
  RunResult text = run_quarry(db(), {"-n", "1"}, input);
  EXPECT_EQ(text.exit_code, 0) << text.err;
  auto alone = [&](const std::string& query) { return run_quarry(db(), {"-n", "1", query}).out; };
  EXPECT_EQ(text.out, "Query 1: penalty Herrera\n" + alone("penalty Herrera") +
                          "\nQuery 3: (penalty\n" + alone("(penalty") + "\nQuery q7: zyzzyva\n" +
                          alone("zyzzyva"));
  EXPECT_EQ(text.err,
            "quarry: qid 3: warning: '(' is never closed (column 1); searched as plain words\n");
  EXPECT_EQ(run_quarry(db(), {"-n", "1", "--batch", "-", "--format", "text"}, input).out, text.out)
      << "--batch - --format text writes text";

  // With --strict the bad query is a record of its own, in JSON as in text.
  const std::vector<std::string> strict = {"--strict", "--no-timings", "-n", "1"};
  std::vector<std::string> json_args = strict;
  json_args.insert(json_args.end(), {"--format", "json"});
  RunResult json_lines = run_quarry(db(), json_args, input);
  EXPECT_EQ(json_lines.exit_code, 2);
  const std::vector<std::string> records = lines_of(json_lines.out);
  ASSERT_EQ(records.size(), 3u) << json_lines.out;
  EXPECT_EQ(json::parse(records[0]).at("qid"), "1");
  EXPECT_EQ(json::parse(records[1]).at("qid"), "3");
  EXPECT_TRUE(json::parse(records[1]).contains("error")) << records[1];
  EXPECT_EQ(json::parse(records[2]).at("qid"), "q7");
  json_args.insert(json_args.end(), {"--batch", "-"});
  EXPECT_EQ(run_quarry(db(), json_args, input).out, json_lines.out) << "as --batch - writes it";

  RunResult strict_text = run_quarry(db(), strict, input);
  EXPECT_EQ(strict_text.exit_code, 2);
  EXPECT_NE(strict_text.out.find("\nQuery 3: (penalty\nerror: "), std::string::npos)
      << strict_text.out;
  EXPECT_EQ(lines_of(strict_text.err).size(), 1u) << strict_text.err;
}

TEST_F(CliCorpusTest, TrecRunsCarryTheRunTag) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--format", "trec"},
        std::vector<std::string>{"--batch", "-", "--format", "trec"}}) {
    for (const std::string tag : {"", "bm25-run.1"}) {
      std::vector<std::string> all = args;
      if (!tag.empty()) all.insert(all.end(), {"--run-tag", tag});
      RunResult result = run_quarry(db(), all, "q1\tpenalty\n");
      EXPECT_EQ(result.exit_code, 0) << result.err;
      const std::vector<std::string> lines = lines_of(result.out);
      ASSERT_EQ(lines.size(), 3u) << result.out;
      for (const std::string& line : lines) {
        EXPECT_TRUE(line.starts_with("q1 Q0 ")) << line;
        EXPECT_TRUE(line.ends_with(" " + (tag.empty() ? std::string("quarry") : tag))) << line;
      }
    }
  }
}

// -i reads the prompt's lines, commands included, from a pipe.
TEST_F(CliCorpusTest, InteractiveReadsThePromptsCommandsFromAPipe) {
  RunResult result = run_quarry(db(), {"-i", "--format", "json"}, ":limit 1\npenalty\n:next\n");
  EXPECT_EQ(result.exit_code, 0) << result.err;
  const std::vector<std::string> lines = lines_of(result.out);
  ASSERT_EQ(lines.size(), 2u) << result.out;
  EXPECT_EQ(json::parse(lines[1]).at("hits").at(0).at("rank"), 2);
}

// A query that starts with '-' reads as options: the error says how to
// write it.
TEST_F(CliCorpusTest, QueryStartingWithADashIsShownAfterDoubleDash) {
  RunResult result = run_quarry(db(), {"-site:x", "mail"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.out, "");
  const std::vector<std::string> lines = lines_of(result.err);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.back(), "quarry: a query that starts with '-' goes after '--': quarry --db " +
                              db().string() + " --collapse none -- -site:x mail")
      << result.err;

  RunResult quoted = run_quarry(db(), {"-n", "3", "-Kompany Mourinho"});
  EXPECT_EQ(quoted.exit_code, 2);
  EXPECT_TRUE(quoted.err.ends_with(" -n 3 -- '-Kompany Mourinho'\n")) << quoted.err;

  RunResult after = run_quarry(db(), {"--format", "json", "--", "-Kompany", "Mourinho"});
  EXPECT_EQ(after.exit_code, 0) << after.err;
  EXPECT_EQ(id_set(json::parse(after.out)), Ids({kRaucous, kAmazon}));

  // Other option errors get no such line.
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--bogus", "x"}, std::vector<std::string>{"-n", "many", "x"},
        std::vector<std::string>{"-n5", "--format", "xml"}}) {
    RunResult other = run_quarry(db(), args);
    EXPECT_EQ(other.exit_code, 2);
    EXPECT_EQ(other.err.find("goes after '--'"), std::string::npos) << other.err;
  }
}

// --correct: when the suggestion is searched instead of the query.
TEST_F(CliCorpusTest, CorrectSearchesTheSuggestionWhenTheQueryFindsNothing) {
  RunResult automatic = run_quarry(db(), {"-n", "0", "Edersen"});
  EXPECT_EQ(automatic.exit_code, 0) << automatic.err;
  EXPECT_EQ(automatic.out,
            "Showing results for Ederson; search instead for Edersen\n3 articles match\n");
  const json corrected = search_json("Edersen");
  EXPECT_EQ(corrected.at("query"), "Edersen");
  EXPECT_EQ(corrected.at("suggestion"), "Ederson");
  EXPECT_EQ(corrected.at("corrected"), true);

  RunResult never = run_quarry(db(), {"-n", "0", "--correct", "never", "Edersen"});
  EXPECT_EQ(never.out, "Did you mean: Ederson\nNo articles match.\n");
  // Ederson is found: the suggestion is only offered, unless always.
  RunResult kept = run_quarry(db(), {"-n", "0", "Edersen Kompany"});
  EXPECT_EQ(kept.out, "Did you mean: Ederson Kompany\n1 article matches\n");
  RunResult always = run_quarry(db(), {"-n", "0", "--correct", "always", "Edersen Kompany"});
  EXPECT_EQ(always.out,
            "Showing results for Ederson Kompany; search instead for Edersen Kompany\n"
            "3 articles match\n");
  RunResult bad = run_quarry(db(), {"--correct", "sometimes", "Edersen"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.out, "");
}

// The README's query-language table says its examples run against corpus/:
// each must find articles there, as written, with no note or warning.
TEST_F(CliCorpusTest, ReadmeQueryExamplesFindArticles) {
  const std::string readme = read_file(fs::path(QUARRY_CORPUS_DIR).parent_path() / "README.md");
  const std::size_t start = readme.find("\n## Query language\n");
  ASSERT_NE(start, std::string::npos);
  const std::string section = readme.substr(start, readme.find("\n## ", start + 1) - start);
  ASSERT_NE(section.find("Examples run against `corpus/`"), std::string::npos);
  std::vector<std::string> examples;
  std::istringstream lines(section);
  for (std::string line; std::getline(lines, line);) {
    if (!line.starts_with("| `")) continue;
    // The first column holds the examples, each in backquotes.
    const std::string column = line.substr(1, line.find(" | ") - 1);
    for (std::size_t open = column.find('`'); open != std::string::npos;) {
      const std::size_t close = column.find('`', open + 1);
      examples.push_back(column.substr(open + 1, close - open - 1));
      open = column.find('`', close + 1);
    }
  }
  EXPECT_GE(examples.size(), 18u);
  // And those of the prose below the table, which may be wrapped.
  std::string prose_text = section;
  std::replace(prose_text.begin(), prose_text.end(), '\n', ' ');
  for (const char* prose : {"Guardiola’s NEAR Kompany", "title:\"Dressing-Room\"", "penalties",
                            "\"dressing rooms\"", "celebrati*"}) {
    ASSERT_NE(prose_text.find(std::string("`") + prose + "`"), std::string::npos) << prose;
    examples.push_back(prose);
  }
  for (const std::string& example : examples) {
    RunResult result = run_quarry(db(), {"--format", "json", "--", example});
    ASSERT_EQ(result.exit_code, 0) << example << ": " << result.err;
    const json answer = json::parse(result.out);
    EXPECT_GT(answer.at("total").get<int>(), 0) << example;
    EXPECT_FALSE(answer.contains("warnings")) << example << ": " << answer.at("warnings");
    EXPECT_FALSE(answer.contains("notes")) << example;
    EXPECT_FALSE(answer.contains("corrected")) << example;
    EXPECT_EQ(result.err, "") << example;
  }
}

TEST(CliOptionsTest, HelpDocumentsExitCodes) {
  for (const std::string program : {QUARRY_BIN, QUARRY_INDEX_BIN}) {
    RunResult result = run_program(program, {"--help"});
    EXPECT_EQ(result.exit_code, 0) << program;
    EXPECT_NE(result.out.find("Exit codes"), std::string::npos) << result.out;
    EXPECT_EQ(result.err, "") << program;
  }
}

// 9. QUARRY_DB stands in for --db.

TEST(CliOptionsTest, QuarryDbEnvironmentVariableLocatesTheIndex) {
  TempDir dir;
  const std::string env = "QUARRY_DB=" + (dir / "index").string();
  RunResult indexed = run_program(QUARRY_INDEX_BIN, {QUARRY_CORPUS_DIR}, "", {env});
  ASSERT_EQ(indexed.exit_code, 0) << indexed.err;
  EXPECT_TRUE(fs::is_directory(dir / "index"));

  RunResult result =
      run_program(QUARRY_BIN, {"--collapse", "none", "--format", "json", "Ederson"}, "", {env});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(id_set(json::parse(result.out)), kAllArticles);

  // --db wins over the variable.
  RunResult elsewhere =
      run_program(QUARRY_BIN, {"--db", (dir / "nowhere").string(), "Ederson"}, "", {env});
  EXPECT_EQ(elsewhere.exit_code, 1) << elsewhere.err;
}

// 10. One query per line of standard input.

TEST_F(CliCorpusTest, AnswersEachLineOfStandardInput) {
  RunResult result = run_quarry(db(), {"--format", "json"}, "penalty Herrera\nEderson\n");
  EXPECT_EQ(result.exit_code, 0) << result.err;
  std::vector<std::string> lines = lines_of(result.out);
  ASSERT_EQ(lines.size(), 2u) << result.out;
  json first = json::parse(lines[0]);
  json second = json::parse(lines[1]);
  EXPECT_EQ(first.at("query"), "penalty Herrera");
  EXPECT_EQ(id_set(first), kAllArticles);
  EXPECT_EQ(second.at("query"), "Ederson");
  EXPECT_EQ(id_set(second), kAllArticles);
}

TEST_F(CliCorpusTest, BadLineOfStandardInputIsReportedAndTheRestAnswered) {
  RunResult result =
      run_quarry(db(), {"--strict", "--format", "json"}, "Portuguese\n\n(penalty\nraucous\n");
  EXPECT_EQ(result.exit_code, 2);
  // One record a query, the bad one's an error, so that records and queries
  // still pair up.
  std::vector<std::string> lines = lines_of(result.out);
  ASSERT_EQ(lines.size(), 3u) << result.out;
  EXPECT_EQ(id_set(json::parse(lines[0])), Ids({kKompany, kAmazon}));
  EXPECT_EQ(json::parse(lines[1]).at("query"), "(penalty");
  EXPECT_TRUE(json::parse(lines[1]).contains("error")) << lines[1];
  EXPECT_EQ(id_set(json::parse(lines[2])), Ids({kRaucous}));
  std::vector<std::string> errors = lines_of(result.err);
  ASSERT_EQ(errors.size(), 1u) << result.err;
  EXPECT_NE(errors[0].find("(penalty"), std::string::npos) << errors[0];
}

// 11. A second writer is refused, or waits as asked; readers carry on.

TEST_F(CliCorpusTest, LockedIndexRefusesWriterButServesSearches) {
  Xapian::WritableDatabase holder(db().string(), Xapian::DB_OPEN);

  RunResult indexed = run_index(db(), {QUARRY_CORPUS_DIR});
  EXPECT_EQ(indexed.exit_code, 1) << indexed.err;
  EXPECT_NE(indexed.err.find("locked"), std::string::npos) << indexed.err;
  EXPECT_TRUE(indexed.err.starts_with("quarry-index: ")) << indexed.err;

  json result = search_json("Ederson");
  EXPECT_EQ(id_set(result), kAllArticles);
}

// Holds the lock a running quarry-index holds on `db`.
class HeldLock {
 public:
  explicit HeldLock(const fs::path& db)
      : fd_(open((db.string() + ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
    if (fd_ < 0 || flock(fd_, LOCK_EX) != 0) throw std::runtime_error("cannot lock " + db.string());
  }
  ~HeldLock() { release(); }
  void release() {
    if (fd_ >= 0) close(fd_);
    fd_ = -1;
  }

 private:
  int fd_;
};

TEST(ConcurrentIndexTest, SecondIndexerExitsOrWaitsAsAsked) {
  TempDir dir;
  write_file(dir / "a.jsonl", synthetic_corpus(20, 1, "a"));
  const fs::path db = dir / "index";
  HeldLock lock(db);

  // Refused at once, with the documented message, for a new index too.
  const auto start = std::chrono::steady_clock::now();
  const RunResult refused = run_program(QUARRY_INDEX_BIN, index_args(db, {dir / "a.jsonl"}));
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_EQ(refused.err,
            "quarry-index: index " + db.string() + " is locked by another quarry-index\n");
  EXPECT_FALSE(fs::exists(db));

  // A bounded wait gives up after about that long.
  const RunResult gave_up =
      run_program(QUARRY_INDEX_BIN, index_args(db, {dir / "a.jsonl"}, {"--wait=1"}));
  const std::chrono::duration<double> waited = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(gave_up.exit_code, 1) << gave_up.err;
  EXPECT_NE(gave_up.err.find("locked by another quarry-index"), std::string::npos);
  EXPECT_GE(waited.count(), 1.0);
  EXPECT_LT(waited, time_allowed(std::chrono::seconds(5)));

  // --wait alone waits until the other run ends, then indexes.
  ChildProcess waiting(QUARRY_INDEX_BIN, index_args(db, {dir / "a.jsonl"}, {"--wait"}), dir.path());
  std::this_thread::sleep_for(std::chrono::milliseconds(800));
  EXPECT_TRUE(waiting.running());
  lock.release();
  EXPECT_EQ(waiting.wait(), 0) << waiting.err();
  EXPECT_EQ(index_discrepancies(db, synthetic_ids("a", 20)), "");

  const RunResult bad =
      run_program(QUARRY_INDEX_BIN, index_args(db, {dir / "a.jsonl"}, {"--wait=-3"}));
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
}

}  // namespace
}  // namespace quarry::testing
