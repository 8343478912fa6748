// A small index of a test's own articles, and a searcher of it.
#ifndef QUARRY_TESTS_ARTICLE_INDEX_H_
#define QUARRY_TESTS_ARTICLE_INDEX_H_

#include <string>
#include <vector>

#include "quarry/input/article.h"
#include "quarry/search/searcher.h"
#include "tests/test_util.h"

namespace quarry::testing {

// `articles` indexed in a folder of their own (as index_articles does), and
// a searcher opened on them: for a test whose index no other test shares.
struct ArticleIndex {
  explicit ArticleIndex(const std::vector<Article>& articles) : searcher(indexed(dir, articles)) {}

  TempDir dir;
  Searcher searcher;

 private:
  static std::string indexed(const TempDir& dir, const std::vector<Article>& articles) {
    index_articles(dir, articles);
    return index_path(dir);
  }
};

}  // namespace quarry::testing

#endif  // QUARRY_TESTS_ARTICLE_INDEX_H_
