// The first step of parsing a query: its text cut into lexemes (words,
// phrases, operators, field names), each with its place in the query.
#ifndef QUARRY_LIB_SEARCH_QUERY_LEXER_H_
#define QUARRY_LIB_SEARCH_QUERY_LEXER_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "quarry/error.h"

namespace quarry::detail {

enum class LexemeKind {
  kWord,
  kPhrase,
  kOpen,
  kClose,
  kPlus,
  kMinus,
  kAnd,
  kOr,
  kXor,
  kNot,
  kNear,
  kAdj,
  kField,
  kEnd
};

enum class QueryField { kNone, kTitle, kSource, kCategory, kId, kDate, kAfter, kBefore, kLanguage };

struct Lexeme {
  LexemeKind kind;
  std::string_view text;  // the word, the phrase's inside, or the field's name
  std::size_t offset;     // byte offset in the query
  unsigned window = 0;    // NEAR/n and ADJ/n
  QueryField field = QueryField::kNone;
};

// The lexemes of `query`, which they point into, ending with one of kind
// kEnd. Never throws: what is not quite well formed (an unclosed quote) is
// read as best it can be, with a line in `notes` saying how; what is read
// otherwise than it was meant (a field that does not exist, searched as
// words) gets a line in `warnings`.
std::vector<Lexeme> lex_query(std::string_view query, std::vector<std::string>* notes,
                              std::vector<std::string>* warnings);

// Whether `word` is an operator of the query language as written: AND, OR,
// XOR, NOT, NEAR, ADJ (upper case; "NEAR/5" is not a word).
bool is_operator_word(std::string_view word);

// Throws QueryError for `query`, at the column of byte `offset`.
[[noreturn]] void throw_query_error(std::string_view query, std::size_t offset,
                                    const std::string& reason);

// A filter whose value names what cannot be (a language no stemmer knows, a
// date no calendar has), refused however the query is read: searched as
// words, "date:2017-13-01" would find every article that mentions 2017 or
// 13, which is not what was asked for.
class QueryValueError : public QueryError {
 public:
  using QueryError::QueryError;
};

// Throws QueryValueError for `query`, at the column of byte `offset`.
[[noreturn]] void throw_query_value_error(std::string_view query, std::size_t offset,
                                          const std::string& reason);

// An operator with no words on a side ("Blair AND", "OR Blair"), which a
// search box drops rather than giving up on the whole query's syntax.
class DanglingOperatorError : public QueryError {
 public:
  DanglingOperatorError(std::string_view query, std::size_t offset, const std::string& reason);

  // The operator's byte offset in the query.
  std::size_t offset() const { return offset_; }

 private:
  std::size_t offset_;
};

// The most words (and phrases, each one) a query may hold, whatever else
// it holds. Xapian's matcher slows down faster than the number of terms
// grows (ten thousand words take many seconds); Lucene, for the same
// reason, takes at most 1,024 clauses.
inline constexpr std::size_t kMaxQueryWords = 1024;

// A query of more than kMaxQueryWords words, refused however it is read, as
// Elasticsearch refuses too_many_clauses: read as plain words instead, it
// would lose its operators, and cut short, its last words, without a word
// said.
class QueryTooLongError : public QueryError {
 public:
  using QueryError::QueryError;
};

// Throws QueryTooLongError, at the column of the first word past the
// limit, when `lexemes` of `query` hold more than kMaxQueryWords words and
// phrases.
void refuse_long_query(std::string_view query, const std::vector<Lexeme>& lexemes);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_SEARCH_QUERY_LEXER_H_
