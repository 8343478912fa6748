#include "quarry/search/snippet.h"

#include <algorithm>
#include <unordered_map>

#include "lib/text/utf8_repair.h"

namespace quarry {
namespace {

constexpr std::size_t kNoMatch = static_cast<std::size_t>(-1);
constexpr std::size_t kEveryWord = static_cast<std::size_t>(-1);
constexpr char kEllipsis[] = "\u2026";

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// The key of the first wildcard prefix `term` starts with (keys count stems,
// then prefixes), or kNoMatch.
std::size_t prefix_key(const std::string& term, const HighlightTerms& terms) {
  for (std::size_t i = 0; i < terms.prefixes.size(); ++i) {
    if (term.starts_with(terms.prefixes[i])) return terms.stems.size() + i;
  }
  return kNoMatch;
}

// The index of `term` in `list`, or kNoMatch.
std::size_t index_of(const std::vector<std::string>& list, const std::string& term) {
  auto it = std::find(list.begin(), list.end(), term);
  return it == list.end() ? kNoMatch : static_cast<std::size_t>(it - list.begin());
}

// Which query term (an index into stems then prefixes) each token matches.
class TermMatcher {
 public:
  TermMatcher(const Analyzer& analyzer, const HighlightTerms& terms)
      : analyzer_(analyzer), terms_(terms) {}

  std::size_t match(const std::string& term) {
    auto cached = cache_.find(term);
    if (cached != cache_.end()) return cached->second;
    std::size_t key =
        terms_.stems.empty() ? kNoMatch : index_of(terms_.stems, analyzer_.stem(term));
    if (key == kNoMatch) key = prefix_key(term, terms_);
    cache_.emplace(term, key);
    return key;
  }

 private:
  const Analyzer& analyzer_;
  const HighlightTerms& terms_;
  // Articles repeat their words: stem each distinct word once.
  std::unordered_map<std::string, std::size_t> cache_;
};

std::size_t count_keys(const HighlightTerms& terms) {
  return terms.stems.size() + terms.prefixes.size();
}

// The keys of a group's stems, in query order; empty when one of them is
// not a highlight stem, as the group then cannot occur.
std::vector<std::size_t> group_keys(const HighlightGroup& group, const HighlightTerms& terms) {
  std::vector<std::size_t> members;
  for (const std::string& stem : group.stems) {
    const std::size_t key = index_of(terms.stems, stem);
    if (key == kNoMatch) return {};
    members.push_back(key);
  }
  return members;
}

// Sets in_occurrence[t] for the words of the text that are one of the words
// of an occurrence of the ordered group `members` (keys, in query order).
// Word t playing member r is in one when the latest start of members
// [0, r) before it and the earliest end of members (r, m) after it are less
// than `span` apart; one pass each way finds them, O(words × m).
void mark_ordered(const std::vector<std::size_t>& keys, const std::vector<std::size_t>& members,
                  std::size_t span, std::size_t key_count, std::vector<char>* in_occurrence) {
  const std::size_t m = members.size();
  std::vector<std::vector<std::size_t>> places(key_count);  // of each key, last first
  for (std::size_t r = m; r-- > 0;) places[members[r]].push_back(r);
  struct Role {
    std::size_t word;
    std::size_t place;
  };
  // In text order; a word's places from the last, so that a word plays
  // one place per occurrence.
  std::vector<Role> roles;
  for (std::size_t t = 0; t < keys.size(); ++t) {
    if (keys[t] == kNoMatch) continue;
    for (std::size_t r : places[keys[t]]) roles.push_back({t, r});
  }

  std::vector<std::size_t> ends(roles.size());
  std::vector<std::size_t> earliest_end(m, kNoMatch);  // of members [r, m), after the word
  for (std::size_t i = roles.size(); i-- > 0;) {
    const auto [t, r] = roles[i];
    ends[i] = r + 1 == m ? t : earliest_end[r + 1];
    if (ends[i] != kNoMatch) earliest_end[r] = ends[i];
  }
  std::vector<std::size_t> latest_start(m + 1, kNoMatch);  // of members [0, r), before it
  for (std::size_t i = 0; i < roles.size(); ++i) {
    const auto [t, r] = roles[i];
    const std::size_t start = r == 0 ? t : latest_start[r];
    if (start == kNoMatch) continue;
    latest_start[r + 1] = start;
    if (ends[i] != kNoMatch && ends[i] - start < span) (*in_occurrence)[t] = 1;
  }
}

// The same for a group in any order. A word is in an occurrence when a
// window of fewer than `span` words holding the group ends within `span`
// words after it: the window stretched back to the word still fits. The
// shortest window holding the group that ends at each word is found by
// sliding, O(words).
void mark_unordered(const std::vector<std::size_t>& keys, const std::vector<std::size_t>& members,
                    std::size_t span, std::size_t key_count, std::vector<char>* in_occurrence) {
  std::vector<std::size_t> needed(key_count, 0), held(key_count, 0);
  for (std::size_t key : members) ++needed[key];
  auto in_group = [&](std::size_t key) { return key != kNoMatch && needed[key] > 0; };
  const std::size_t n = keys.size();
  std::vector<char> short_window_ends(n, 0);
  std::size_t missing = members.size(), first = 0;
  for (std::size_t last = 0; last < n; ++last) {
    if (in_group(keys[last]) && held[keys[last]]++ < needed[keys[last]]) --missing;
    while (first < last && (!in_group(keys[first]) || held[keys[first]] > needed[keys[first]])) {
      if (in_group(keys[first])) --held[keys[first]];
      ++first;
    }
    short_window_ends[last] = missing == 0 && last - first < span;
  }
  std::size_t next_end = kNoMatch;
  for (std::size_t t = n; t-- > 0;) {
    if (short_window_ends[t]) next_end = t;
    if (in_group(keys[t]) && next_end != kNoMatch && next_end - t < span) (*in_occurrence)[t] = 1;
  }
}

// Unmarks the words whose stems the query holds only in groups (phrases,
// NEAR, ADJ) where no group of theirs occurs, so that a snippet shows the
// phrase rather than its words scattered; a wildcard may still mark them.
// A hit may hold no group in this text (its phrase in the title only, or a
// text that is not the one searched): then, if nothing else would be
// marked, every match stays marked, as a snippet that marks nothing
// explains nothing. Costs nothing for a query without groups.
void keep_group_words_where_groups_occur(const std::vector<Token>& tokens,
                                         const HighlightTerms& terms,
                                         std::vector<std::size_t>* keys) {
  if (terms.groups.empty()) return;
  std::vector<std::vector<std::size_t>> members;
  std::vector<char> bound(terms.stems.size(), 0);
  for (const HighlightGroup& group : terms.groups) {
    members.push_back(group_keys(group, terms));
    for (std::size_t key : members.back()) bound[key] = 1;
  }
  for (const std::string& stem : terms.loose_stems) {
    const std::size_t key = index_of(terms.stems, stem);
    if (key != kNoMatch) bound[key] = 0;
  }
  if (std::find(bound.begin(), bound.end(), 1) == bound.end()) return;

  std::vector<char> in_occurrence(keys->size(), 0);
  for (std::size_t g = 0; g < terms.groups.size(); ++g) {
    const std::vector<std::size_t>& group = members[g];
    if (std::none_of(group.begin(), group.end(), [&](std::size_t key) { return bound[key]; })) {
      continue;
    }
    const auto mark = terms.groups[g].ordered ? mark_ordered : mark_unordered;
    mark(*keys, group, terms.groups[g].span, count_keys(terms), &in_occurrence);
  }
  std::vector<std::size_t> kept = *keys;
  bool any_marked = false;
  for (std::size_t t = 0; t < kept.size(); ++t) {
    if (kept[t] < bound.size() && bound[kept[t]] && !in_occurrence[t]) {
      kept[t] = prefix_key(tokens[t].term, terms);
    }
    any_marked = any_marked || kept[t] != kNoMatch;
  }
  if (any_marked) *keys = std::move(kept);
}

struct Window {
  std::size_t first = 0;  // token index
  std::size_t last = 0;   // one past
};

// The window of `size` tokens with the most distinct keys, then the most
// matches, then the earliest; then moved so its matches sit in the middle.
Window best_window(const std::vector<std::size_t>& keys, std::size_t key_count, std::size_t size) {
  const std::size_t n = keys.size();
  if (n <= size) return {0, n};
  std::vector<std::size_t> in_window(key_count, 0);
  std::size_t distinct = 0, matches = 0;
  auto add = [&](std::size_t key, int delta) {
    if (key == kNoMatch) return;
    if (delta > 0) {
      if (in_window[key]++ == 0) ++distinct;
      ++matches;
    } else {
      if (--in_window[key] == 0) --distinct;
      --matches;
    }
  };
  for (std::size_t i = 0; i < size; ++i) add(keys[i], +1);
  std::size_t best_start = 0, best_distinct = distinct, best_matches = matches;
  for (std::size_t start = 1; start + size <= n; ++start) {
    add(keys[start - 1], -1);
    add(keys[start + size - 1], +1);
    if (distinct > best_distinct || (distinct == best_distinct && matches > best_matches)) {
      best_start = start, best_distinct = distinct, best_matches = matches;
    }
  }
  if (best_matches == 0) return {0, size};

  std::size_t first_match = best_start, last_match = best_start + size - 1;
  while (keys[first_match] == kNoMatch) ++first_match;
  while (keys[last_match] == kNoMatch) --last_match;
  const std::size_t slack = size - (last_match - first_match + 1);
  std::size_t start = first_match > slack / 2 ? first_match - slack / 2 : 0;
  start = std::min(start, n - size);
  return {start, start + size};
}

// Words that touch (the characters of CJK or Thai, each its own term) read
// as one mark.
void add_highlight(Snippet* snippet, std::size_t begin, std::size_t end) {
  if (!snippet->highlights.empty() && snippet->highlights.back().end == begin) {
    snippet->highlights.back().end = end;
  } else {
    snippet->highlights.push_back({begin, end});
  }
}

// Copies text[begin, end) into the snippet with white space collapsed and
// records where the matching tokens land, in code points.
void copy_with_highlights(std::string_view text, std::size_t begin, std::size_t end,
                          const std::vector<Token>& tokens, const std::vector<std::size_t>& keys,
                          Window window, bool collapse_space, Snippet* snippet) {
  std::vector<const Token*> matched;
  for (std::size_t t = window.first; t < window.last; ++t) {
    if (keys[t] == kNoMatch) continue;
    // The terms one character folds into (Thai ำ as ํ and า) share its
    // place in the text: it is marked once.
    if (!matched.empty() && tokens[t].begin < matched.back()->end) continue;
    matched.push_back(&tokens[t]);
  }
  auto next = matched.begin();
  std::size_t code_points = count_code_points(snippet->text);
  std::size_t highlight_begin = 0;
  bool pending_space = false;
  for (std::size_t i = begin; i < end; ++i) {
    if (next != matched.end() && i == (*next)->end) {
      add_highlight(snippet, highlight_begin, code_points);
      ++next;
    }
    if (collapse_space && is_space(text[i])) {
      pending_space = !snippet->text.empty();
      continue;
    }
    if (pending_space) {
      snippet->text.push_back(' ');
      ++code_points;
      pending_space = false;
    }
    if (next != matched.end() && i == (*next)->begin) highlight_begin = code_points;
    snippet->text.push_back(text[i]);
    if (starts_code_point(text[i])) ++code_points;
  }
  if (next != matched.end() && end == (*next)->end) {
    add_highlight(snippet, highlight_begin, code_points);
  }
}

// The byte where a window's text ends: past its last word and any
// punctuation glued to it ("Trafford." or "room,").
std::size_t extend_over_punctuation(std::string_view text, std::size_t end) {
  while (end < text.size() && !is_space(text[end])) ++end;
  return end;
}

// Which highlight term each word of the text matches, by stemming them.
std::vector<std::size_t> keys_by_stemming(const Analyzer& analyzer,
                                          const std::vector<Token>& tokens,
                                          const HighlightTerms& terms) {
  std::vector<std::size_t> keys(tokens.size(), kNoMatch);
  if (terms.empty()) return keys;
  TermMatcher matcher(analyzer, terms);
  for (std::size_t i = 0; i < tokens.size(); ++i) keys[i] = matcher.match(tokens[i].term);
  return keys;
}

// The same, with the stems' places known: only wildcard prefixes are
// compared with the words.
std::vector<std::size_t> keys_from_places(const std::vector<Token>& tokens,
                                          const HighlightTerms& terms,
                                          const StemWords& stem_words) {
  std::vector<std::size_t> keys(tokens.size(), kNoMatch);
  for (std::size_t k = 0; k < stem_words.size() && k < terms.stems.size(); ++k) {
    for (std::size_t word : stem_words[k]) {
      if (word < keys.size()) keys[word] = k;
    }
  }
  if (terms.prefixes.empty()) return keys;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (keys[i] == kNoMatch) keys[i] = prefix_key(tokens[i].term, terms);
  }
  return keys;
}

// `keys`: which term each token matches, before groups are applied.
// `more_text`: tokens stop short of the text's end.
Snippet make(std::string_view text, const std::vector<Token>& tokens, const HighlightTerms& terms,
             std::vector<std::size_t> keys, std::size_t window_words, bool collapse_space,
             bool more_text = false) {
  keep_group_words_where_groups_occur(tokens, terms, &keys);
  Snippet snippet;
  if (tokens.empty()) {
    copy_with_highlights(text, 0, text.size(), tokens, keys, {0, 0}, collapse_space, &snippet);
    return snippet;
  }
  const Window window = best_window(keys, count_keys(terms), window_words);
  const bool cut_before = window.first > 0;
  const bool cut_after = window.last < tokens.size() || more_text;
  const std::size_t begin = cut_before ? tokens[window.first].begin : 0;
  const std::size_t end =
      cut_after ? extend_over_punctuation(text, tokens[window.last - 1].end) : text.size();
  if (cut_before) snippet.text = kEllipsis;
  copy_with_highlights(text, begin, end, tokens, keys, window, collapse_space, &snippet);
  if (cut_after) snippet.text += kEllipsis;
  return snippet;
}

}  // namespace

Snippet make_snippet(const Analyzer& analyzer, std::string_view text, const HighlightTerms& terms,
                     const SnippetConfig& config) {
  const std::vector<Token> tokens = analyzer.tokenize(text);
  return make(text, tokens, terms, keys_by_stemming(analyzer, tokens, terms),
              std::max<std::size_t>(config.window_words, 1), true);
}

Snippet make_snippet(const Analyzer& analyzer, std::string_view text, const HighlightTerms& terms,
                     const StemWords& stem_words, const SnippetConfig& config) {
  const std::size_t window = std::max<std::size_t>(config.window_words, 1);
  // Past the last match and a window after it, words cannot change the
  // snippet, and are left unread; wildcard prefixes need every word.
  std::size_t needed = kEveryWord;
  if (terms.prefixes.empty()) {
    needed = window;
    for (const std::vector<std::size_t>& places : stem_words) {
      for (std::size_t word : places) needed = std::max(needed, word + 1 + window);
    }
  }
  std::vector<Token> tokens =
      needed == kEveryWord ? analyzer.tokenize(text) : analyzer.tokenize(text, needed + 1);
  const bool more_text = tokens.size() > needed;
  if (more_text) tokens.resize(needed);
  return make(text, tokens, terms, keys_from_places(tokens, terms, stem_words), window, true,
              more_text);
}

Snippet make_snippet(std::string_view text, const std::vector<Token>& tokens,
                     const HighlightTerms& terms, const StemWords& stem_words,
                     const SnippetConfig& config) {
  return make(text, tokens, terms, keys_from_places(tokens, terms, stem_words),
              std::max<std::size_t>(config.window_words, 1), true);
}

Snippet highlight_all(const Analyzer& analyzer, std::string_view text,
                      const HighlightTerms& terms) {
  const std::vector<Token> tokens = analyzer.tokenize(text);
  return make(text, tokens, terms, keys_by_stemming(analyzer, tokens, terms), kEveryWord, false);
}

Snippet highlight_all(std::string_view text, const std::vector<Token>& tokens,
                      const HighlightTerms& terms, const StemWords& stem_words) {
  return make(text, tokens, terms, keys_from_places(tokens, terms, stem_words), kEveryWord, false);
}

}  // namespace quarry
