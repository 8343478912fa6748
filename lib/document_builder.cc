#include "lib/document_builder.h"

#include <xxhash.h>

#include <algorithm>
#include <cstdint>

#include "lib/article_store.h"
#include "lib/date_range.h"
#include "lib/schema.h"
#include "lib/utf8.h"

namespace quarry::detail {
namespace {

// Every word is indexed as its stem, with its position; title words are also
// indexed under the title prefix, without positions (the unprefixed stems
// hold them). Phrases therefore match stems in order, as free words do, and
// one positional term per distinct stem keeps the index small.
Xapian::termpos index_text(const Analyzer& analyzer, Xapian::Document& doc,
                           const std::string& text, Xapian::termpos first, bool title,
                           std::vector<std::string>* words) {
  Xapian::termpos pos = first;
  for (Token& token : analyzer.tokenize(text)) {
    std::string term = kStemPrefix + analyzer.stem(token.term);
    if (title) {
      std::string title_term = term;
      title_term.insert(1, kTitlePrefix);
      doc.add_term(title_term);
    }
    doc.add_posting(term, pos);
    if (words) words->push_back(std::move(token.term));
    ++pos;
  }
  return pos;
}

void sort_unique(std::vector<std::string>* words) {
  std::sort(words->begin(), words->end());
  words->erase(std::unique(words->begin(), words->end()), words->end());
}

}  // namespace

std::string fingerprint(const Article& article, const std::string& language) {
  XXH3_state_t* state = XXH3_createState();
  XXH3_128bits_reset(state);
  // Lengths first, so that moving text from one field to the next changes
  // the hash.
  for (const std::string* field : {&language, &article.id, &article.title, &article.body,
                                   &article.date, &article.category, &article.source}) {
    std::uint64_t size = field->size();
    XXH3_128bits_update(state, &size, sizeof size);
    XXH3_128bits_update(state, field->data(), field->size());
  }
  XXH128_hash_t hash = XXH3_128bits_digest(state);
  XXH3_freeState(state);
  return std::string(reinterpret_cast<const char*>(&hash), sizeof hash);
}

Xapian::Document make_document(const Analyzer& analyzer, const Article& article,
                               const std::string& origin, std::vector<std::string>* words) {
  Xapian::Document doc;
  Xapian::termpos next = index_text(analyzer, doc, article.title, 1, true, words);
  index_text(analyzer, doc, article.body, next + kBodyPositionGap, false, words);
  if (words) sort_unique(words);

  doc.add_boolean_term(id_term(article.id));
  doc.add_boolean_term(boolean_term(kOriginPrefix, origin));
  if (!article.source.empty()) {
    doc.add_boolean_term(boolean_term(kSourcePrefix, analyzer.normalize(article.source)));
  }
  if (!article.category.empty()) {
    doc.add_boolean_term(boolean_term(kCategoryPrefix, analyzer.normalize(article.category)));
  }
  if (std::string date = sortable_date(article.date); !date.empty()) {
    doc.add_value(kDateSlot, date);
  }
  doc.add_value(kFingerprintSlot, fingerprint(article, analyzer.config().language));
  doc.set_data(encode_article(article));
  return doc;
}

std::vector<std::string> article_words(const Analyzer& analyzer, const Article& article) {
  std::vector<std::string> words;
  for (const std::string* text : {&article.title, &article.body}) {
    for (Token& token : analyzer.tokenize(*text)) words.push_back(std::move(token.term));
  }
  sort_unique(&words);
  return words;
}

bool is_spelling_word(const std::string& word) {
  const unsigned char first = static_cast<unsigned char>(word[0]);
  if (first >= 'a' && first <= 'z') return word.size() > 1;
  return first >= 0x80 && count_code_points(word) > 1;
}

void add_words(Xapian::WritableDatabase& db, const std::vector<std::string>& words) {
  for (const std::string& word : words) db.add_spelling(word);
}

void remove_words(Xapian::WritableDatabase& db, const std::vector<std::string>& words) {
  for (const std::string& word : words) db.remove_spelling(word);
}

}  // namespace quarry::detail
