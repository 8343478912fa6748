// Quarry's query language, parsed with the analyzer so that every word of a
// query becomes exactly the terms the indexer made from the same word.
//
//   Ederson Portuguese     free words: ranked, any may match (or all: --match all)
//   +word  -word           must / must not match
//   "a phrase"             words in this order (an unclosed quote runs to the end)
//   AND OR NOT XOR ( )     boolean operators (upper case) and grouping
//   a NEAR b, a NEAR/5 b   words within 10 (or 5) words of each other, any order
//   a ADJ b, a ADJ/5 b     the same, in this order; either side may be a group
//                          of words, any of which may match: a NEAR (b OR c)
//   Manches*               words starting with "manches"
//   title:  source:  category:  id:   fields (title words are free words too)
//   date:2017-12-10  date:2017-12-01..2017-12-31  after:2017-12-01  before:2018
//
// A word the analyzer splits in several ("dressing-room", "2-1") is searched
// as a phrase of its parts, as it is written. A run of signs ("+-dvd",
// "--http-user") is no sign, as in Xapian's QueryParser; a field name that
// does not exist ("site:x") is searched as words, with a warning.
#ifndef QUARRY_SEARCH_QUERY_PARSER_H_
#define QUARRY_SEARCH_QUERY_PARSER_H_

#include <xapian.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "quarry/search/highlight_terms.h"
#include "quarry/text/analyzer.h"

namespace quarry {

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

enum class MatchMode { kAny, kAll };

struct QueryParserConfig {
  MatchMode match = MatchMode::kAny;
  // Free words also match the title with this extra weight (0: titles count
  // as body text only).
  double title_weight = 0;
  // Wildcards expand to at most this many words, the most frequent first.
  unsigned max_wildcard_terms = 500;
};

class QueryParser {
 public:
  // The analyzer (and the database, when given) must outlive the parser.
  // With a database, synonyms stored in it expand the query's words, and
  // wildcards are expanded to the words it holds.
  explicit QueryParser(const Analyzer& analyzer, QueryParserConfig config = {},
                       const Xapian::Database* db = nullptr)
      : analyzer_(analyzer), config_(config), db_(db) {}

  // Throws QueryError (with the column at fault) when the query cannot be
  // read at all: a dangling operator, unbalanced parentheses, a bad date.
  ParsedQuery parse(std::string_view query) const;

  // The query as parse() reads it or, when it cannot, as parse_plain()
  // does, with a warning first that names the fault and its column:
  // "'(' is never closed (column 14); searched as plain words". What a
  // search box should do with what people type. Never throws.
  ParsedQuery parse_or_plain(std::string_view query) const;

  // The text as plain words, whatever it holds: natural-language queries
  // with no syntax. Its free words carry their places in the text, for
  // spelling suggestions. Never throws.
  ParsedQuery parse_plain(std::string_view text) const;

 private:
  const Analyzer& analyzer_;
  QueryParserConfig config_;
  const Xapian::Database* db_;
};

}  // namespace quarry

#endif  // QUARRY_SEARCH_QUERY_PARSER_H_
