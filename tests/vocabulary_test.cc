// The index's vocabulary: every word as written (folded), with the number of
// articles that hold it. Wildcards, completion and spelling suggestions read
// it, since postings hold stems only; every way of writing an index must
// leave the same vocabulary behind.
#include <gtest/gtest.h>
#include <xapian.h>

#include <atomic>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "lib/index/parallel_build.h"
#include "lib/index/story_linker.h"
#include "quarry/error.h"
#include "quarry/index/index_writer.h"
#include "quarry/search/searcher.h"
#include "tests/test_util.h"

namespace quarry {
namespace {

using testing::TempDir;
using Vocabulary = std::map<std::string, Xapian::doccount>;

Vocabulary vocabulary_of(const std::string& path) {
  Xapian::Database db(path);
  Vocabulary words;
  for (auto it = db.spellings_begin(); it != db.spellings_end(); ++it) {
    words[*it] = it.get_termfreq();
  }
  return words;
}

// The articles as a later run finds them: a2 was rewritten since the first,
// and its new version replaces the old one, words and all.
const std::vector<Article>& articles() {
  static const std::vector<Article> kArticles = {
      {"a1", "Derby day", "Mourinho and Guardiola meet at Old Trafford.", "", "", ""},
      {"a2", "Milk row", "A carton of milk hit Mourinho on the stairs.", "", "", ""},
      {"a3", "Penalty", "Ederson saved a penalty.", "", "", ""},
  };
  return kArticles;
}

const std::vector<Article>& first_articles() {
  static const std::vector<Article> kArticles = {
      articles()[0],
      {"a2", "Milk row", "Milk was thrown at Mourinho after the derby.", "", "", ""},
      articles()[2],
  };
  return kArticles;
}

void expect_counts_of_the_final_articles(const Vocabulary& words) {
  EXPECT_EQ(words.at("mourinho"), 2u);
  EXPECT_EQ(words.at("derby"), 1u);  // the first a2 said it too
  EXPECT_EQ(words.at("carton"), 1u);
  EXPECT_EQ(words.count("thrown"), 0u);
  EXPECT_EQ(words.at("penalty"), 1u);  // as written, not stemmed
}

TEST(Vocabulary, NewIndexBuiltInParallelCountsTheFinalArticles) {
  TempDir dir;
  testing::index_articles(dir, articles());
  expect_counts_of_the_final_articles(vocabulary_of(testing::index_path(dir)));
}

TEST(Vocabulary, UpdatingAnIndexKeepsTheSameCounts) {
  TempDir parallel;
  testing::index_articles(parallel, articles());
  TempDir updated;
  {
    IndexConfig config;
    config.db_path = testing::index_path(updated);
    IndexWriter empty(config);
    empty.commit();
  }
  testing::index_articles(updated, first_articles());  // one writer, article by article
  testing::index_articles(updated, articles());
  EXPECT_EQ(vocabulary_of(testing::index_path(updated)),
            vocabulary_of(testing::index_path(parallel)));
}

// Builds articles() at `path` in parallel, stopping as `stop` does, then
// adopts what the build left as the next run would; the vocabulary must be
// a build's run through.
template <typename Stop>
void expect_adopted_with_the_vocabulary(const std::string& path, Stop stop) {
  TempDir built;
  testing::index_articles(built, articles());
  {
    detail::ParallelBuild build(path, "english", 2, 1000);
    for (const Article& article : articles()) build.add(article, "articles.jsonl");
    stop(build);
  }
  detail::adopt_interrupted_build(path);
  EXPECT_EQ(vocabulary_of(path), vocabulary_of(testing::index_path(built)));
}

TEST(Vocabulary, KilledBuildIsAdoptedWithItsVocabulary) {
  TempDir adopted;
  // Never published, as when the process is killed: the shards stay behind.
  expect_adopted_with_the_vocabulary(testing::index_path(adopted), [](detail::ParallelBuild&) {});
}

// The vocabulary is written into the build's first part before stories are
// linked; a build stopped while linking leaves it there, and the run that
// adopts the parts must not count the articles' words a second time.
TEST(Vocabulary, BuildStoppedWhileLinkingIsAdoptedWithItsVocabularyCountedOnce) {
  TempDir adopted;
  const std::string path = testing::index_path(adopted);
  expect_adopted_with_the_vocabulary(path, [&](detail::ParallelBuild& build) {
    const std::atomic<bool> cancelled{true};
    detail::LinkControl control;
    control.cancel = &cancelled;
    EXPECT_FALSE(build.publish([](IndexStep) {}, control));
    EXPECT_FALSE(std::filesystem::exists(path) && !std::filesystem::is_empty(path));
  });
}

TEST(Vocabulary, IndexOfAnotherLayoutIsRefusedWithAClearMessage) {
  TempDir dir;
  const std::string path = testing::index_path(dir);
  {
    Xapian::WritableDatabase db(path, Xapian::DB_CREATE);
    db.set_metadata("quarry.language", "english");
    db.set_metadata("quarry.schema", "1");
    Xapian::Document doc;
    doc.add_term("milk");
    db.add_document(doc);
    db.commit();
  }
  try {
    Searcher searcher(path);
    ADD_FAILURE() << "opened an index of another layout";
  } catch (const IndexError& error) {
    EXPECT_NE(std::string(error.what()).find("another version of Quarry"), std::string::npos)
        << error.what();
  }
  IndexConfig config;
  config.db_path = path;
  EXPECT_THROW(IndexWriter writer(config), IndexError);
}

}  // namespace
}  // namespace quarry
