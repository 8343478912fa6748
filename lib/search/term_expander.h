// The terms a query's words stand for, one word, phrase or field value at
// a time, as the parser meets them: stems at their places in the query,
// phrases, field prefixes, wildcards expanded to the index's words,
// synonyms, dates.
#ifndef QUARRY_LIB_SEARCH_TERM_EXPANDER_H_
#define QUARRY_LIB_SEARCH_TERM_EXPANDER_H_

#include <xapian.h>

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lib/search/deadline.h"
#include "lib/search/query_lexer.h"
#include "lib/search/query_parser.h"
#include "quarry/text/analyzer.h"

namespace quarry::detail {

// Expands the leaves of one query and records, in the ParsedQuery given,
// what the expansion finds besides the terms: the highlight terms, the
// scoring parts and the free words. Everything given must outlive it.
class TermExpander {
 public:
  // Wildcards stop listing the index's words once `deadline` has passed.
  // `languages` are the analyzers of the languages the index holds, whose
  // stems a word stands for; `analyzer` reads the words.
  TermExpander(const Analyzer& analyzer, std::vector<const Analyzer*> languages,
               const Xapian::Database* articles, const QueryParserConfig& config,
               const Xapian::Database* db, const Deadline& deadline, std::string_view query,
               ParsedQuery* out)
      : analyzer_(analyzer),
        languages_(std::move(languages)),
        stemmers_(languages_),
        articles_(articles),
        config_(config),
        db_(db),
        deadline_(deadline),
        query_(query),
        out_(out),
        synonyms_left_(config.max_query_terms) {}

  // Shares config.max_query_terms among the wildcards of `lexemes` (the
  // query's, before any is expanded), and the rest among its synonyms; and
  // stems the words in the languages config.language and the query's
  // language: filters name, when they name any. Throws QueryError for a
  // language that has no stemmer.
  void plan(const std::vector<Lexeme>& lexemes);

  // The filter of articles in `language`, as a user names it ("fr",
  // "French"). Throws QueryError, pointing at `where`, when it names none.
  Xapian::Query language_filter(std::string_view language, std::size_t where) const;

  // A word, a phrase or a field's value, as typed, in `field`; `positive`
  // when it adds to the score rather than excluding. Empty when it holds no
  // word. Throws QueryError for a wildcard over several words or a bad
  // date.
  Xapian::Query leaf(const Lexeme& lexeme, bool positive, QueryField field);

  // A word joined by NEAR or ADJ: its stem, at its place, as in phrases;
  // the word is added to `words`. Empty when it holds no word; throws
  // QueryError when it holds several.
  Xapian::Query proximity_operand(const Lexeme& lexeme, bool positive,
                                  std::vector<std::string>* words);

  // A phrase or proximity query limited to `field`, over `words`: for each
  // place in the query, the words that may stand there.
  Xapian::Query in_field(const Xapian::Query& query,
                         const std::vector<std::vector<std::string>>& words, QueryField field);

  // Records a positive, non-empty `query` as a part of the score.
  void score(bool positive, std::string label, const Xapian::Query& query);

  // Records positive `words` (normalized, in query order, their stems
  // already among the highlight stems) as matching only together: within
  // `span` words, in order when `ordered`. A single word matches alone.
  void highlight_together(const std::vector<std::string>& words, std::size_t span, bool ordered,
                          bool positive);

 private:
  [[noreturn]] void fail(const Lexeme& where, const std::string& reason) const {
    throw_query_error(query_, where.offset, reason);
  }

  // Stems the query's words only in the languages config.language and its
  // language: filters name, when they name any (see plan).
  void narrow_languages(const std::vector<Lexeme>& lexemes);
  // Adds a line to the query's notes, once.
  void note(std::string text);
  Xapian::Query positioned_stem(const std::string& word, bool positive);
  // The stems of `word` in each language the query is searched in, marked
  // as each language's are indexed; added to the highlight stems when
  // `positive`.
  std::vector<std::string> stems(const std::string& word, bool positive);
  // The term of each stem, after `prefix`, at `position` (none: 0), as one
  // term: a word's stems in several languages are one word to rank.
  static Xapian::Query any_stem(const std::string& prefix, const std::vector<std::string>& stems,
                                Xapian::termpos position = 0,
                                Xapian::Query::op op = Xapian::Query::OP_SYNONYM);
  // The query of a free word's stems, after `prefix`, at `position`: see
  // kUnwrittenWeight.
  Xapian::Query weighed_stems(const std::string& prefix, const std::string& word,
                              const std::vector<std::string>& stems, Xapian::termpos position);
  // Whether each language of stemmers_ writes `word` as typed (normalized)
  // in some article: empty when none does, or there is one language.
  std::vector<bool> languages_writing(const std::string& word);
  // How many articles of `language` the index holds, read once a query.
  double articles_in(const Analyzer& language);
  // Restricts the stems to those of `names` (stemmer names) the index
  // holds.
  void search_in(const std::vector<std::string>& names);
  Xapian::Query word(const Lexeme& lexeme, bool positive, QueryField field);
  Xapian::Query phrase(const std::vector<Token>& tokens, bool positive, QueryField field);
  Xapian::Query wildcard(const Lexeme& lexeme, bool positive, QueryField field);
  Xapian::Query date(const Lexeme& lexeme, QueryField field);
  Xapian::Query with_synonyms(const std::string& key, const Xapian::Query& query, bool positive);
  // The word a wildcard's words start with, normalized; none when the
  // lexeme is no wildcard of one word.
  std::optional<std::string> wildcard_start(const Lexeme& lexeme) const;
  // The index's words that start with `start`, the most frequent first.
  const std::vector<std::string>& words_starting(const std::string& start);

  const Analyzer& analyzer_;
  const std::vector<const Analyzer*> languages_;
  // Those of languages_ the query's words are stemmed in.
  std::vector<const Analyzer*> stemmers_;
  const Xapian::Database* articles_;  // null: every language weighs alike
  std::map<const Analyzer*, double> articles_in_;
  const QueryParserConfig& config_;
  const Xapian::Database* db_;
  const Deadline& deadline_;
  std::string_view query_;
  ParsedQuery* out_;
  std::map<std::string, std::vector<std::string>> words_starting_;
  // How many words each wildcard (by its offset in the query) stands for,
  // and whether the budget made any stand for fewer than it would alone.
  std::map<std::size_t, std::size_t> wildcard_words_;
  bool budget_cut_ = false;
  std::size_t synonyms_left_;
  // The place of the last word in the query, for phrases and NEAR.
  Xapian::termpos position_ = 0;
};

}  // namespace quarry::detail

#endif  // QUARRY_LIB_SEARCH_TERM_EXPANDER_H_
