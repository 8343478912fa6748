#include "lib/search/language_vocabulary.h"

#include <algorithm>

namespace quarry::detail {

Xapian::doccount articles_writing(const Xapian::Database& vocabulary, const std::string& word) {
  Xapian::TermIterator it = vocabulary.spellings_begin();
  it.skip_to(word);
  return it != vocabulary.spellings_end() && *it == word ? it.get_termfreq() : 0;
}

std::vector<Xapian::doccount> articles_writing(const Xapian::Database& vocabulary,
                                               const std::vector<const Analyzer*>& languages,
                                               const std::string& word) {
  std::vector<Xapian::doccount> counts(languages.size(), 0);
  Xapian::doccount others = 0;
  std::size_t main = languages.size();
  for (std::size_t i = 0; i < languages.size(); ++i) {
    const std::string& mark = languages[i]->config().stem_mark;
    if (mark.empty()) {
      main = i;
      continue;
    }
    counts[i] = articles_writing(vocabulary, mark + word);
    others += counts[i];
  }
  if (main < languages.size()) {
    const Xapian::doccount all = articles_writing(vocabulary, word);
    counts[main] = all - std::min(all, others);
  }
  return counts;
}

bool written_in(const Xapian::Database& vocabulary, const std::vector<const Analyzer*>& languages,
                const std::string& word, const std::vector<bool>& in) {
  if (languages.size() < 2) return true;
  const std::vector<Xapian::doccount> counts = articles_writing(vocabulary, languages, word);
  for (std::size_t i = 0; i < languages.size() && i < in.size(); ++i) {
    if (in[i] && counts[i] > 0) return true;
  }
  return false;
}

}  // namespace quarry::detail
