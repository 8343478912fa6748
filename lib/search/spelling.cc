#include "lib/search/spelling.h"

#include <algorithm>
#include <unordered_map>
#include <utility>
#include <vector>

#include "lib/search/language_vocabulary.h"
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
// A Speller reads the frequent words at its second search of the words one
// edit away (as a Searcher reads article lengths at its second search): a
// single query does not pay for reading the vocabulary.
constexpr std::size_t kSearchesBeforeReading = 2;
// A Speller keeps this many answers at most, then starts afresh, so that a
// server that is never restarted does not grow.
constexpr std::size_t kMaxAnswers = 100000;

// A suggestion and how many articles hold it.
using Best = std::pair<std::string, Xapian::doccount>;

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

// Calls `visit` with every word one edit away from `word` (whose code
// points start at the byte offsets `starts`, the word's size last) that
// keeps its first letter, in no order and some more than once; the view
// lasts for the call only. Letters are added and changed from the index's
// likely alphabet: the vocabulary is folded to lower case without accents,
// so a–z, and the word's own letters (digits, other scripts).
template <typename Visit>
void for_each_one_edit(std::string_view word, const std::vector<std::size_t>& starts, Visit visit) {
  std::vector<std::string> alphabet;
  for (char c = 'a'; c <= 'z'; ++c) alphabet.emplace_back(1, c);
  for (std::size_t k = 0; k + 1 < starts.size(); ++k) {
    alphabet.emplace_back(word.substr(starts[k], starts[k + 1] - starts[k]));
  }
  std::sort(alphabet.begin(), alphabet.end());
  alphabet.erase(std::unique(alphabet.begin(), alphabet.end()), alphabet.end());

  const std::size_t n = starts.size() - 1;  // code points
  std::string edit;
  auto make = [&](std::string_view a, std::string_view b, std::string_view c,
                  std::string_view d = {}) {
    edit.assign(a).append(b).append(c).append(d);
    visit(std::string_view(edit));
  };
  for (std::size_t i = 1; i <= n; ++i) {
    const std::string_view before = word.substr(0, starts[i]);
    const std::string_view from_here = word.substr(starts[i]);
    for (const std::string& letter : alphabet) make(before, letter, from_here);  // added
    if (i == n) break;
    const std::string_view letter = word.substr(starts[i], starts[i + 1] - starts[i]);
    const std::string_view rest = word.substr(starts[i + 1]);
    make(before, "", rest);  // left out
    for (const std::string& other : alphabet) {
      if (other != letter) make(before, other, rest);  // changed
    }
    if (i + 1 < n) {  // swapped with the next
      const std::string_view next = word.substr(starts[i + 1], starts[i + 2] - starts[i + 1]);
      make(before, next, letter, word.substr(starts[i + 2]));
    }
  }
}

// The words one edit away, sorted, each once.
std::vector<std::string> one_edit_away(std::string_view word,
                                       const std::vector<std::size_t>& starts) {
  std::vector<std::string> edits;
  for_each_one_edit(word, starts, [&](std::string_view edit) { edits.emplace_back(edit); });
  std::sort(edits.begin(), edits.end());
  edits.erase(std::unique(edits.begin(), edits.end()), edits.end());
  return edits;
}

// Whether `candidate` may be suggested for a word of stem `stem`.
bool may_suggest(const Analyzer& analyzer, const std::string& stem, const std::string& candidate) {
  return is_spelling_word(candidate) && analyzer.stem(candidate) != stem;
}

// The most frequent of `candidates` (sorted) that the vocabulary holds in
// at least `at_least` articles and may be suggested, with how many, the
// first in byte order of equally frequent ones; one pass of one iterator.
Best most_frequent(const Xapian::Database& vocabulary, const std::vector<std::string>& candidates,
                   Xapian::doccount at_least, const Analyzer& analyzer, const std::string& stem) {
  Best best{"", 0};
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

// The same choice among the words one edit away from `word`, from
// `frequent`: the vocabulary's words held by at least `at_least` articles,
// or by fewer.
Best most_frequent(const FrequentWords& frequent, std::string_view word,
                   const std::vector<std::size_t>& starts, Xapian::doccount at_least,
                   const Analyzer& analyzer, const std::string& stem) {
  Best best{"", 0};
  for_each_one_edit(word, starts, [&](std::string_view candidate) {
    const auto found = frequent.find(candidate);
    if (found == frequent.end() || found->second < at_least) return;
    const Xapian::doccount held = found->second;
    const bool better = held > best.second || (held == best.second && candidate < best.first);
    if (better && may_suggest(analyzer, stem, found->first)) best = {found->first, held};
  });
  return best;
}

// The vocabulary's words held by at least `at_least` articles, with how many.
FrequentWords words_held_by(const Xapian::Database& vocabulary, Xapian::doccount at_least) {
  FrequentWords words;
  for (auto it = vocabulary.spellings_begin(); it != vocabulary.spellings_end(); ++it) {
    const Xapian::doccount held = it.get_termfreq();
    if (held >= at_least) words.emplace(*it, held);
  }
  return words;
}

// The fewest articles a suggestion may be held by, whatever the word.
Xapian::doccount min_suggestion_articles(Xapian::doccount articles) {
  return articles / kArticlesPerUse + 1;
}

// better_spelling, with `find_most_frequent(word, starts, at_least, stem)`
// choosing among the words one edit away as most_frequent does.
template <typename FindMostFrequent>
std::string suggestion(const Xapian::Database& vocabulary, Xapian::doccount articles,
                       const Analyzer& analyzer, const std::string& word, bool finds_articles,
                       FindMostFrequent find_most_frequent) {
  if (word.empty() || !is_spelling_word(word)) return "";
  const std::vector<std::size_t> starts = code_point_starts(word);
  if (starts.size() - 1 > kMaxWordCodePoints) return "";
  const Xapian::doccount held = articles_writing(vocabulary, word);
  if (held > std::max<Xapian::doccount>(1, articles / 1000)) return "";

  const Xapian::doccount at_least =
      std::max(min_suggestion_articles(articles), held == 0 ? 1 : held * kMuchMoreFrequent);
  const std::string stem = analyzer.stem(word);
  const Best best = find_most_frequent(word, starts, at_least, stem);
  if (!best.first.empty() || held > 0 || finds_articles) return best.first;

  // Xapian's own search reaches words two edits away through the fragments
  // they share, which is cheaper than listing every such word.
  const std::string further = vocabulary.get_spelling_suggestion(word, 2);
  if (further.empty() || code_points(further).front() != code_points(word).front() ||
      edit_distance(word, further) != 2 || !may_suggest(analyzer, stem, further) ||
      articles_writing(vocabulary, further) < std::max(at_least, kMinTwoEditArticles)) {
    return "";
  }
  return further;
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
  return suggestion(vocabulary, articles, analyzer, word, finds_articles,
                    [&](std::string_view word, const std::vector<std::size_t>& starts,
                        Xapian::doccount at_least, const std::string& stem) {
                      return most_frequent(vocabulary, one_edit_away(word, starts), at_least,
                                           analyzer, stem);
                    });
}

std::string Speller::better_spelling(const Xapian::Database& vocabulary, Xapian::doccount articles,
                                     const Analyzer& analyzer, const std::string& word,
                                     bool finds_articles) {
  // Another count of articles is another index.
  if (articles != articles_) forget();
  articles_ = articles;
  std::string key = word;
  key += finds_articles ? '+' : '-';
  if (const auto known = answers_.find(key); known != answers_.end()) return known->second;

  std::string answer = suggestion(
      vocabulary, articles, analyzer, word, finds_articles,
      [&](std::string_view word, const std::vector<std::size_t>& starts, Xapian::doccount at_least,
          const std::string& stem) {
        if (!frequent_read_ && ++one_edit_searches_ >= kSearchesBeforeReading) {
          frequent_ = words_held_by(vocabulary, min_suggestion_articles(articles));
          frequent_read_ = true;
        }
        if (frequent_read_) return most_frequent(frequent_, word, starts, at_least, analyzer, stem);
        return most_frequent(vocabulary, one_edit_away(word, starts), at_least, analyzer, stem);
      });
  if (answers_.size() >= kMaxAnswers) answers_.clear();
  answers_.emplace(std::move(key), answer);
  return answer;
}

void Speller::forget() {
  answers_.clear();
  frequent_.clear();
  frequent_read_ = false;
  one_edit_searches_ = 0;
}

}  // namespace quarry::detail
