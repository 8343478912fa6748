#include "lib/search/term_expander.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>

#include "lib/index/schema.h"
#include "lib/search/date_range.h"

namespace quarry::detail {
namespace {

// A filter that selects without adding to the score.
Xapian::Query filter(const std::string& term) {
  return Xapian::Query(Xapian::Query::OP_SCALE_WEIGHT, Xapian::Query(term), 0);
}

Xapian::Query flat_and(const std::vector<Xapian::Query>& items) {
  if (items.size() < 2) return items.empty() ? Xapian::Query() : items[0];
  return Xapian::Query(Xapian::Query::OP_AND, items.begin(), items.end());
}

std::string prefix_for(QueryField field) { return field == QueryField::kTitle ? kTitlePrefix : ""; }

// Where a word holds a '?' or '*' with more of the word after it
// ("Volck?r"), the text before it; else empty. Such a character is no
// wildcard: the analyzer splits the word there.
std::string_view before_inner_wildcard(std::string_view word) {
  const std::size_t at = word.find_first_of("?*");
  if (at == 0 || at == std::string_view::npos || at + 1 == word.size()) return {};
  if (word.find_first_not_of("?*", at) == std::string_view::npos) return {};
  return word.substr(0, at);
}

std::string label(const Lexeme& lexeme, QueryField field) {
  std::string text(lexeme.text);
  if (lexeme.kind == LexemeKind::kPhrase) text = "\"" + text + "\"";
  return field == QueryField::kTitle ? "title:" + text : text;
}

// How many words each wildcard stands for, when they may stand for
// `budget` in all and each for `wanted` alone: all they want when that
// fits, else an equal share, those wanting less leaving the rest to the
// others, and what does not divide evenly to the first.
std::vector<std::size_t> fair_shares(const std::vector<std::size_t>& wanted, std::size_t budget) {
  std::vector<std::size_t> ascending = wanted;
  std::sort(ascending.begin(), ascending.end());
  std::size_t left = budget;
  std::size_t share = SIZE_MAX;
  std::size_t extra = 0;
  for (std::size_t i = 0; i < ascending.size(); ++i) {
    const std::size_t others = ascending.size() - i;
    if (ascending[i] > left / others) {
      share = left / others;
      extra = left % others;
      break;
    }
    left -= ascending[i];
  }
  std::vector<std::size_t> shares;
  for (std::size_t words : wanted) {
    const bool one_more = words > share && extra > 0;
    if (one_more) --extra;
    shares.push_back(std::min(words, share) + (one_more ? 1 : 0));
  }
  return shares;
}

}  // namespace

void TermExpander::plan(const std::vector<Lexeme>& lexemes) {
  narrow_languages(lexemes);
  std::vector<std::size_t> offsets;
  std::vector<std::size_t> wanted;
  for (const Lexeme& lexeme : lexemes) {
    const std::optional<std::string> start = wildcard_start(lexeme);
    if (!start) continue;
    offsets.push_back(lexeme.offset);
    const std::size_t found = db_ ? words_starting(*start).size() : config_.max_wildcard_terms;
    wanted.push_back(std::min<std::size_t>(found, config_.max_wildcard_terms));
  }
  const std::vector<std::size_t> shares = fair_shares(wanted, config_.max_query_terms);
  std::size_t total = 0;
  std::size_t most = 0;
  for (std::size_t i = 0; i < shares.size(); ++i) {
    wildcard_words_[offsets[i]] = shares[i];
    budget_cut_ = budget_cut_ || shares[i] < wanted[i];
    total += shares[i];
    most = std::max(most, shares[i]);
  }
  synonyms_left_ = config_.max_query_terms - std::min<std::size_t>(total, config_.max_query_terms);
  if (budget_cut_) {
    note("the query's " + std::to_string(shares.size()) + " wildcards stand for " +
         std::to_string(config_.max_query_terms) +
         " words in all, each for its most frequent (at most " + std::to_string(most) +
         "); type more letters, or fewer wildcards");
  }
}

std::optional<std::string> TermExpander::wildcard_start(const Lexeme& lexeme) const {
  if (lexeme.kind != LexemeKind::kWord || lexeme.text.empty() || lexeme.text.back() != '*') {
    return std::nullopt;
  }
  std::string_view stem_text = lexeme.text;
  while (!stem_text.empty() && stem_text.back() == '*') stem_text.remove_suffix(1);
  std::vector<Token> tokens = analyzer_.tokenize(stem_text);
  if (tokens.size() != 1) return std::nullopt;
  return std::move(tokens[0].term);
}

// Listing the words is what costs on a large vocabulary ("a*"), so each
// start is listed once however often the query repeats it, and the listing
// stops once the search's time is up, with the words listed so far: a
// wildcard then stands for the most frequent of the first of them in
// alphabetical order, rather than for nothing.
const std::vector<std::string>& TermExpander::words_starting(const std::string& start) {
  constexpr std::size_t kWordsPerCheck = 256;
  const auto known = words_starting_.find(start);
  if (known != words_starting_.end()) return known->second;
  std::vector<std::pair<Xapian::doccount, std::string>> found;
  auto it = db_->spellings_begin();
  for (it.skip_to(start); it != db_->spellings_end() && (*it).starts_with(start); ++it) {
    found.emplace_back(it.get_termfreq(), *it);
    if (found.size() % kWordsPerCheck == 0 && deadline_.expired()) break;
  }
  std::stable_sort(found.begin(), found.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<std::string>& words = words_starting_[start];
  for (auto& [frequency, word] : found) words.push_back(std::move(word));
  return words;
}

Xapian::Query TermExpander::leaf(const Lexeme& lexeme, bool positive, QueryField field) {
  switch (field) {
    case QueryField::kSource:
      return filter(boolean_term(kSourcePrefix, analyzer_.normalize(lexeme.text)));
    case QueryField::kCategory:
      return filter(boolean_term(kCategoryPrefix, analyzer_.normalize(lexeme.text)));
    case QueryField::kId:
      return filter(id_term(std::string(lexeme.text)));
    case QueryField::kLanguage:
      return language_filter(lexeme.text, lexeme.offset);
    case QueryField::kDate:
    case QueryField::kAfter:
    case QueryField::kBefore:
      return date(lexeme, field);
    case QueryField::kNone:
    case QueryField::kTitle:
      break;
  }
  if (lexeme.kind == LexemeKind::kPhrase) {
    Xapian::Query query = phrase(analyzer_.tokenize(lexeme.text), positive, field);
    score(positive, label(lexeme, field), query);
    return query;
  }
  if (!lexeme.text.empty() && lexeme.text.back() == '*') {
    Xapian::Query query = wildcard(lexeme, positive, field);
    score(positive, label(lexeme, field), query);
    return query;
  }
  return word(lexeme, positive, field);
}

Xapian::Query TermExpander::proximity_operand(const Lexeme& lexeme, bool positive,
                                              std::vector<std::string>* words) {
  std::vector<Token> tokens = analyzer_.tokenize(lexeme.text);
  if (tokens.size() > 1) fail(lexeme, "NEAR and ADJ join single words, not phrases");
  if (tokens.empty()) return Xapian::Query();
  words->push_back(tokens[0].term);
  return positioned_stem(tokens[0].term, positive);
}

// A phrase or proximity query limited to a field: title terms carry no
// positions, so the words' positions come from the whole article and the
// title must hold one word of every place.
Xapian::Query TermExpander::in_field(const Xapian::Query& query,
                                     const std::vector<std::vector<std::string>>& words,
                                     QueryField field) {
  if (field != QueryField::kTitle || query.empty()) return query;
  std::vector<Xapian::Query> title_terms;
  for (const std::vector<std::string>& alternatives : words) {
    std::vector<Xapian::Query> any;
    for (const std::string& word : alternatives) {
      for (const Analyzer* language : stemmers_) {
        any.emplace_back(kStemPrefix + prefix_for(field) + language->stem(word));
      }
    }
    title_terms.push_back(
        any.size() == 1 ? any[0] : Xapian::Query(Xapian::Query::OP_OR, any.begin(), any.end()));
  }
  return Xapian::Query(Xapian::Query::OP_FILTER, query, flat_and(title_terms));
}

void TermExpander::score(bool positive, std::string label, const Xapian::Query& query) {
  if (positive && !query.empty()) out_->scoring_parts.push_back({std::move(label), query});
}

void TermExpander::highlight_together(const std::vector<std::string>& words, std::size_t span,
                                      bool ordered, bool positive) {
  if (!positive || words.empty()) return;
  HighlightTerms& highlight = out_->highlight;
  for (const Analyzer* language : stemmers_) {
    if (words.size() == 1) {
      highlight.loose_stems.push_back(language->stem(words[0]));
      continue;
    }
    HighlightGroup group{{}, span, ordered};
    for (const std::string& word : words) group.stems.push_back(language->stem(word));
    highlight.groups.push_back(std::move(group));
  }
}

// The terms an indexed word became, with its place in the query. Only the
// unprefixed stems have positions. Phrases take their words' stems in
// every language as alternatives (OP_OR, the only operator they take): an
// article holds one language's stems, so its phrases match in that one.
Xapian::Query TermExpander::positioned_stem(const std::string& word, bool positive) {
  return any_stem(kStemPrefix, stems(word, positive), ++position_, Xapian::Query::OP_OR);
}

// One word as typed. The analyzer may find several words in it
// ("dressing-room", "2-1"): they must then appear together, in order.
Xapian::Query TermExpander::word(const Lexeme& lexeme, bool positive, QueryField field) {
  std::vector<Token> tokens = analyzer_.tokenize(lexeme.text);
  const std::string_view start = before_inner_wildcard(lexeme.text);
  if (!start.empty() && !analyzer_.tokenize(start).empty()) {
    note(std::string(lexeme.text) + ": a wildcard is a '*' that ends a word; search " +
         std::string(start) + "* for the words that start with " + std::string(start));
  }
  if (tokens.size() != 1) {
    Xapian::Query query = phrase(tokens, positive, field);
    score(positive, label(lexeme, field), query);
    return query;
  }
  const std::string& term = tokens[0].term;
  const std::vector<std::string> stem = stems(term, positive);
  if (positive) {
    out_->highlight.loose_stems.insert(out_->highlight.loose_stems.end(), stem.begin(), stem.end());
  }
  // A word typed as a field's name ("lang" of lang:klingon searched as
  // words) is not one to correct: a suggestion must not rename a field.
  const std::size_t end = lexeme.offset + lexeme.text.size();
  if (field == QueryField::kNone && !query_.substr(end).starts_with(':')) {
    out_->free_words.push_back({lexeme.offset, end, term});
  }
  const Xapian::termpos position = ++position_;
  Xapian::Query query = with_synonyms(
      term, weighed_stems(kStemPrefix + prefix_for(field), term, stem, position), positive);
  score(positive, label(lexeme, field), query);
  if (field == QueryField::kNone && config_.title_weight > 0) {
    const Xapian::Query title(
        Xapian::Query::OP_SCALE_WEIGHT,
        weighed_stems(std::string(kStemPrefix) + kTitlePrefix, term, stem, position),
        config_.title_weight);
    score(positive, "title:" + std::string(lexeme.text), title);
    query = Xapian::Query(Xapian::Query::OP_OR, query, title);
  }
  return query;
}

// Quoted words match in order. Positions are kept for stems, so a phrase
// matches the words' stems, as the free words of a query do.
Xapian::Query TermExpander::phrase(const std::vector<Token>& tokens, bool positive,
                                   QueryField field) {
  std::vector<Xapian::Query> terms;
  std::vector<std::string> words;
  std::vector<std::vector<std::string>> places;
  std::string key;
  for (const Token& token : tokens) {
    terms.push_back(positioned_stem(token.term, positive));
    words.push_back(token.term);
    places.push_back({token.term});
    key += (key.empty() ? "" : " ") + token.term;
  }
  if (terms.empty()) return Xapian::Query();
  highlight_together(words, words.size(), true, positive);
  if (terms.size() == 1 && field == QueryField::kTitle) {
    return any_stem(kStemPrefix + prefix_for(field), stems(words[0], false), position_);
  }
  Xapian::Query query = terms.size() == 1 ? terms[0]
                                          : Xapian::Query(Xapian::Query::OP_PHRASE, terms.begin(),
                                                          terms.end(), terms.size());
  return field == QueryField::kNone ? with_synonyms(key, query, positive)
                                    : in_field(query, places, field);
}

// Words that start with what was typed, from the index's vocabulary, the
// most frequent first: their stems, as one term for ranking.
Xapian::Query TermExpander::wildcard(const Lexeme& lexeme, bool positive, QueryField field) {
  const std::optional<std::string> start = wildcard_start(lexeme);
  if (!start) {
    std::string_view stem_text = lexeme.text;
    while (!stem_text.empty() && stem_text.back() == '*') stem_text.remove_suffix(1);
    if (!analyzer_.tokenize(stem_text).empty()) fail(lexeme, "a wildcard applies to one word");
    note("'*' needs the start of a word before it, as in Manches*");
    return Xapian::Query();
  }
  if (positive) out_->highlight.prefixes.push_back(*start);
  const std::string prefix = kStemPrefix + prefix_for(field);
  const auto planned = wildcard_words_.find(lexeme.offset);
  const std::size_t share =
      planned != wildcard_words_.end() ? planned->second : config_.max_wildcard_terms;
  if (!db_) {
    // Without an index to list words from, stems are the best guess.
    return Xapian::Query(Xapian::Query::OP_WILDCARD, prefix + stemmers_.front()->stem(*start),
                         static_cast<Xapian::termcount>(std::max<std::size_t>(share, 1)),
                         Xapian::Query::WILDCARD_LIMIT_MOST_FREQUENT);
  }
  const std::vector<std::string>& words = words_starting(*start);
  const std::size_t limit = std::min(words.size(), share);
  const std::string typed(lexeme.text.substr(0, lexeme.text.find_last_not_of('*') + 1));
  if (words.empty()) {
    note("no word of the index starts with " + typed + ": try fewer letters");
  } else if (limit < words.size() && !budget_cut_) {
    note(std::string(lexeme.text) + " stands for the " + std::to_string(limit) +
         " most frequent of the " + std::to_string(words.size()) + " words that start so; " +
         "type more letters to narrow it");
  }
  std::vector<std::string> terms;
  for (std::size_t i = 0; i < limit; ++i) {
    for (const Analyzer* language : stemmers_) terms.push_back(prefix + language->stem(words[i]));
  }
  std::sort(terms.begin(), terms.end());
  terms.erase(std::unique(terms.begin(), terms.end()), terms.end());
  // No word starts so. The bare prefix is a term no article has (words are
  // never empty): it matches nothing, where an empty query would be left
  // out of the query around it.
  if (terms.empty()) return Xapian::Query(prefix);
  return Xapian::Query(Xapian::Query::OP_SYNONYM, terms.begin(), terms.end());
}

void TermExpander::note(std::string text) {
  if (std::find(out_->notes.begin(), out_->notes.end(), text) == out_->notes.end()) {
    out_->notes.push_back(std::move(text));
  }
}

Xapian::Query TermExpander::date(const Lexeme& lexeme, QueryField field) {
  std::optional<DateRange> range = field == QueryField::kDate
                                       ? parse_date_range(lexeme.text)
                                       : parse_date_bound(lexeme.text, field == QueryField::kAfter);
  if (!range) {
    throw_query_value_error(
        query_, lexeme.offset,
        "a date is YYYY, YYYY-MM or YYYY-MM-DD" +
            std::string(field == QueryField::kDate ? ", or a range FROM..TO" : ""));
  }
  return date_query(*range);
}

// The synonyms stored for `key` (a word or a phrase, normalized) match as
// the key does.
Xapian::Query TermExpander::with_synonyms(const std::string& key, const Xapian::Query& query,
                                          bool positive) {
  if (!db_) return query;
  std::vector<Xapian::Query> alternatives{query};
  for (auto it = db_->synonyms_begin(key); it != db_->synonyms_end(key); ++it) {
    std::vector<Token> tokens = analyzer_.tokenize(*it);
    if (tokens.empty()) continue;
    if (synonyms_left_ == 0) {
      note("synonyms past the " + std::to_string(config_.max_query_terms) +
           " words a query may stand for are left out");
      break;
    }
    --synonyms_left_;
    std::vector<Xapian::Query> terms;
    std::vector<std::string> words;
    for (const Token& token : tokens) {
      terms.push_back(any_stem(kStemPrefix, stems(token.term, positive), 0, Xapian::Query::OP_OR));
      words.push_back(token.term);
    }
    highlight_together(words, words.size(), true, positive);
    alternatives.push_back(
        terms.size() == 1
            ? terms[0]
            : Xapian::Query(Xapian::Query::OP_PHRASE, terms.begin(), terms.end(), terms.size()));
  }
  if (alternatives.size() == 1) return query;
  return Xapian::Query(Xapian::Query::OP_SYNONYM, alternatives.begin(), alternatives.end());
}

}  // namespace quarry::detail
