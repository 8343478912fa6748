// How an article's stored text is kept in a Xapian document's data, so that
// snippets and re-display need nothing but the index.
#ifndef QUARRY_LIB_INDEX_ARTICLE_STORE_H_
#define QUARRY_LIB_INDEX_ARTICLE_STORE_H_

#include <string>

#include "quarry/input/article.h"

namespace quarry::detail {

std::string encode_article(const Article& article);

// Throws IndexError when `data` is not what encode_article wrote.
Article decode_article(const std::string& data);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INDEX_ARTICLE_STORE_H_
