#include "lib/index/article_store.h"

#include <gtest/gtest.h>

#include <string>

#include "quarry/error.h"

namespace quarry::detail {
namespace {

void expect_same(const Article& a, const Article& b) {
  EXPECT_EQ(a.id, b.id);
  EXPECT_EQ(a.title, b.title);
  EXPECT_EQ(a.body, b.body);
  EXPECT_EQ(a.date, b.date);
  EXPECT_EQ(a.category, b.category);
  EXPECT_EQ(a.source, b.source);
}

TEST(ArticleStore, EveryFieldComesBackAsStored) {
  const Article article{
      "001.txt", "Derby: “City win”", std::string(70000, 'x') + " Ederson ⚽", "2017-12-10",
      "sport",   "Press Association"};
  expect_same(decode_article(encode_article(article)), article);
}

TEST(ArticleStore, EmptyFieldsAndBinaryBytesSurvive) {
  const Article article{"id", "", std::string("nul\0byte", 8), "", "", ""};
  expect_same(decode_article(encode_article(article)), article);
}

TEST(ArticleStore, DamagedDataIsAnIndexErrorNotACrash) {
  const std::string data = encode_article({"id", "title", std::string(300, 'b'), "", "", ""});
  for (std::size_t cut : {std::size_t{0}, std::size_t{1}, std::size_t{5}, data.size() - 1}) {
    EXPECT_THROW(decode_article(data.substr(0, cut)), IndexError) << cut;
  }
  EXPECT_THROW(decode_article(data + "extra"), IndexError);
  EXPECT_THROW(decode_article(std::string(12, '\xFF')), IndexError);
}

}  // namespace
}  // namespace quarry::detail
