// Quarry's query language, parsed with the analyzer so that every word of a
// query becomes exactly the terms the indexer made from the same word.
//
//   free words        ranked, any may match
//   +word / -word     must / must not match
//   "a phrase"        words in this order (an unclosed quote runs to the end)
//   AND OR NOT        boolean operators (upper case), with ( ) for grouping
//
// A word the analyzer splits in several ("dressing-room", "2-1") is searched
// as a phrase of its parts, as it is written.
#ifndef QUARRY_QUERY_PARSER_H_
#define QUARRY_QUERY_PARSER_H_

#include <string>
#include <string_view>
#include <vector>

#include <xapian.h>

#include "quarry/analyzer.h"

namespace quarry {

// The words a hit is highlighted for: the normalized words of the query's
// positive parts and their stems.
struct HighlightTerms {
  std::vector<std::string> words;
  std::vector<std::string> stems;

  bool empty() const { return words.empty() && stems.empty(); }
};

struct ParsedQuery {
  Xapian::Query query;  // empty (MatchNothing) when the query has no words
  HighlightTerms highlight;
  // Readings the parser chose where the query was not quite well formed,
  // e.g. "unclosed quote: searched as a phrase to the end of the query".
  std::vector<std::string> notes;
};

class QueryParser {
 public:
  // The analyzer must outlive the parser.
  explicit QueryParser(const Analyzer& analyzer) : analyzer_(analyzer) {}

  // Throws QueryError (with the column at fault) when the query cannot be
  // read at all: a dangling operator, unbalanced parentheses.
  ParsedQuery parse(std::string_view query) const;

 private:
  const Analyzer& analyzer_;
};

}  // namespace quarry

#endif  // QUARRY_QUERY_PARSER_H_
