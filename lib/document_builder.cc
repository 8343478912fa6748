#include "lib/document_builder.h"

#include <xxhash.h>

#include <cstdint>

#include "lib/article_store.h"
#include "lib/date_range.h"
#include "lib/schema.h"
#include "lib/utf8.h"

namespace quarry::detail {
namespace {

Xapian::termpos index_text(const Analyzer& analyzer, Xapian::Document& doc,
                           const std::string& text, Xapian::termpos first, bool title) {
  Xapian::termpos pos = first;
  for (const Token& token : analyzer.tokenize(text)) {
    const std::string stem = analyzer.stem(token.term);
    doc.add_posting(token.term, pos);
    doc.add_term(kStemPrefix + stem);
    if (title) {
      doc.add_posting(kTitlePrefix + token.term, pos);
      doc.add_term(std::string(kStemPrefix) + kTitlePrefix + stem);
    }
    ++pos;
  }
  return pos;
}

template <typename Visit>
void for_each_spelling_word(const Xapian::Document& doc, Visit visit) {
  for (auto it = doc.termlist_begin(); it != doc.termlist_end();) {
    const std::string term = *it;
    // Prefixed terms start with a capital, sorting between digits and words.
    if (term[0] >= 'A' && term[0] <= 'Z') {
      it.skip_to("a");
      continue;
    }
    if (is_spelling_word(term)) visit(term);
    ++it;
  }
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
                               const std::string& origin) {
  Xapian::Document doc;
  Xapian::termpos next = index_text(analyzer, doc, article.title, 1, true);
  index_text(analyzer, doc, article.body, next + kBodyPositionGap, false);

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

bool is_spelling_word(const std::string& term) {
  const unsigned char first = static_cast<unsigned char>(term[0]);
  if (first >= 'a' && first <= 'z') return term.size() > 1;
  return first >= 0x80 && count_code_points(term) > 1;
}

void add_spelling(Xapian::WritableDatabase& db, const Xapian::Document& doc) {
  for_each_spelling_word(doc, [&](const std::string& word) { db.add_spelling(word); });
}

void remove_spelling(Xapian::WritableDatabase& db, const Xapian::Document& doc) {
  for_each_spelling_word(doc, [&](const std::string& word) { db.remove_spelling(word); });
}

}  // namespace quarry::detail
