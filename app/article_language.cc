#include "app/article_language.h"

#include "quarry/text/language_identifier.h"

namespace quarry {

std::string article_language(const Article& article) {
  const std::string code = language_code(article.language);
  return code.empty() ? article.language : code;
}

}  // namespace quarry
