// What Quarry stores for an article: the terms a search matches, the values
// it sorts and filters by, and the text it shows.
#include "lib/index/document_builder.h"

#include <gtest/gtest.h>
#include <xapian.h>

#include <set>
#include <string>
#include <vector>

#include "lib/index/article_store.h"
#include "lib/index/schema.h"
#include "lib/index/story_signature.h"
#include "lib/index/word_table.h"
#include "lib/search/stored_positions.h"
#include "quarry/text/analyzer.h"
#include "tests/test_util.h"

namespace quarry::detail {
namespace {

const Article kArticle{.id = "a-1",
                       .title = "Derby penalties",
                       .body = "Running late, the derby",
                       .date = "2017-12-10T15:01:01",
                       .category = "Sport",
                       .source = "Press Association"};

// The sample article with another date, as the index would store it.
Xapian::Document document_dated(const std::string& date) {
  Article article = kArticle;
  article.date = date;
  return make_document(Analyzer(), article, "/corpus");
}

// Title words are indexed once more, after the stem prefix.
const std::string kTitleStemPrefix = std::string(kStemPrefix) + kTitlePrefix;

std::set<std::string> terms_of(const Xapian::Document& doc) {
  return {doc.termlist_begin(), doc.termlist_end()};
}

std::vector<Xapian::termpos> positions_of(const Xapian::Document& doc, const std::string& term) {
  Xapian::TermIterator it = doc.termlist_begin();
  it.skip_to(term);
  if (it == doc.termlist_end() || *it != term) return {};
  return {it.positionlist_begin(), it.positionlist_end()};
}

TEST(DocumentBuilder, HoldsStemsTitleStemsAndOneTermPerField) {
  const Analyzer analyzer;
  const Xapian::Document doc = make_document(analyzer, kArticle, "/corpus");
  // The story signature adds values, no terms (story_linker_test.cc).
  std::set<std::string> terms = terms_of(doc);
  EXPECT_EQ(terms, (std::set<std::string>{
                       kStemPrefix + analyzer.stem("derby"),
                       kStemPrefix + analyzer.stem("penalties"),
                       kStemPrefix + analyzer.stem("running"),
                       kStemPrefix + analyzer.stem("late"),
                       kStemPrefix + analyzer.stem("the"),
                       kTitleStemPrefix + analyzer.stem("derby"),
                       kTitleStemPrefix + analyzer.stem("penalties"),
                       "Qa-1",
                       "XO/corpus",
                       "XSOURCEpress association",
                       "XCATsport",
                       "XLANGenglish",
                   }));
}

TEST(DocumentBuilder, BodyStartsAGapAfterTheTitle) {
  const Analyzer analyzer;
  const Xapian::Document doc = make_document(analyzer, kArticle, "/corpus");
  // Title words at 1 and 2; the body's first word at 3 + kBodyPositionGap.
  const Xapian::termpos body = 3 + kBodyPositionGap;
  const struct {
    const char* word;
    std::vector<Xapian::termpos> positions;
  } cases[] = {
      {"derby", {1, body + 3}}, {"penalties", {2}},  {"running", {body}},
      {"late", {body + 1}},     {"the", {body + 2}},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(positions_of(doc, kStemPrefix + analyzer.stem(c.word)), c.positions) << c.word;
  }
  // Title stems are for matching only: their positions are the stems'.
  EXPECT_TRUE(positions_of(doc, kTitleStemPrefix + analyzer.stem("derby")).empty());
}

TEST(DocumentBuilder, StoresDateLanguageAndText) {
  const Analyzer analyzer(AnalyzerConfig{"french", "XFR"});
  const Xapian::Document doc = make_document(analyzer, kArticle, "/corpus");
  EXPECT_EQ(doc.get_value(kDateSlot), "20171210");
  EXPECT_EQ(doc.get_value(kLanguageSlot), "fr");
  EXPECT_TRUE(terms_of(doc).contains(std::string(kLanguagePrefix) + "french"));
  // The article is stored in the language it was analyzed in.
  Article stored = kArticle;
  stored.language = "french";
  testing::expect_same_article(decode_article(doc.get_value(kArticleSlot)), stored);
  EXPECT_EQ(decode_article(doc.get_value(kArticleSlot)).language, "french");
}

TEST(DocumentBuilder, DateSlotHoldsValidCalendarDatesOnly) {
  const struct {
    const char* date;
    const char* value;  // empty: the article has no date
  } cases[] = {
      {"2017-12-10", "20171210"},
      {"2017-12-10T15:01:01Z", "20171210"},
      {"2016-02-29", "20160229"},
      {"2017-02-29", ""},
      {"2017-13-01", ""},
      {"2017-12-00", ""},
      {"2017-12", ""},
      {"2017", ""},
      {"10/12/2017", ""},
      {"2017-1a-10", ""},
      {"yesterday", ""},
      {"", ""},
  };
  for (const auto& c : cases) {
    const Xapian::Document doc = document_dated(c.date);
    EXPECT_EQ(doc.get_value(kDateSlot), c.value) << '"' << c.date << '"';
    EXPECT_EQ(decode_article(doc.get_value(kArticleSlot)).date, c.date)
        << "the text keeps what was given";
  }
}

TEST(DocumentBuilder, TimeSlotHoldsTheTimeOfADatedArticle) {
  const struct {
    const char* date;
    const char* value;  // empty: no time is kept
  } cases[] = {
      {"2017-12-10T15:01:01", "150101"},
      {"2017-12-10T05:43:10Z", "054310"},
      {"2017-12-10T15:01:01+02:00", "130101"},
      {"2017-12-10T15:01:01+0200", "130101"},
      {"2017-12-10T15:01:01-05:30", "203101"},
      {"2017-12-10T15:01+01", "1401"},
      {"2017-12-10T01:00:00+05:00", "-200000"},
      {"2017-12-10T23:00-05:00", "2800"},
      {"2017-12-10T15:01:01.25+00:00", "15010125"},
      {"2017-12-10T15:01:01 CET", "150101"},
      {"2017-12-10 07:39", "0739"},
      {"2017-12-10T07:43:00.5", "0743005"},
      {"2017-12-10T23:59:60", "235960"},
      {"2017-12-10T00:00:00", "000000"},
      {"2017-12-10", ""},
      {"2017-12-10T", ""},
      {"2017-12-10T24:00:00", ""},
      {"2017-12-10T12:60", ""},
      {"2017-12-10T1:05:00", ""},
      {"2017-12-10X15:01:01", ""},
      {"2017-02-30T15:01:01", ""},
      {"", ""},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(document_dated(c.date).get_value(kTimeSlot), c.value) << '"' << c.date << '"';
  }
}

TEST(DocumentBuilder, EmptySourceAndCategoryHaveNoTerm) {
  Article article = kArticle;
  article.source.clear();
  article.category.clear();
  const std::set<std::string> terms = terms_of(make_document(Analyzer(), article, "/corpus"));
  for (const std::string& term : terms) {
    EXPECT_FALSE(term.starts_with(kSourcePrefix)) << term;
    EXPECT_FALSE(term.starts_with(kCategoryPrefix)) << term;
  }
}

TEST(DocumentBuilder, LongIdsAndOriginsAreHashedToFitXapiansTermLimit) {
  Article article = kArticle;
  article.id = std::string(300, 'i');
  const Xapian::Document doc = make_document(Analyzer(), article, std::string(300, 'o'));
  for (const std::string& term : terms_of(doc)) EXPECT_LE(term.size(), 245u) << term;
  EXPECT_EQ(terms_of(doc).count(id_term(article.id)), 1u);
}

TEST(DocumentBuilder, GivesTheArticlesDistinctWords) {
  std::vector<std::string> words;
  make_document(Analyzer(), kArticle, "/corpus", &words);
  EXPECT_EQ(words, (std::vector<std::string>{"derby", "late", "penalties", "running", "the"}));
}

TEST(DocumentBuilder, AWordTableBuildsTheSameDocument) {
  const Analyzer analyzer;
  WordTable words(analyzer.config().language);
  ArticleStore store;
  EXPECT_EQ(terms_of(make_document(analyzer, kArticle, "/corpus", words, store)),
            terms_of(make_document(analyzer, kArticle, "/corpus")));
  // In another language, the table gives that language's marked stems.
  const Analyzer& french = words.analyzers().of("french");
  EXPECT_EQ(terms_of(make_document(french, kArticle, "/corpus", words, store)),
            terms_of(make_document(french, kArticle, "/corpus")));
}

TEST(DocumentBuilder, FingerprintChangesWithWhatIsIndexed) {
  const std::string print = fingerprint(kArticle, "english");
  EXPECT_EQ(fingerprint(kArticle, "english"), print);
  EXPECT_NE(fingerprint(kArticle, "french"), print);
  const struct {
    const char* change;
    Article article;
  } cases[] = {
      {"title", {"a-1", "Derby penalty", kArticle.body, kArticle.date, "Sport", kArticle.source}},
      {"text moved from title to body",
       {"a-1", "Derby", "penalties Running late, the derby", kArticle.date, "Sport",
        kArticle.source}},
      {"date", {"a-1", kArticle.title, kArticle.body, "2017-12-11", "Sport", kArticle.source}},
      {"category", {"a-1", kArticle.title, kArticle.body, kArticle.date, "sport", kArticle.source}},
      {"source", {"a-1", kArticle.title, kArticle.body, kArticle.date, "Sport", "PA"}},
  };
  for (const auto& c : cases) EXPECT_NE(fingerprint(c.article, "english"), print) << c.change;
}

TEST(DocumentBuilder, ArticleStemWordsReadsPositionsBack) {
  const Analyzer analyzer;
  Xapian::WritableDatabase db(std::string(), Xapian::DB_BACKEND_INMEMORY);
  const Xapian::docid did = db.add_document(make_document(analyzer, kArticle, "/corpus"));
  // Body words: 0 running, 1 late, 2 the, 3 derby; the title's derby is not
  // the body's.
  const ArticleStemWords places = article_stem_words(
      db, did, analyzer.tokenize(kArticle.title).size(),
      {analyzer.stem("derby"), analyzer.stem("late"), analyzer.stem("penalties")});
  EXPECT_EQ(places.body, (std::vector<std::vector<std::size_t>>{{3}, {1}, {}}));
  // Title words: 0 derby, 1 penalties.
  EXPECT_EQ(places.title, (std::vector<std::vector<std::size_t>>{{0}, {}, {1}}));
}

TEST(DocumentBuilder, StoredArticleWordsAreTheArticlesWords) {
  LanguageAnalyzers analyzers(kDefaultLanguage);
  const Analyzer& french = analyzers.of("french");
  Xapian::WritableDatabase db(std::string(), Xapian::DB_BACKEND_INMEMORY);
  const Xapian::docid english = db.add_document(make_document(analyzers.main(), kArticle, "/c"));
  const Xapian::docid in_french = db.add_document(make_document(french, kArticle, "/c"));
  ArticleStore store;
  EXPECT_EQ(stored_article_words(analyzers, store, db, english),
            article_words(analyzers.main(), kArticle));
  // An article in another language counts its words again after the
  // language's mark, read back in the language it was stored in.
  const std::vector<std::string> words = stored_article_words(analyzers, store, db, in_french);
  EXPECT_EQ(words, article_words(french, kArticle));
  EXPECT_NE(std::find(words.begin(), words.end(), "XFRderby"), words.end());
  EXPECT_NE(std::find(words.begin(), words.end(), "derby"), words.end());
}

TEST(DocumentBuilder, SpellingOffersRealWordsOnly) {
  const struct {
    const char* word;
    bool offered;
  } cases[] = {
      {"derby", true}, {"a", false}, {"2017", false}, {"été", true}, {"東京", true}, {"東", false},
  };
  for (const auto& c : cases) EXPECT_EQ(is_spelling_word(c.word), c.offered) << c.word;
}

}  // namespace
}  // namespace quarry::detail
