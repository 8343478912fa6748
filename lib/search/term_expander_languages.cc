// The part of a TermExpander that stands a query's words for their stems
// in the languages the index holds, and weighs them.
#include <algorithm>
#include <cmath>

#include "lib/index/schema.h"
#include "lib/search/language_vocabulary.h"
#include "lib/search/term_expander.h"
#include "quarry/text/language_identifier.h"

namespace quarry::detail {
namespace {

// A word of a query with no language stands for its forms in every
// language the index holds, but is a word of some of them only: "débat"
// is French, and its stem, which Portuguese "debate" shares, would find
// Portuguese articles just as high. The articles of the languages whose
// articles write the word as typed (the vocabulary counts words by
// language) rank first: the other languages' stems keep this part of
// their weight, enough to order their articles after those.
constexpr double kUnwrittenWeight = 0.02;

// A language other than the index's main one holding less than this share
// of the articles (a few stray articles an English collection's
// identification calls Danish or French) is searched for a word only where
// its articles write the word as typed, or where the query names it; and
// it leaves the others' weights alone, as if its articles were not there.
// Weighed in, each query word of the main language would become a weighed
// term rather than the term itself, which ranks the query as something
// other than a bag of words, with no pseudo-relevance feedback.
constexpr double kMinorShare = 0.01;

std::string unknown_language(std::string_view language) {
  return "no language '" + std::string(language) +
         "': name one by its ISO 639-1 code (fr) or its name (french)";
}

}  // namespace

void TermExpander::narrow_languages(const std::vector<Lexeme>& lexemes) {
  // Only a language filter that narrows the query (not one excluded)
  // narrows its stems; one inside parentheses narrows none.
  std::vector<std::string> named;
  if (!config_.language.empty()) {
    const std::string language = stemmer_language(config_.language);
    if (language.empty()) throw_query_value_error(query_, 0, unknown_language(config_.language));
    named.push_back(language);
  }
  for (std::size_t i = 0; i + 1 < lexemes.size(); ++i) {
    if (lexemes[i].kind != LexemeKind::kField || lexemes[i].field != QueryField::kLanguage)
      continue;
    const bool excluded = i > 0 && (lexemes[i - 1].kind == LexemeKind::kMinus ||
                                    lexemes[i - 1].kind == LexemeKind::kNot);
    const Lexeme& value = lexemes[i + 1];
    if (excluded || value.kind != LexemeKind::kWord) continue;
    const std::string language = stemmer_language(value.text);
    if (language.empty())
      throw_query_value_error(query_, value.offset, unknown_language(value.text));
    named.push_back(language);
  }
  if (!named.empty()) search_in(named);
}

void TermExpander::search_in(const std::vector<std::string>& names) {
  stemmers_.clear();
  for (const Analyzer* language : languages_) {
    if (std::find(names.begin(), names.end(), language->config().language) != names.end()) {
      stemmers_.push_back(language);
    }
  }
  // A language the index does not hold: its filter matches nothing.
  if (stemmers_.empty()) stemmers_.push_back(languages_.front());
}

Xapian::Query TermExpander::language_filter(std::string_view language, std::size_t where) const {
  const std::string name = stemmer_language(language);
  if (name.empty()) throw_query_value_error(query_, where, unknown_language(language));
  // Selects without adding to the score.
  return Xapian::Query(Xapian::Query::OP_SCALE_WEIGHT, Xapian::Query(kLanguagePrefix + name), 0);
}

std::vector<std::string> TermExpander::stems(const std::string& word, bool positive) {
  std::vector<std::string> out;
  for (const Analyzer* language : stemmers_) {
    out.push_back(language->stem(word));
    if (positive) out_->highlight.stems.push_back(out.back());
  }
  return out;
}

Xapian::Query TermExpander::any_stem(const std::string& prefix,
                                     const std::vector<std::string>& stems,
                                     Xapian::termpos position, Xapian::Query::op op) {
  std::vector<Xapian::Query> terms;
  for (const std::string& stem : stems) terms.emplace_back(prefix + stem, 1, position);
  if (terms.size() == 1) return terms[0];
  return Xapian::Query(op, terms.begin(), terms.end());
}

std::vector<bool> TermExpander::languages_writing(const std::string& word) {
  if (!db_ || stemmers_.size() < 2) return {};
  const std::vector<Xapian::doccount> counts = articles_writing(*db_, languages_, word);
  std::vector<bool> writing;
  for (const Analyzer* language : stemmers_) {
    const auto at = std::find(languages_.begin(), languages_.end(), language) - languages_.begin();
    writing.push_back(counts[static_cast<std::size_t>(at)] > 0);
  }
  if (std::find(writing.begin(), writing.end(), true) == writing.end()) return {};
  return writing;
}

// A word's stems in several languages, weighed as separate indexes would
// weigh them: each language's stem is as specific as it is among that
// language's articles. One index would weigh them by their frequency among
// all the articles, which favours the languages with fewer articles, or,
// as one synonym, by their sum, which makes a stem rare in one language
// as common as the same letters are in another (German "intern", rare,
// and Swedish "intern", common). A stem's weight grows with its inverse
// document frequency, as BM25's does; each language's term is scaled by
// its frequency within the language over that within the index.
double TermExpander::articles_in(const Analyzer& language) {
  const auto [known, added] = articles_in_.try_emplace(&language, 0);
  if (added) {
    known->second = articles_->get_termfreq(kLanguagePrefix + language.config().language);
  }
  return known->second;
}

Xapian::Query TermExpander::weighed_stems(const std::string& prefix, const std::string& word,
                                          const std::vector<std::string>& stems,
                                          Xapian::termpos position) {
  if (stems.size() < 2 || !articles_) return any_stem(prefix, stems, position);
  const std::vector<bool> writing = languages_writing(word);
  const double index_articles = articles_->get_doccount();
  // A language the query names is searched however few its articles, and
  // so is the main one, which holds what could not be told apart.
  const bool named = stemmers_.size() < languages_.size();
  const auto minor = [&](const Analyzer& language) {
    return !named && language.config().language != analyzer_.config().language &&
           articles_in(language) < kMinorShare * index_articles;
  };
  // The articles of the languages that count.
  double all = index_articles;
  for (const Analyzer* language : languages_) {
    if (minor(*language)) all -= articles_in(*language);
  }
  const auto idf = [](double held, double articles) {
    return std::log((articles - held + 0.5) / (held + 0.5));
  };
  std::vector<Xapian::Query> weighed;
  for (std::size_t i = 0; i < stems.size(); ++i) {
    const bool written = !writing.empty() && writing[i];
    if (minor(*stemmers_[i]) && !written) continue;
    const std::string term = prefix + stems[i];
    const double held = articles_->get_termfreq(term);
    if (held == 0) continue;
    const double in_language = articles_in(*stemmers_[i]);
    // The one language that counts: weighed as the whole index weighs it.
    if (in_language >= all) {
      weighed.emplace_back(term, 1, position);
      continue;
    }
    // Clamped: a stem most of a language's articles hold weighs little,
    // not nothing.
    double scale = std::clamp(idf(held, in_language) / std::max(idf(held, all), 0.1), 0.05, 20.0);
    if (!writing.empty() && !written) scale *= kUnwrittenWeight;
    weighed.emplace_back(Xapian::Query::OP_SCALE_WEIGHT, Xapian::Query(term, 1, position), scale);
  }
  // No language's articles hold it: a term none has matches nothing.
  if (weighed.empty()) return Xapian::Query(prefix + stems[0], 1, position);
  if (weighed.size() == 1) return weighed[0];
  return Xapian::Query(Xapian::Query::OP_OR, weighed.begin(), weighed.end());
}

}  // namespace quarry::detail
