#include "lib/search/stored_positions.h"

#include "lib/index/schema.h"
#include "quarry/text/utf8.h"

namespace quarry::detail {

ArticleStemWords article_stem_words(const Xapian::Database& db, Xapian::docid did,
                                    std::size_t title_words,
                                    const std::vector<std::string>& stems) {
  const Xapian::termpos first_body = first_body_position(static_cast<Xapian::termpos>(title_words));
  ArticleStemWords places{StemWords(stems.size()), StemWords(stems.size())};
  for (std::size_t k = 0; k < stems.size(); ++k) {
    const std::string term = kStemPrefix + stems[k];
    const auto end = db.positionlist_end(did, term);
    for (auto it = db.positionlist_begin(did, term); it != end; ++it) {
      if (*it >= first_body) {
        places.body[k].push_back(*it - first_body);
      } else if (*it >= kFirstTitlePosition) {
        places.title[k].push_back(*it - kFirstTitlePosition);
      }
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
