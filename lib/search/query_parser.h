// The query language (quarry/search/query_language.h) read into a Xapian
// query, with what a search needs besides: the words to highlight, the parts
// that explain a score, the free words a spelling suggestion may replace.
#ifndef QUARRY_LIB_SEARCH_QUERY_PARSER_H_
#define QUARRY_LIB_SEARCH_QUERY_PARSER_H_

#include <xapian.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "lib/search/deadline.h"
#include "quarry/error.h"
#include "quarry/search/highlight_terms.h"
#include "quarry/search/query_language.h"
#include "quarry/text/analyzer.h"

namespace quarry::detail {

// A free word of the query, where it was typed: what a spelling correction
// may replace.
struct QueryWord {
  std::size_t begin;  // byte offsets into the query
  std::size_t end;
  std::string term;  // the normalized word
};

// A part of the query that adds to a hit's score, for explaining scores.
struct ScoringPart {
  std::string label;  // as typed: "penalty", "\"dressing room\"", "title:derby"
  Xapian::Query query;
};

struct ParsedQuery {
  Xapian::Query query;  // empty (MatchNothing) when the query has no words
  HighlightTerms highlight;
  // The positive words, phrases and wildcards, each scored on its own; a
  // hit's score is the sum of the parts it matches.
  std::vector<ScoringPart> scoring_parts;
  std::vector<QueryWord> free_words;
  // Readings the parser chose where the query was not quite well formed,
  // e.g. "unclosed quote: searched as a phrase to the end of the query".
  std::vector<std::string> notes;
  // What of the query was not searched as it was written: "no field 'foo';
  // searched as words", or from parse_or_plain, why the whole query was
  // searched as plain words.
  std::vector<std::string> warnings;
};

// Reads queries; holds no state of its own between them, so one parser may
// be used from several threads when its analyzer and database may.
class QueryParser {
 public:
  // The analyzer (and the database and deadline, when given) must outlive
  // the parser. With a database, synonyms stored in it expand the query's
  // words, and wildcards are expanded to the words it holds, until the
  // deadline passes: the wildcards not yet expanded then match nothing.
  // `languages` are the analyzers of the languages the index holds (the
  // main one first), whose stems each word stands for; none: the
  // analyzer's own language only. With `articles`, the index's articles,
  // each language's stems are weighed within its own articles (see
  // TermExpander::weighed_stems).
  explicit QueryParser(const Analyzer& analyzer, QueryParserConfig config = {},
                       const Xapian::Database* db = nullptr, const Deadline* deadline = nullptr,
                       std::vector<const Analyzer*> languages = {},
                       const Xapian::Database* articles = nullptr)
      : analyzer_(analyzer),
        config_(std::move(config)),
        db_(db),
        deadline_(deadline),
        languages_(languages.empty() ? std::vector<const Analyzer*>{&analyzer}
                                     : std::move(languages)),
        articles_(articles) {}

  // Throws QueryError (with the column at fault) when the query cannot be
  // read at all: a dangling operator (DanglingOperatorError), unbalanced
  // parentheses, a date or language that cannot be (QueryValueError), more
  // than kMaxQueryWords words (QueryTooLongError).
  ParsedQuery parse(std::string_view query) const;

  // The query as parse() reads it, what a search box should do with what
  // people type: an operator with no words on a side is left out ("AND
  // needs words on both sides (column 7); searched without it"); a query
  // that still cannot be read is searched as parse_plain() does, with a
  // warning first that names the fault and its column ("'(' is never
  // closed (column 14); searched as plain words"). Throws QueryTooLongError
  // and QueryValueError only: a query too long, or one whose filter names
  // a language or date that cannot be, is refused, not searched otherwise.
  ParsedQuery parse_or_plain(std::string_view query) const;

  // The text as plain words, whatever it holds: natural-language queries
  // with no syntax. Its free words carry their places in the text, for
  // spelling suggestions. Throws QueryTooLongError only, for more than
  // kMaxQueryWords words.
  ParsedQuery parse_plain(std::string_view text) const;

  // The query read as `mode` says: parse_or_plain(), parse() or
  // parse_plain().
  ParsedQuery parse(std::string_view query, ParseMode mode) const;

 private:
  // parse() with the operators at byte offsets `dropped` left out.
  ParsedQuery parse_without(std::string_view query, const std::vector<std::size_t>& dropped) const;
  // The query as plain words, with a warning naming `error` first.
  ParsedQuery plain_after(std::string_view query, const QueryError& error) const;

  const Analyzer& analyzer_;
  QueryParserConfig config_;
  const Xapian::Database* db_;
  const Deadline* deadline_;
  std::vector<const Analyzer*> languages_;
  const Xapian::Database* articles_;
};

}  // namespace quarry::detail

#endif  // QUARRY_LIB_SEARCH_QUERY_PARSER_H_
