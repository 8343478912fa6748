#include "lib/search/spelling_module.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "lib/index/schema.h"
#include "lib/search/language_vocabulary.h"
#include "lib/search/match_count.h"
#include "lib/search/query_lexer.h"
#include "lib/search/spelling.h"

namespace quarry::detail {
namespace {

// A suggestion is searched instead of a query that finds something when it
// finds this many times as many articles: what was meant is then far more
// likely the suggestion than the query's rare words.
constexpr std::size_t kFarMoreMatches = 10;

class SpellingModule final : public SearchModule {
 public:
  SearchResult search(const SearchContext& context, std::string_view query,
                      const ParsedQuery& parsed, SearchRunner& rest) override {
    std::string suggestion = suggest(context, query, parsed);
    const Correction correct = context.options.spelling.correct;
    if (suggestion.empty() || correct == Correction::kNever) {
      SearchResult found = rest.run(parsed);
      found.suggestion = std::move(suggestion);
      return found;
    }
    const ParsedQuery suggested = rest.read(suggestion);
    // As search engines do: rather than nothing, or than a few articles
    // that hold a rare word, what was probably meant.
    SearchResult found;
    if (correct == Correction::kAuto) {
      found = rest.run(parsed);
      if (!finds_far_more(context, suggested, found) &&
          !(each_word_finds_far_more(context) && finds_any(context, suggested))) {
        found.suggestion = std::move(suggestion);
        return found;
      }
    }
    SearchResult corrected = rest.run(suggested);
    corrected.suggestion = std::move(suggestion);
    corrected.corrected = true;
    return corrected;
  }

  void forget() override { speller_.forget(); }

 private:
  // Whether the suggestion matches something, and at least kFarMoreMatches
  // times as many articles as the query found (counted exactly).
  static bool finds_far_more(const SearchContext& context, const ParsedQuery& suggested,
                             const SearchResult& found) {
    if (suggested.query.empty() || !found.total_exact) return false;
    const std::size_t matches = count_all_matches(
        context.shards.articles(),
        deadline_bounded(suggested.query, context.deadline, !context.shards.any_remote()));
    return matches > 0 && matches >= kFarMoreMatches * found.total;
  }

  // Whether the suggestion matches anything at all.
  static bool finds_any(const SearchContext& context, const ParsedQuery& suggested) {
    if (suggested.query.empty()) return false;
    Xapian::Enquire enquire(context.shards.articles());
    enquire.set_query(suggested.query);
    enquire.set_weighting_scheme(Xapian::BoolWeight());
    return !enquire.get_mset(0, 1).empty();
  }

  // Whether each word the suggestion replaces is a typo beside the
  // query's other words, as a query of it alone would be corrected: its
  // correction finds articles, kFarMoreMatches times as many as it does.
  // A query of several words finds about as much either way ("goverment
  // spending" finds what "spending" finds), so the whole query's count
  // cannot tell.
  bool each_word_finds_far_more(const SearchContext& context) const {
    if (replaced_.empty()) return false;
    const Xapian::Database& articles = context.shards.articles();
    const bool local = !context.shards.any_remote();
    for (const auto& [typed, better] : replaced_) {
      const std::size_t typed_matches = count_all_matches(
          articles, deadline_bounded(any_language(context, typed), context.deadline, local));
      const std::size_t better_matches = count_all_matches(
          articles, deadline_bounded(any_language(context, better), context.deadline, local));
      if (better_matches == 0 || better_matches < kFarMoreMatches * typed_matches) return false;
    }
    return true;
  }

  // The stems of `word` in every language the index holds.
  static Xapian::Query any_language(const SearchContext& context, const std::string& word) {
    std::vector<Xapian::Query> stems;
    for (const Analyzer* language : context.held_languages) {
      stems.emplace_back(kStemPrefix + language->stem(word));
    }
    return Xapian::Query(Xapian::Query::OP_OR, stems.begin(), stems.end());
  }

  // Whether the articles hold the free words `a` and `b` side by side, in
  // either order: a rare word that some article writes beside the query's
  // next word is meant as written ("Societe Generale"), not mistyped.
  static bool written_together(const SearchContext& context, const QueryWord& a,
                               const QueryWord& b) {
    const Xapian::Query pair[] = {any_language(context, a.term), any_language(context, b.term)};
    Xapian::Enquire enquire(context.shards.articles());
    enquire.set_query(Xapian::Query(Xapian::Query::OP_NEAR, std::begin(pair), std::end(pair), 2));
    enquire.set_weighting_scheme(Xapian::BoolWeight());
    return !enquire.get_mset(0, 1).empty();
  }

  // Whether the free word at `index` is written beside a neighbour of it
  // in the query, in some article.
  static bool written_with_neighbour(const SearchContext& context,
                                     const std::vector<QueryWord>& words, std::size_t index) {
    return (index > 0 && written_together(context, words[index - 1], words[index])) ||
           (index + 1 < words.size() && written_together(context, words[index], words[index + 1]));
  }

  // Replaces each rare free word with a much more frequent word of the
  // index close to it (see better_spelling), in the case it was typed in.
  std::string suggest(const SearchContext& context, std::string_view query,
                      const ParsedQuery& parsed) {
    ShardGroup& shards = context.shards;
    const Xapian::doccount articles = shards.articles().get_doccount();
    const std::vector<QueryWord>& words = parsed.free_words;
    std::string suggestion;
    std::size_t copied = 0;
    bool changed = false;
    replaced_.clear();
    // Each word looks through its neighbours in the vocabulary: past the
    // time limit, the rest are left as typed.
    for (std::size_t i = 0; i < words.size() && !context.deadline.expired(); ++i) {
      const QueryWord& word = words[i];
      // The languages whose articles the word finds: a correction must be
      // a word of one of them, not a word of another language that looks
      // like it.
      std::vector<bool> finding;
      for (const Analyzer* language : context.held_languages) {
        finding.push_back(shards.articles().get_termfreq(kStemPrefix + language->stem(word.term)) >
                          0);
        // Most words get no correction: which other languages find them
        // is asked only of those that do.
        if (finding.back()) break;
      }
      const bool finds_articles = !finding.empty() && finding.back();
      const std::string better = speller_.better_spelling(
          shards.spelling(), articles, context.analyzer, word.term, finds_articles);
      if (better.empty() || word.begin < copied) continue;
      for (std::size_t k = finding.size(); k < context.held_languages.size(); ++k) {
        finding.push_back(shards.articles().get_termfreq(
                              kStemPrefix + context.held_languages[k]->stem(word.term)) > 0);
      }
      if (finds_articles &&
          !written_in(shards.spelling(), context.held_languages, better, finding)) {
        continue;
      }
      if (finds_articles && written_with_neighbour(context, words, i)) continue;
      suggestion.append(query.substr(copied, word.begin - copied));
      // A word typed in capitals must not become an operator ("ANF" to "AND").
      const std::string cased =
          context.analyzer.in_typed_case(query.substr(word.begin, word.end - word.begin), better);
      suggestion += is_operator_word(cased) ? better : cased;
      copied = word.end;
      changed = true;
      replaced_.emplace_back(word.term, better);
    }
    if (!changed) return "";
    suggestion.append(query.substr(copied));
    return suggestion;
  }

  // Spelling suggestions known, dropped when the index changes.
  Speller speller_;
  // The words the last suggestion replaced, as typed and as suggested
  // (normalized).
  std::vector<std::pair<std::string, std::string>> replaced_;
};

}  // namespace

std::unique_ptr<SearchModule> make_spelling_module() { return std::make_unique<SpellingModule>(); }

}  // namespace quarry::detail
