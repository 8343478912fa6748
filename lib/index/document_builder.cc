#include "lib/index/document_builder.h"

#include <xxhash.h>

#include <algorithm>
#include <cstdint>

#include "lib/index/article_store.h"
#include "lib/index/schema.h"
#include "lib/index/story_signature.h"
#include "quarry/text/language_identifier.h"

namespace quarry::detail {
namespace {

// Every word is indexed as its stem, with its position; title words are also
// indexed under the title prefix, without positions (the unprefixed stems
// hold them). Phrases therefore match stems in order, as free words do, and
// one positional term per distinct stem keeps the index small.
// `stem_term(word)` gives the indexed term of each word the analyzer reads.
template <typename StemTerm>
Xapian::termpos index_text(const Analyzer& analyzer, Xapian::Document& doc, const std::string& text,
                           Xapian::termpos first, bool title, StemTerm stem_term) {
  Xapian::termpos pos = first;
  for (Token& token : analyzer.tokenize(text)) {
    const std::string& term = stem_term(token.term);
    if (title) {
      std::string title_term = term;
      title_term.insert(1, kTitlePrefix);
      doc.add_term(title_term);
    }
    doc.add_posting(term, pos);
    ++pos;
  }
  return pos;
}

void sort_unique(std::vector<std::string>* words) {
  std::sort(words->begin(), words->end());
  words->erase(std::unique(words->begin(), words->end()), words->end());
}

// Sorted distinct words, then the same after the language's mark (see
// language_word), for an article in a language but the main one.
void add_language_words(const Analyzer& analyzer, std::vector<std::string>* words) {
  const std::string& mark = analyzer.config().stem_mark;
  if (mark.empty()) return;
  const std::size_t count = words->size();
  for (std::size_t i = 0; i < count; ++i) words->push_back(mark + (*words)[i]);
}

}  // namespace

std::string fingerprint(const Article& article, const std::string& language) {
  XXH3_state_t* state = XXH3_createState();
  XXH3_128bits_reset(state);
  // Lengths first, so that moving text from one field to the next changes
  // the hash.
  for (const std::string* field :
       {&language, &article.id, &article.title, &article.body, &article.date, &article.category,
        &article.source, &article.language}) {
    std::uint64_t size = field->size();
    XXH3_128bits_update(state, &size, sizeof size);
    XXH3_128bits_update(state, field->data(), field->size());
  }
  XXH128_hash_t hash = XXH3_128bits_digest(state);
  XXH3_freeState(state);
  return std::string(reinterpret_cast<const char*>(&hash), sizeof hash);
}

namespace {

// The terms every article has besides its words, its value slots and its
// stored text, which holds the language it is analyzed in.
void add_fields(const Analyzer& analyzer, const Article& article, const std::string& origin,
                ArticleStore* store, Xapian::Document& doc) {
  const std::string& language = analyzer.config().language;
  doc.add_boolean_term(id_term(article.id));
  doc.add_boolean_term(kLanguagePrefix + language);
  doc.add_value(kLanguageSlot, language_label(language));
  doc.add_boolean_term(boolean_term(kOriginPrefix, origin));
  if (!article.source.empty()) {
    doc.add_boolean_term(boolean_term(kSourcePrefix, analyzer.normalize(article.source)));
    doc.add_value(kSourceSlot, article.source);
  }
  if (!article.category.empty()) {
    doc.add_boolean_term(boolean_term(kCategoryPrefix, analyzer.normalize(article.category)));
    doc.add_value(kCategorySlot, article.category);
  }
  const std::string date = sortable_date(article.date);
  if (!date.empty()) doc.add_value(kDateSlot, date);
  const std::string time = sortable_time(article.date);
  if (!time.empty()) doc.add_value(kTimeSlot, time);
  doc.add_value(kHitOrderSlot, hit_order_key(date, article.id));
  const auto stored = [&](const Article& text) {
    return store ? store->encode(text) : encode_article(text);
  };
  if (article.language == language) {
    doc.add_value(kArticleSlot, stored(article));
  } else {
    Article told = article;
    told.language = language;
    doc.add_value(kArticleSlot, stored(told));
  }
}

// The article's words and fields, each word indexed as `stem_term` gives it.
template <typename StemTerm>
Xapian::Document build_document(const Analyzer& analyzer, const Article& article,
                                const std::string& origin, ArticleStore* store,
                                StemTerm stem_term) {
  Xapian::Document doc;
  StorySignatureBuilder signature(analyzer);
  const auto signed_stem_term = [&](const std::string& word) -> const std::string& {
    const std::string& term = stem_term(word);
    signature.add(term);
    return term;
  };
  const Xapian::termpos after_title =
      index_text(analyzer, doc, article.title, kFirstTitlePosition, true, signed_stem_term);
  index_text(analyzer, doc, article.body, first_body_position(after_title - kFirstTitlePosition),
             false, signed_stem_term);
  add_fields(analyzer, article, origin, store, doc);
  signature.add_to(doc);
  return doc;
}

}  // namespace

Xapian::Document make_document(const Analyzer& analyzer, const Article& article,
                               const std::string& origin, std::vector<std::string>* words,
                               ArticleStore* store) {
  std::string term;
  Xapian::Document doc = build_document(analyzer, article, origin, store,
                                        [&](const std::string& word) -> const std::string& {
                                          if (words) words->push_back(word);
                                          term = kStemPrefix + analyzer.stem(word);
                                          return term;
                                        });
  if (words) {
    sort_unique(words);
    add_language_words(analyzer, words);
  }
  return doc;
}

Xapian::Document make_document(const Analyzer& analyzer, const Article& article,
                               const std::string& origin, WordTable& words, ArticleStore& store) {
  words.next_article();
  return build_document(analyzer, article, origin, &store,
                        [&](const std::string& word) -> const std::string& {
                          return words.stem_term(analyzer, word);
                        });
}

std::vector<std::string> article_words(const Analyzer& analyzer, const Article& article) {
  std::vector<std::string> words;
  for (const std::string* text : {&article.title, &article.body}) {
    for (Token& token : analyzer.tokenize(*text)) words.push_back(std::move(token.term));
  }
  sort_unique(&words);
  add_language_words(analyzer, &words);
  return words;
}

std::vector<std::string> stored_article_words(LanguageAnalyzers& analyzers, ArticleStore& store,
                                              const Xapian::Database& db, Xapian::docid did) {
  const Article article = store.decode(db.get_document(did).get_value(kArticleSlot));
  return article_words(article.language.empty() ? analyzers.main() : analyzers.of(article.language),
                       article);
}

void add_words(Xapian::WritableDatabase& db, const std::vector<std::string>& words) {
  for (const std::string& word : words) db.add_spelling(word);
}

void remove_words(Xapian::WritableDatabase& db, const std::vector<std::string>& words) {
  for (const std::string& word : words) db.remove_spelling(word);
}

}  // namespace quarry::detail
