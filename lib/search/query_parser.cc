#include "lib/search/query_parser.h"

#include <algorithm>
#include <map>

#include "lib/search/highlight_terms_order.h"
#include "lib/search/query_lexer.h"
#include "lib/search/term_expander.h"
#include "quarry/error.h"

namespace quarry::detail {
namespace {

// The words of each operand of a NEAR or ADJ chain.
using Alternatives = std::vector<std::vector<std::string>>;

const Deadline kNoDeadline;

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

Xapian::Query flat(Xapian::Query::op op, const std::vector<Xapian::Query>& items) {
  if (items.size() < 2) return items.empty() ? Xapian::Query() : items[0];
  return Xapian::Query(op, items.begin(), items.end());
}

// The grammar: lexemes into the query they mean, with operators, groups,
// signs and fields applied; each word, phrase and field value is expanded
// into terms by a TermExpander.
class Parser {
 public:
  Parser(const Analyzer& analyzer, const std::vector<const Analyzer*>& languages,
         const Xapian::Database* articles, const QueryParserConfig& config,
         const Xapian::Database* db, const Deadline& deadline, std::string_view query,
         std::vector<Lexeme> lexemes, ParsedQuery* out)
      : config_(config),
        query_(query),
        lexemes_(std::move(lexemes)),
        terms_(analyzer, languages, articles, config, db, deadline, query, out) {}

  Xapian::Query parse() {
    terms_.plan(lexemes_);
    Xapian::Query query = expression(true, QueryField::kNone);
    if (peek().kind == LexemeKind::kClose) fail(peek(), "unmatched ')'");
    if (!config_.language.empty() && !query.empty()) {
      query = Xapian::Query(Xapian::Query::OP_FILTER, query,
                            terms_.language_filter(config_.language, 0));
    }
    return query;
  }

 private:
  const Lexeme& peek(std::size_t ahead = 0) const {
    return lexemes_[std::min(at_ + ahead, lexemes_.size() - 1)];
  }
  const Lexeme& take() { return lexemes_[at_++]; }

  [[noreturn]] void fail(const Lexeme& where, const std::string& reason) const {
    throw_query_error(query_, where.offset, reason);
  }

  [[noreturn]] void dangling(const Lexeme& op) const {
    throw DanglingOperatorError(query_, op.offset,
                                op.kind == LexemeKind::kNot
                                    ? std::string("NOT needs words after it")
                                    : std::string(op.text) + " needs words on both sides");
  }

  static bool ends_sequence(LexemeKind kind) {
    return kind == LexemeKind::kAnd || kind == LexemeKind::kOr || kind == LexemeKind::kXor ||
           kind == LexemeKind::kClose || kind == LexemeKind::kEnd || kind == LexemeKind::kNot;
  }

  static bool is_binary(LexemeKind kind) {
    return kind == LexemeKind::kAnd || kind == LexemeKind::kOr || kind == LexemeKind::kXor ||
           kind == LexemeKind::kNear || kind == LexemeKind::kAdj;
  }

  // expression := xor_expr ("OR" xor_expr)*
  Xapian::Query expression(bool positive, QueryField field) {
    Xapian::Query query = exclusive(positive, field);
    while (peek().kind == LexemeKind::kOr) {
      const Lexeme& op = take();
      query = combine(Xapian::Query::OP_OR, query,
                      operand(op, [&] { return exclusive(positive, field); }));
    }
    return query;
  }

  // xor_expr := and_expr ("XOR" and_expr)*
  Xapian::Query exclusive(bool positive, QueryField field) {
    Xapian::Query query = conjunction(positive, field);
    while (peek().kind == LexemeKind::kXor) {
      const Lexeme& op = take();
      query = combine(Xapian::Query::OP_XOR, query,
                      operand(op, [&] { return conjunction(positive, field); }));
    }
    return query;
  }

  // and_expr := sequence (("AND" | "AND NOT" | "NOT") sequence)*
  Xapian::Query conjunction(bool positive, QueryField field) {
    Xapian::Query query;
    if (is_binary(peek().kind)) dangling(peek());
    if (peek().kind != LexemeKind::kNot) query = sequence(positive, field);
    while (peek().kind == LexemeKind::kAnd || peek().kind == LexemeKind::kNot) {
      const Lexeme& op = take();
      bool negate = op.kind == LexemeKind::kNot;
      if (!negate && peek().kind == LexemeKind::kNot) {
        take();
        negate = true;
      }
      Xapian::Query right = operand(op, [&] { return sequence(positive && !negate, field); });
      query = combine(negate ? Xapian::Query::OP_AND_NOT : Xapian::Query::OP_AND, query, right);
    }
    return query;
  }

  // The right-hand side of a binary operator, which must be there.
  template <typename Next>
  Xapian::Query operand(const Lexeme& op, Next next) {
    if (ends_sequence(peek().kind) || is_binary(peek().kind)) dangling(op);
    return next();
  }

  // sequence := (["+" | "-"] item)+, combined as Xapian's QueryParser does:
  // must-words AND'ed, the others ranked by the default operator, minus-words
  // excluded.
  Xapian::Query sequence(bool positive, QueryField field) {
    std::vector<Xapian::Query> must, may, must_not;
    // Filters (source:, category:, id:, dates) narrow the words beside them,
    // as boolean prefixes do in Xapian's QueryParser: filters on one field
    // are alternatives, filters on different fields all apply.
    std::map<QueryField, std::vector<Xapian::Query>> filters;
    while (!ends_sequence(peek().kind)) {
      const LexemeKind sign = peek().kind;
      if (sign == LexemeKind::kPlus || sign == LexemeKind::kMinus) take();
      if (is_binary(peek().kind)) dangling(peek());
      const QueryField filter_field = peek().kind == LexemeKind::kField && is_filter(peek().field)
                                          ? peek().field
                                          : QueryField::kNone;
      Xapian::Query item = proximity_chain(positive && sign != LexemeKind::kMinus, field);
      if (item.empty()) continue;
      if (sign == LexemeKind::kMinus) {
        must_not.push_back(item);
      } else if (filter_field != QueryField::kNone) {
        filters[filter_field].push_back(item);
      } else {
        (sign == LexemeKind::kPlus ? must : may).push_back(item);
      }
    }
    const auto default_op =
        config_.match == MatchMode::kAll ? Xapian::Query::OP_AND : Xapian::Query::OP_OR;
    Xapian::Query query = combine(Xapian::Query::OP_AND_MAYBE, flat(Xapian::Query::OP_AND, must),
                                  flat(default_op, may));
    std::vector<Xapian::Query> all_filters;
    for (const auto& [name, alternatives] : filters) {
      all_filters.push_back(flat(Xapian::Query::OP_OR, alternatives));
    }
    query = combine(Xapian::Query::OP_FILTER, query, flat(Xapian::Query::OP_AND, all_filters));
    return combine(Xapian::Query::OP_AND_NOT, query, flat(Xapian::Query::OP_OR, must_not));
  }

  static bool is_filter(QueryField field) {
    return field != QueryField::kNone && field != QueryField::kTitle;
  }

  // item := operand (("NEAR" | "ADJ")[/n] operand)* | primary
  Xapian::Query proximity_chain(bool positive, QueryField field) {
    if (!starts_proximity_chain()) return primary(positive, field);
    Alternatives words;
    std::vector<Xapian::Query> terms{proximity_operand(positive, &words)};
    const Lexeme& first_op = peek();
    unsigned window = first_op.window;
    while (peek().kind == LexemeKind::kNear || peek().kind == LexemeKind::kAdj) {
      const Lexeme& op = take();
      if (op.kind != first_op.kind) fail(op, "NEAR and ADJ cannot be mixed in one chain");
      window = std::max(window, op.window);
      const LexemeKind next = peek().kind;
      if (next != LexemeKind::kWord && next != LexemeKind::kPhrase && next != LexemeKind::kOpen) {
        dangling(op);
      }
      terms.push_back(proximity_operand(positive, &words));
    }
    terms.erase(std::remove_if(terms.begin(), terms.end(), [](auto& q) { return q.empty(); }),
                terms.end());
    if (terms.size() < 2) {
      for (const auto& alternatives : words) {
        for (const std::string& word : alternatives) {
          terms_.highlight_together({word}, 1, true, positive);
        }
      }
      return flat(Xapian::Query::OP_OR, terms);
    }
    // "within n words" of each other: a window of n + the words themselves.
    const Xapian::termcount span = window + static_cast<Xapian::termcount>(terms.size()) - 1;
    const bool ordered = first_op.kind == LexemeKind::kAdj;
    highlight_chain(words, span, ordered, positive);
    Xapian::Query query(ordered ? Xapian::Query::OP_PHRASE : Xapian::Query::OP_NEAR, terms.begin(),
                        terms.end(), span);
    query = terms_.in_field(query, words, field);
    terms_.score(positive, std::string(first_op.text) + " chain", query);
    return query;
  }

  // Whether the next item is an operand followed by NEAR or ADJ.
  bool starts_proximity_chain() const {
    std::size_t after = 1;
    if (peek().kind == LexemeKind::kOpen) {
      int depth = 0;
      for (after = 0; peek(after).kind != LexemeKind::kEnd; ++after) {
        if (peek(after).kind == LexemeKind::kOpen) ++depth;
        if (peek(after).kind == LexemeKind::kClose && --depth == 0) break;
      }
      ++after;
    }
    return peek(after).kind == LexemeKind::kNear || peek(after).kind == LexemeKind::kAdj;
  }

  // A word joined by NEAR or ADJ, or a group of words any of which may
  // stand in its place: "kraan NEAR (elektrisch OR electrisch)". Xapian
  // matches terms, or terms joined by OR, near each other, so nothing else
  // can be there.
  Xapian::Query proximity_operand(bool positive, Alternatives* words) {
    const Lexeme& lexeme = take();
    std::vector<std::string> alternatives;
    std::vector<Xapian::Query> terms;
    if (lexeme.kind == LexemeKind::kOpen) {
      bool after_word = false;
      for (;;) {
        const Lexeme& inner = take();
        if (inner.kind == LexemeKind::kClose && after_word) break;
        if (inner.kind == LexemeKind::kOr && after_word) {
          after_word = false;
          continue;
        }
        if (inner.kind == LexemeKind::kEnd) fail(lexeme, "'(' is never closed");
        if (inner.kind != LexemeKind::kWord && inner.kind != LexemeKind::kPhrase) {
          fail(inner, "beside NEAR and ADJ, ( ) holds words joined by OR");
        }
        terms.push_back(terms_.proximity_operand(inner, positive, &alternatives));
        after_word = true;
      }
    } else if (lexeme.kind == LexemeKind::kWord || lexeme.kind == LexemeKind::kPhrase) {
      terms.push_back(terms_.proximity_operand(lexeme, positive, &alternatives));
    } else {
      fail(lexeme, "NEAR and ADJ join words");
    }
    if (!alternatives.empty()) words->push_back(std::move(alternatives));
    terms.erase(std::remove_if(terms.begin(), terms.end(), [](auto& q) { return q.empty(); }),
                terms.end());
    return flat(Xapian::Query::OP_OR, terms);
  }

  // Marks a chain's words where they occur together: each way of picking
  // one word of every operand is a group, as long as there are few.
  void highlight_chain(const Alternatives& words, std::size_t span, bool ordered, bool positive) {
    std::size_t ways = 1;
    for (const auto& alternatives : words) {
      ways *= alternatives.size();
      if (ways > kMaxHighlightGroups) break;  // before the product can overflow
    }
    if (ways > kMaxHighlightGroups) {
      for (const auto& alternatives : words) {
        for (const std::string& word : alternatives)
          terms_.highlight_together({word}, 1, true, positive);
      }
      return;
    }
    for (std::size_t way = 0; way < ways; ++way) {
      std::vector<std::string> picked;
      std::size_t rest = way;
      for (const auto& alternatives : words) {
        picked.push_back(alternatives[rest % alternatives.size()]);
        rest /= alternatives.size();
      }
      terms_.highlight_together(picked, span, ordered, positive);
    }
  }

  Xapian::Query primary(bool positive, QueryField field) {
    const Lexeme& lexeme = take();
    switch (lexeme.kind) {
      case LexemeKind::kOpen: {
        if (peek().kind == LexemeKind::kClose) fail(lexeme, "empty parentheses");
        // Recursion depth is bounded so that no query can exhaust the stack.
        if (++depth_ > kMaxDepth) fail(lexeme, "parentheses nested too deeply");
        Xapian::Query inner = expression(positive, field);
        if (peek().kind != LexemeKind::kClose) fail(lexeme, "'(' is never closed");
        take();
        --depth_;
        return inner;
      }
      case LexemeKind::kField: {
        const LexemeKind next = peek().kind;
        if (next != LexemeKind::kWord && next != LexemeKind::kPhrase && next != LexemeKind::kOpen) {
          fail(lexeme, std::string(lexeme.text) + ": needs a word, a phrase or ( ) after it");
        }
        if (field != QueryField::kNone && field != lexeme.field) {
          fail(lexeme, "a field inside another field");
        }
        return primary(positive, lexeme.field);
      }
      case LexemeKind::kPhrase:
      case LexemeKind::kWord:
        return terms_.leaf(lexeme, positive, field);
      default:
        fail(lexeme, "unexpected '" + std::string(lexeme.text) + "'");
    }
  }

  static constexpr int kMaxDepth = 100;
  // Past this many ways of picking a chain's words, they are marked alone.
  static constexpr std::size_t kMaxHighlightGroups = 16;

  const QueryParserConfig& config_;
  std::string_view query_;
  std::vector<Lexeme> lexemes_;
  TermExpander terms_;
  std::size_t at_ = 0;
  int depth_ = 0;
};

}  // namespace

ParsedQuery QueryParser::parse(std::string_view query) const { return parse_without(query, {}); }

ParsedQuery QueryParser::parse_without(std::string_view query,
                                       const std::vector<std::size_t>& dropped) const {
  ParsedQuery out;
  std::vector<Lexeme> lexemes = lex_query(query, &out.notes, &out.warnings);
  std::erase_if(lexemes, [&](const Lexeme& lexeme) {
    return std::find(dropped.begin(), dropped.end(), lexeme.offset) != dropped.end();
  });
  refuse_long_query(query, lexemes);
  out.query = Parser(analyzer_, languages_, articles_, config_, db_,
                     deadline_ ? *deadline_ : kNoDeadline, query, std::move(lexemes), &out)
                  .parse();
  deduplicate(&out.highlight);
  return out;
}

ParsedQuery QueryParser::parse_plain(std::string_view text) const {
  // Each word the analyzer finds becomes a free word, read from where it
  // stands in the text; nothing is syntax.
  std::vector<Lexeme> lexemes;
  for (const Token& token : analyzer_.tokenize(text)) {
    lexemes.push_back(
        {LexemeKind::kWord, text.substr(token.begin, token.end - token.begin), token.begin});
  }
  refuse_long_query(text, lexemes);
  ParsedQuery out;
  lexemes.push_back({LexemeKind::kEnd, {}, text.size()});
  out.query = Parser(analyzer_, languages_, articles_, config_, db_,
                     deadline_ ? *deadline_ : kNoDeadline, text, std::move(lexemes), &out)
                  .parse();
  deduplicate(&out.highlight);
  return out;
}

}  // namespace quarry::detail
