#include "lib/search/spelling.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "lib/search/stored_positions.h"
#include "quarry/text/utf8.h"

namespace quarry::detail {
namespace {

// "Much more frequent": a suggestion for a word that some articles hold
// must be held by this many times as many.
constexpr Xapian::doccount kMuchMoreFrequent = 10;
// A word two edits away is suggested only when at least this many articles
// hold it: the further the jump, the more evidence it needs.
constexpr Xapian::doccount kMinTwoEditArticles = 10;
// A suggestion is held by more than one article in this many.
constexpr Xapian::doccount kArticlesPerUse = 2000;
// Words this long are not looked at: each would cost thousands of lookups.
constexpr std::size_t kMaxWordCodePoints = 40;

// The byte offsets where the word's code points start, and its size.
std::vector<std::size_t> code_point_starts(std::string_view word) {
  std::vector<std::size_t> starts;
  for (std::size_t i = 0; i < word.size(); ++i) {
    if (starts_code_point(word[i]) || starts.empty()) starts.push_back(i);
  }
  starts.push_back(word.size());
  return starts;
}

// The word's code points, each as its UTF-8 bytes.
std::vector<std::string_view> code_points(std::string_view word) {
  const std::vector<std::size_t> starts = code_point_starts(word);
  std::vector<std::string_view> out;
  for (std::size_t k = 0; k + 1 < starts.size(); ++k) {
    out.push_back(word.substr(starts[k], starts[k + 1] - starts[k]));
  }
  return out;
}

// Every word one edit away from `word` (whose code points start at the
// byte offsets `starts`, the word's size last) that keeps its first letter,
// sorted. Letters are added and changed from the index's likely alphabet:
// the vocabulary is folded to lower case without accents, so a–z, and the
// word's own letters (digits, other scripts).
std::vector<std::string> one_edit_away(std::string_view word,
                                       const std::vector<std::size_t>& starts) {
  std::vector<std::string> alphabet;
  for (char c = 'a'; c <= 'z'; ++c) alphabet.emplace_back(1, c);
  for (std::size_t k = 0; k + 1 < starts.size(); ++k) {
    alphabet.emplace_back(word.substr(starts[k], starts[k + 1] - starts[k]));
  }
  std::sort(alphabet.begin(), alphabet.end());
  alphabet.erase(std::unique(alphabet.begin(), alphabet.end()), alphabet.end());

  const std::size_t n = starts.size() - 1;  // code points
  std::vector<std::string> edits;
  edits.reserve((2 * n + 1) * alphabet.size() + 2 * n);
  auto add = [&](std::string_view a, std::string_view b, std::string_view c) {
    std::string& edit = edits.emplace_back();
    edit.reserve(a.size() + b.size() + c.size());
    edit.append(a).append(b).append(c);
  };
  for (std::size_t i = 1; i <= n; ++i) {
    const std::string_view before = word.substr(0, starts[i]);
    const std::string_view from_here = word.substr(starts[i]);
    for (const std::string& letter : alphabet) add(before, letter, from_here);  // added
    if (i == n) break;
    const std::string_view letter = word.substr(starts[i], starts[i + 1] - starts[i]);
    const std::string_view rest = word.substr(starts[i + 1]);
    add(before, "", rest);  // left out
    for (const std::string& other : alphabet) {
      if (other != letter) add(before, other, rest);  // changed
    }
    if (i + 1 < n) {  // swapped with the next
      const std::string_view next = word.substr(starts[i + 1], starts[i + 2] - starts[i + 1]);
      std::string& edit = edits.emplace_back(before);
      edit.append(next).append(letter).append(word.substr(starts[i + 2]));
    }
  }
  std::sort(edits.begin(), edits.end());
  edits.erase(std::unique(edits.begin(), edits.end()), edits.end());
  return edits;
}

Xapian::doccount articles_holding(const Xapian::Database& vocabulary, const std::string& word) {
  Xapian::TermIterator it = vocabulary.spellings_begin();
  it.skip_to(word);
  return it != vocabulary.spellings_end() && *it == word ? it.get_termfreq() : 0;
}

// Whether `candidate` may be suggested for a word of stem `stem`.
bool may_suggest(const Analyzer& analyzer, const std::string& stem, const std::string& candidate) {
  return is_spelling_word(candidate) && analyzer.stem(candidate) != stem;
}

// The most frequent of `candidates` (sorted) that the vocabulary holds in
// at least `at_least` articles and may be suggested, with how many; one
// pass of one iterator.
std::pair<std::string, Xapian::doccount> most_frequent(const Xapian::Database& vocabulary,
                                                       const std::vector<std::string>& candidates,
                                                       Xapian::doccount at_least,
                                                       const Analyzer& analyzer,
                                                       const std::string& stem) {
  std::pair<std::string, Xapian::doccount> best{"", 0};
  Xapian::TermIterator it = vocabulary.spellings_begin();
  auto candidate = candidates.begin();
  while (candidate != candidates.end()) {
    it.skip_to(*candidate);
    if (it == vocabulary.spellings_end()) break;
    const std::string word = *it;
    if (word != *candidate) {
      // Most candidates are no words: those before the next word the
      // vocabulary holds are passed over without a lookup each.
      candidate = std::lower_bound(candidate, candidates.end(), word);
      continue;
    }
    const Xapian::doccount held = it.get_termfreq();
    if (held >= at_least && held > best.second && may_suggest(analyzer, stem, word)) {
      best = {word, held};
    }
    ++candidate;
  }
  return best;
}

}  // namespace

std::size_t edit_distance(std::string_view a, std::string_view b) {
  const std::vector<std::string_view> x = code_points(a);
  const std::vector<std::string_view> y = code_points(b);
  // Three rows of the table: two back for swaps, the previous, the current.
  std::vector<std::size_t> before(y.size() + 1), previous(y.size() + 1), current(y.size() + 1);
  for (std::size_t j = 0; j <= y.size(); ++j) previous[j] = j;
  for (std::size_t i = 1; i <= x.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= y.size(); ++j) {
      const std::size_t changed = previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1);
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, changed});
      if (i > 1 && j > 1 && x[i - 1] == y[j - 2] && x[i - 2] == y[j - 1]) {
        current[j] = std::min(current[j], before[j - 2] + 1);
      }
    }
    std::swap(before, previous);
    std::swap(previous, current);
  }
  return previous[y.size()];
}

std::string better_spelling(const Xapian::Database& vocabulary, Xapian::doccount articles,
                            const Analyzer& analyzer, const std::string& word,
                            bool finds_articles) {
  if (word.empty() || !is_spelling_word(word)) return "";
  const std::vector<std::size_t> starts = code_point_starts(word);
  if (starts.size() - 1 > kMaxWordCodePoints) return "";
  const Xapian::doccount held = articles_holding(vocabulary, word);
  if (held > std::max<Xapian::doccount>(1, articles / 1000)) return "";

  const Xapian::doccount at_least =
      std::max(articles / kArticlesPerUse + 1, held == 0 ? 1 : held * kMuchMoreFrequent);
  const std::string stem = analyzer.stem(word);
  std::pair<std::string, Xapian::doccount> best =
      most_frequent(vocabulary, one_edit_away(word, starts), at_least, analyzer, stem);
  if (!best.first.empty() || held > 0 || finds_articles) return best.first;

  // Xapian's own search reaches words two edits away through the fragments
  // they share, which is cheaper than listing every such word.
  const std::string further = vocabulary.get_spelling_suggestion(word, 2);
  if (further.empty() || code_points(further).front() != code_points(word).front() ||
      edit_distance(word, further) != 2 || !may_suggest(analyzer, stem, further) ||
      articles_holding(vocabulary, further) < std::max(at_least, kMinTwoEditArticles)) {
    return "";
  }
  return further;
}

}  // namespace quarry::detail
