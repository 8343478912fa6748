#include "lib/index/article_store.h"

#include <gtest/gtest.h>
#include <xapian.h>

#include <optional>
#include <random>
#include <string>
#include <vector>

#include "lib/index/schema.h"
#include "quarry/error.h"
#include "quarry/index/index_writer.h"
#include "quarry/search/searcher.h"
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

// Articles of a made-up corpus: sentences drawn from a small stock, as news
// repeats its phrasing, numbered so that no two articles are the same.
std::vector<Article> corpus(std::size_t count) {
  const std::vector<std::string> sentences = {
      "The central bank left interest rates unchanged on Thursday. ",
      "Shares in the company rose sharply after the announcement. ",
      "The minister said the government would publish its plans next week. ",
      "Analysts had expected a smaller rise in the quarterly figures. ",
      "The match ended in a draw after a late penalty. ",
      "Officials said talks would resume in the coming days. ",
      "Oil prices fell for a third day as supplies grew. ",
      "The film opened to strong reviews at the festival. "};
  std::mt19937 random(7);
  std::vector<Article> articles;
  for (std::size_t i = 0; i < count; ++i) {
    std::string body;
    for (int s = 0; s < 12; ++s) body += sentences[random() % sentences.size()];
    body += "Story " + std::to_string(i) + ".";
    articles.push_back({"id-" + std::to_string(i), "Headline number " + std::to_string(i), body,
                        "2017-12-10", "business", "Reuters"});
  }
  return articles;
}

TEST(ArticleStore, ADictionaryTrainedOnTheCorpusShrinksItsArticles) {
  const std::vector<Article> articles = corpus(400);
  const std::string dictionary = train_text_dictionary(articles);
  ASSERT_FALSE(dictionary.empty());
  ArticleStore with(dictionary);
  ArticleStore without;
  std::size_t plain = 0, alone = 0, shared = 0;
  for (const Article& article : articles) {
    const std::string data = with.encode(article);
    expect_same_article(with.decode(data), article);
    plain += article.body.size() + article.title.size();
    alone += without.encode(article).size();
    shared += data.size();
  }
  EXPECT_LT(alone, plain / 2) << "each article compressed on its own";
  EXPECT_LT(shared, alone / 2) << "the dictionary holds what articles share";
}

TEST(ArticleStore, TooFewArticlesTrainNoDictionary) {
  EXPECT_EQ(train_text_dictionary(corpus(5)), "");
  EXPECT_EQ(train_text_dictionary({}), "");
}

TEST(ArticleStore, ArticlesNeedTheDictionaryTheyWereCompressedWith) {
  const std::vector<Article> articles = corpus(400);
  const std::string data = ArticleStore(train_text_dictionary(articles)).encode(articles[0]);
  try {
    ArticleStore().decode(data);
    ADD_FAILURE() << "decoded without the dictionary";
  } catch (const IndexError& error) {
    EXPECT_NE(std::string(error.what()).find("dictionary"), std::string::npos) << error.what();
  }
  // A store reading several indexes is given each one's dictionary.
  ArticleStore reader(train_text_dictionary(corpus(300)));
  reader.add_dictionary(train_text_dictionary(articles));
  expect_same_article(reader.decode(data), articles[0]);
}

TEST(ArticleStore, DamagedCompressedDataIsAnIndexError) {
  const std::vector<Article> articles = corpus(400);
  ArticleStore store(train_text_dictionary(articles));
  const std::string data = store.encode(articles[1]);
  for (std::size_t cut = 0; cut < data.size(); cut += 7) {
    EXPECT_THROW(store.decode(data.substr(0, cut)), IndexError) << cut;
  }
  for (std::size_t at = 1; at < data.size(); at += 5) {
    std::string flipped = data;
    flipped[at] = static_cast<char>(flipped[at] ^ 0x10);
    EXPECT_THROW(store.decode(flipped), IndexError) << "byte " << at << " of " << data.size();
  }
}

TEST(ArticleStore, ANewIndexTrainsItsDictionaryAndEveryArticleReadsBack) {
  testing::TempDir dir;
  std::vector<Article> articles = corpus(1200);
  testing::index_articles(dir, articles);
  const std::string path = testing::index_path(dir);
  const std::string dictionary = Xapian::Database(path).get_metadata(kTextDictionaryKey);
  ASSERT_FALSE(dictionary.empty()) << "a dictionary trained on the first articles";
  {
    // Articles read after the training are stored with the dictionary.
    const Xapian::Database db(path);
    const auto late = db.postlist_begin(id_term(articles[1150].id));
    ASSERT_NE(late, db.postlist_end(id_term(articles[1150].id)));
    EXPECT_LT(db.get_document(*late).get_value(kArticleSlot).size(),
              ArticleStore().encode(articles[1150]).size());
  }
  // An update compresses with the index's dictionary too.
  articles[3].body = "Nothing of what it said before. " + articles[7].body;
  {
    IndexConfig config;
    config.db_path = path;
    IndexWriter writer(config);
    writer.upsert(articles[3], "articles.jsonl");
    writer.commit();
  }
  Searcher searcher(path);
  for (std::size_t i : {0, 3, 999, 1000, 1199}) {
    const std::optional<Article> stored = searcher.fetch(articles[i].id);
    ASSERT_TRUE(stored) << articles[i].id;
    expect_same_article(*stored, articles[i]);
  }
}

}  // namespace
}  // namespace quarry::detail
