#include "lib/index/article_store.h"

#include <gtest/gtest.h>

#include <string>

#include "quarry/error.h"
#include "tests/test_util.h"

namespace quarry::detail {
namespace {

using testing::expect_same_article;

TEST(ArticleStore, EveryFieldComesBackAsStored) {
  const Article article{
      "001.txt", "Derby: “City win”", std::string(70000, 'x') + " Ederson ⚽", "2017-12-10",
      "sport",   "Press Association"};
  expect_same_article(decode_article(encode_article(article)), article);
}

TEST(ArticleStore, EmptyFieldsAndBinaryBytesSurvive) {
  const Article article{"id", "", std::string("nul\0byte", 8), "", "", ""};
  expect_same_article(decode_article(encode_article(article)), article);
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
