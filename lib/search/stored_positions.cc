#include "lib/search/stored_positions.h"

#include "lib/index/schema.h"
#include "quarry/text/utf8.h"

namespace quarry::detail {

StemWords body_stem_words(const Xapian::Database& db, Xapian::docid did, const Analyzer& analyzer,
                          const std::string& title, const std::vector<std::string>& stems) {
  const Xapian::termpos first =
      first_body_position(static_cast<Xapian::termpos>(analyzer.tokenize(title).size()));
  StemWords places(stems.size());
  for (std::size_t k = 0; k < stems.size(); ++k) {
    const std::string term = kStemPrefix + stems[k];
    const auto end = db.positionlist_end(did, term);
    for (auto it = db.positionlist_begin(did, term); it != end; ++it) {
      if (*it >= first) places[k].push_back(*it - first);
    }
  }
  return places;
}

bool is_spelling_word(const std::string& word) {
  const unsigned char first = static_cast<unsigned char>(word[0]);
  if (first >= 'a' && first <= 'z') return word.size() > 1;
  return first >= 0x80 && count_code_points(word) > 1;
}

}  // namespace quarry::detail
