// How an article's stored text is kept in a Xapian document (kArticleSlot), so
// that snippets and re-display need nothing but the index.
//
// The fields are compressed with zstd against a dictionary trained on the
// index's first articles, kept in the index's metadata (kTextDictionaryKey):
// articles of one corpus share most of their phrasing, which a kilobyte of
// text alone cannot exploit. An index without a dictionary compresses each
// article on its own.
#ifndef QUARRY_LIB_INDEX_ARTICLE_STORE_H_
#define QUARRY_LIB_INDEX_ARTICLE_STORE_H_

#include <memory>
#include <string>
#include <vector>

#include "quarry/input/article.h"

namespace quarry::detail {

// A zstd dictionary trained on `sample`, or an empty string when the
// sample is too small or too uniform to train one on.
std::string train_text_dictionary(const std::vector<Article>& sample);

// Encodes and decodes stored articles. Not thread-safe: each thread needs
// its own, as it holds zstd's working memory.
class ArticleStore {
 public:
  // Compresses with `dictionary` (none when empty), and reads what it
  // compressed.
  explicit ArticleStore(const std::string& dictionary = {});
  ~ArticleStore();
  ArticleStore(ArticleStore&&) noexcept;
  ArticleStore& operator=(ArticleStore&&) noexcept;

  // Also reads articles compressed with `dictionary` (the other databases
  // of a search over several).
  void add_dictionary(const std::string& dictionary);

  std::string encode(const Article& article);

  // Throws IndexError when `data` is not what encode wrote, or was
  // compressed with a dictionary this store was not given.
  Article decode(const std::string& data);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// With no dictionary: ArticleStore().encode(article), .decode(data).
std::string encode_article(const Article& article);
Article decode_article(const std::string& data);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INDEX_ARTICLE_STORE_H_
