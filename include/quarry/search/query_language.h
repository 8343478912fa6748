// Quarry's query language, and how a search reads it. The parser (lib/search/
// query_parser.h) reads a query with the analyzer, so that every word of a
// query becomes exactly the terms the indexer made from the same word.
//
//   Ederson Portuguese     free words: ranked, any may match (or all: --match all,
//                          and sorted by date)
//   +word  -word           must / must not match
//   "a phrase"             words in this order (an unclosed quote runs to the end)
//   AND OR NOT XOR ( )     boolean operators (upper case) and grouping
//   a NEAR b, a NEAR/5 b   words within 10 (or 5) words of each other, any order
//   a ADJ b, a ADJ/5 b     the same, in this order; either side may be a group
//                          of words, any of which may match: a NEAR (b OR c)
//   Manches*               words starting with "manches"
//   title:  source:  category:  id:   fields (title words are free words too)
//   date:2017-12-10  date:2017-12-01..2017-12-31  after:2017-12-01  before:2017-12-31
//                          dates; after: and before: include the date named
//
// A word the analyzer splits in several ("dressing-room", "2-1") is searched
// as a phrase of its parts, as it is written. Field names are read in any
// case ("Title:", "CATEGORY:"). A run of signs ("+-dvd",
// "--http-user") is no sign, as in Xapian's QueryParser; a field name that
// does not exist ("site:x") is searched as words, with a warning.
#ifndef QUARRY_SEARCH_QUERY_LANGUAGE_H_
#define QUARRY_SEARCH_QUERY_LANGUAGE_H_

namespace quarry {

// Which of a query's free words an article must hold.
enum class MatchMode {
  kAny,  // any: the articles holding more, and rarer, rank first
  kAll,  // every one
  // Every one when hits are sorted by date (SearchOptions::sort), where no
  // ranking lifts the articles that hold them all above those that hold
  // one; else any. The parser alone ranks, so takes it as any.
  kAuto,
};

// How the words of a query are turned into what is matched. A value.
struct QueryParserConfig {
  MatchMode match = MatchMode::kAuto;
  // Free words also match the title with this extra weight (0: titles count
  // as body text only).
  double title_weight = 0;
  // Wildcards expand to at most this many words, the most frequent first.
  unsigned max_wildcard_terms = 500;
  // All of a query's wildcards together expand to at most this many words,
  // and its synonyms to what they leave: each wildcard keeps its most
  // frequent words, and those that would take more than an equal share
  // take what the others leave. A query's cost grows with its terms (a
  // 4,000-term query takes seconds), so its words are bounded as
  // Elasticsearch's max_clause_count bounds clauses.
  unsigned max_query_terms = 2000;
  // The language the query is written in, as an ISO 639-1 code ("fr") or a
  // stemmer's name: its words then stand for their forms in that language
  // only, and only articles in it match, as a language: filter does.
  // Empty: each word stands for its forms in every language the index
  // holds.
  std::string language = {};
};

// How a search reads the text of a query. However it is read, a query of
// more than 1,024 words (a phrase counts as one) is a QueryError, as
// Elasticsearch refuses a query of too many clauses.
enum class ParseMode {
  // The query language; a query that cannot be parsed is searched as plain
  // words instead, with a warning saying why: what a search box should do
  // with what people type.
  kQueryOrPlain,
  // The query language; a query that cannot be parsed is a QueryError
  // (with the column at fault).
  kStrict,
  // Plain words (natural language), whatever the text holds: no syntax.
  kPlain,
};

}  // namespace quarry

#endif  // QUARRY_SEARCH_QUERY_LANGUAGE_H_
