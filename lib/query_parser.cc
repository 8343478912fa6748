#include "quarry/query_parser.h"

#include <algorithm>
#include <optional>

#include "lib/schema.h"
#include "lib/utf8_columns.h"
#include "quarry/error.h"

namespace quarry {
namespace {

enum class Kind { kWord, kPhrase, kOpen, kClose, kPlus, kMinus, kAnd, kOr, kXor, kNot, kEnd };

struct Lexeme {
  Kind kind;
  std::string_view text;  // the word, or the phrase's inside
  std::size_t offset;     // byte offset in the query
};

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

// Curly quotes count as quotes: people paste queries from documents.
std::size_t quote_length(std::string_view text, std::size_t at) {
  if (text[at] == '"') return 1;
  std::string_view rest = text.substr(at);
  if (rest.starts_with("\u201C") || rest.starts_with("\u201D") || rest.starts_with("\u201E")) {
    return 3;
  }
  return 0;
}

std::optional<Kind> operator_kind(std::string_view word) {
  if (word == "AND") return Kind::kAnd;
  if (word == "OR") return Kind::kOr;
  if (word == "XOR") return Kind::kXor;
  if (word == "NOT") return Kind::kNot;
  return std::nullopt;
}

class Lexer {
 public:
  Lexer(std::string_view query, std::vector<std::string>* notes) : query_(query), notes_(notes) {}

  std::vector<Lexeme> run() {
    std::vector<Lexeme> out;
    std::size_t i = 0;
    while (i < query_.size()) {
      const char c = query_[i];
      if (is_space(c)) {
        ++i;
      } else if (c == '(') {
        out.push_back({Kind::kOpen, query_.substr(i, 1), i});
        ++i;
      } else if (c == ')') {
        out.push_back({Kind::kClose, query_.substr(i, 1), i});
        ++i;
      } else if (std::size_t q = quote_length(query_, i)) {
        i = phrase(i, q, &out);
      } else if ((c == '+' || c == '-') && i + 1 < query_.size() && !is_space(query_[i + 1]) &&
                 query_[i + 1] != ')') {
        out.push_back({c == '+' ? Kind::kPlus : Kind::kMinus, query_.substr(i, 1), i});
        ++i;
      } else {
        i = word(i, &out);
      }
    }
    out.push_back({Kind::kEnd, {}, query_.size()});
    return out;
  }

 private:
  std::size_t phrase(std::size_t start, std::size_t quote, std::vector<Lexeme>* out) {
    std::size_t inside = start + quote;
    std::size_t end = inside;
    while (end < query_.size() && quote_length(query_, end) == 0) ++end;
    out->push_back({Kind::kPhrase, query_.substr(inside, end - inside), start});
    if (end >= query_.size()) {
      notes_->push_back("unclosed quote at column " +
                        std::to_string(detail::column_of(query_, start)) +
                        ": searched as a phrase to the end of the query");
      return end;
    }
    return end + quote_length(query_, end);
  }

  std::size_t word(std::size_t start, std::vector<Lexeme>* out) {
    std::size_t end = start;
    while (end < query_.size() && !is_space(query_[end]) && query_[end] != '(' &&
           query_[end] != ')' && quote_length(query_, end) == 0) {
      ++end;
    }
    std::string_view text = query_.substr(start, end - start);
    out->push_back({operator_kind(text).value_or(Kind::kWord), text, start});
    return end;
  }

  std::string_view query_;
  std::vector<std::string>* notes_;
};

// Subqueries may be empty (a word with no letters or digits); combining
// treats an empty side as absent rather than as "matches nothing".
Xapian::Query combine(Xapian::Query::op op, const Xapian::Query& left, const Xapian::Query& right) {
  if (left.empty()) {
    if (op == Xapian::Query::OP_AND_NOT && !right.empty()) {
      return Xapian::Query(op, Xapian::Query::MatchAll, right);
    }
    return right;
  }
  if (right.empty()) return left;
  return Xapian::Query(op, left, right);
}

class Parser {
 public:
  Parser(const Analyzer& analyzer, std::string_view query, std::vector<Lexeme> lexemes,
         ParsedQuery* out)
      : analyzer_(analyzer), query_(query), lexemes_(std::move(lexemes)), out_(out) {}

  Xapian::Query parse() {
    Xapian::Query query = expression(true);
    if (peek().kind == Kind::kClose) fail(peek(), "unmatched ')'");
    return query;
  }

 private:
  const Lexeme& peek() const { return lexemes_[at_]; }
  const Lexeme& take() { return lexemes_[at_++]; }

  [[noreturn]] void fail(const Lexeme& where, const std::string& reason) const {
    throw QueryError(std::string(query_), detail::column_of(query_, where.offset), reason);
  }

  static bool ends_sequence(Kind kind) {
    return kind == Kind::kAnd || kind == Kind::kOr || kind == Kind::kXor || kind == Kind::kClose ||
           kind == Kind::kEnd;
  }

  // expression := xor_expr ("OR" xor_expr)*
  Xapian::Query expression(bool positive) {
    Xapian::Query query = exclusive(positive);
    while (peek().kind == Kind::kOr) {
      const Lexeme& op = take();
      query = combine(Xapian::Query::OP_OR, query, operand(op, [&] { return exclusive(positive); }));
    }
    return query;
  }

  // xor_expr := and_expr ("XOR" and_expr)*
  Xapian::Query exclusive(bool positive) {
    Xapian::Query query = conjunction(positive);
    while (peek().kind == Kind::kXor) {
      const Lexeme& op = take();
      query =
          combine(Xapian::Query::OP_XOR, query, operand(op, [&] { return conjunction(positive); }));
    }
    return query;
  }

  // and_expr := sequence (("AND" | "AND NOT" | "NOT") sequence)*
  Xapian::Query conjunction(bool positive) {
    Xapian::Query query;
    if (peek().kind == Kind::kAnd || peek().kind == Kind::kOr || peek().kind == Kind::kXor) {
      fail(peek(), std::string(peek().text) + " needs words on both sides");
    }
    if (peek().kind != Kind::kNot) query = sequence(positive);
    while (peek().kind == Kind::kAnd || peek().kind == Kind::kNot) {
      const Lexeme& op = take();
      bool negate = op.kind == Kind::kNot;
      if (!negate && peek().kind == Kind::kNot) {
        take();
        negate = true;
      }
      Xapian::Query right = operand(op, [&] { return sequence(positive && !negate); });
      query = combine(negate ? Xapian::Query::OP_AND_NOT : Xapian::Query::OP_AND, query, right);
    }
    return query;
  }

  // The right-hand side of a binary operator, which must be there.
  template <typename Next>
  Xapian::Query operand(const Lexeme& op, Next next) {
    if (ends_sequence(peek().kind) || peek().kind == Kind::kNot) {
      if (op.kind == Kind::kNot) fail(op, "NOT needs words after it");
      fail(op, std::string(op.text) + " needs words on both sides");
    }
    return next();
  }

  // sequence := (["+" | "-"] primary)+, combined as Xapian's QueryParser
  // does: must-words AND'ed, the others OR'ed and ranked, minus-words
  // excluded.
  Xapian::Query sequence(bool positive) {
    std::vector<Xapian::Query> must, may, must_not;
    while (!ends_sequence(peek().kind) && peek().kind != Kind::kNot) {
      const Kind sign = peek().kind;
      if (sign == Kind::kPlus || sign == Kind::kMinus) take();
      Xapian::Query item = primary(positive && sign != Kind::kMinus);
      if (item.empty()) continue;
      (sign == Kind::kPlus ? must : sign == Kind::kMinus ? must_not : may).push_back(item);
    }
    Xapian::Query query = combine(Xapian::Query::OP_AND_MAYBE, flat(Xapian::Query::OP_AND, must),
                                  flat(Xapian::Query::OP_OR, may));
    return combine(Xapian::Query::OP_AND_NOT, query, flat(Xapian::Query::OP_OR, must_not));
  }

  static Xapian::Query flat(Xapian::Query::op op, const std::vector<Xapian::Query>& items) {
    if (items.size() < 2) return items.empty() ? Xapian::Query() : items[0];
    return Xapian::Query(op, items.begin(), items.end());
  }

  Xapian::Query primary(bool positive) {
    const Lexeme& lexeme = take();
    switch (lexeme.kind) {
      case Kind::kOpen: {
        if (peek().kind == Kind::kClose) fail(lexeme, "empty parentheses");
        // Recursion depth is bounded so that no query can exhaust the stack.
        if (++depth_ > kMaxDepth) fail(lexeme, "parentheses nested too deeply");
        Xapian::Query inner = expression(positive);
        if (peek().kind != Kind::kClose) fail(lexeme, "'(' is never closed");
        take();
        --depth_;
        return inner;
      }
      case Kind::kPhrase:
        return phrase(lexeme.text, positive);
      case Kind::kWord:
        return word(lexeme.text, positive);
      default:
        fail(lexeme, "unexpected '" + std::string(lexeme.text) + "'");
    }
  }

  // One word as typed. The analyzer may find several words in it
  // ("dressing-room", "2-1"): they must then appear together, in order.
  Xapian::Query word(std::string_view text, bool positive) {
    std::vector<Token> tokens = analyzer_.tokenize(text);
    if (tokens.size() != 1) return phrase_of(tokens, positive);
    const std::string stem = analyzer_.stem(tokens[0].term);
    if (positive) out_->highlight.stems.push_back(stem);
    return Xapian::Query(detail::kStemPrefix + stem, 1, ++position_);
  }

  // Quoted words match exactly as written (unstemmed), in order.
  Xapian::Query phrase(std::string_view text, bool positive) {
    return phrase_of(analyzer_.tokenize(text), positive);
  }

  Xapian::Query phrase_of(const std::vector<Token>& tokens, bool positive) {
    std::vector<Xapian::Query> terms;
    for (const Token& token : tokens) {
      if (positive) out_->highlight.words.push_back(token.term);
      terms.emplace_back(token.term, 1, ++position_);
    }
    if (terms.empty()) return Xapian::Query();
    if (terms.size() == 1) return terms[0];
    return Xapian::Query(Xapian::Query::OP_PHRASE, terms.begin(), terms.end(), terms.size());
  }

  const Analyzer& analyzer_;
  std::string_view query_;
  std::vector<Lexeme> lexemes_;
  ParsedQuery* out_;
  static constexpr int kMaxDepth = 100;

  std::size_t at_ = 0;
  int depth_ = 0;
  Xapian::termpos position_ = 0;
};

void deduplicate(std::vector<std::string>* words) {
  std::sort(words->begin(), words->end());
  words->erase(std::unique(words->begin(), words->end()), words->end());
}

}  // namespace

ParsedQuery QueryParser::parse(std::string_view query) const {
  ParsedQuery out;
  std::vector<Lexeme> lexemes = Lexer(query, &out.notes).run();
  out.query = Parser(analyzer_, query, std::move(lexemes), &out).parse();
  deduplicate(&out.highlight.words);
  deduplicate(&out.highlight.stems);
  return out;
}

}  // namespace quarry
