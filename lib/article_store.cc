#include "lib/article_store.h"

#include <nlohmann/json.hpp>

#include "quarry/error.h"

namespace quarry::detail {

std::string encode_article(const Article& article) {
  nlohmann::json data = {{"id", article.id}, {"title", article.title}, {"body", article.body}};
  if (!article.date.empty()) data["date"] = article.date;
  if (!article.category.empty()) data["category"] = article.category;
  if (!article.source.empty()) data["source"] = article.source;
  // Readers repair invalid UTF-8, so replacing here only guards the index.
  return data.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

Article decode_article(const std::string& data) {
  nlohmann::json json = nlohmann::json::parse(data, nullptr, false);
  if (!json.is_object()) throw IndexError("index holds an article that cannot be read");
  Article article;
  article.id = json.value("id", "");
  article.title = json.value("title", "");
  article.body = json.value("body", "");
  article.date = json.value("date", "");
  article.category = json.value("category", "");
  article.source = json.value("source", "");
  return article;
}

}  // namespace quarry::detail
