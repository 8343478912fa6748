#include "quarry/search/query_parser.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>

#include "lib/index/schema.h"
#include "lib/search/date_range.h"
#include "lib/text/utf8.h"
#include "quarry/error.h"

namespace quarry {
namespace {

enum class Kind {
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

enum class Field { kNone, kTitle, kSource, kCategory, kId, kDate, kAfter, kBefore };

struct Lexeme {
  Kind kind;
  std::string_view text;  // the word, the phrase's inside, or the field's name
  std::size_t offset;     // byte offset in the query
  unsigned window = 0;    // NEAR/n and ADJ/n
  Field field = Field::kNone;
};

constexpr unsigned kDefaultNearWindow = 10;

// Xapian's matcher slows down faster than the number of terms grows (ten
// thousand words take many seconds); Lucene, for the same reason, takes at
// most 1,024 clauses.
constexpr std::size_t kMaxQueryWords = 1024;

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// Curly quotes count as quotes: people paste queries from documents.
std::size_t quote_length(std::string_view text, std::size_t at) {
  if (text[at] == '"') return 1;
  std::string_view rest = text.substr(at);
  if (rest.starts_with("\u201C") || rest.starts_with("\u201D") || rest.starts_with("\u201E")) {
    return 3;
  }
  return 0;
}

std::optional<Field> field_named(std::string_view name) {
  static constexpr std::pair<std::string_view, Field> kFields[] = {
      {"title", Field::kTitle},  {"source", Field::kSource}, {"category", Field::kCategory},
      {"id", Field::kId},        {"date", Field::kDate},     {"after", Field::kAfter},
      {"before", Field::kBefore}};
  for (const auto& [known, field] : kFields) {
    if (name == known) return field;
  }
  return std::nullopt;
}

// "NEAR", "NEAR/5", "ADJ", "ADJ/3"; sets the window.
std::optional<Kind> proximity(std::string_view word, unsigned* window) {
  Kind kind;
  if (word.starts_with("NEAR")) {
    kind = Kind::kNear;
    word.remove_prefix(4);
  } else if (word.starts_with("ADJ")) {
    kind = Kind::kAdj;
    word.remove_prefix(3);
  } else {
    return std::nullopt;
  }
  *window = kDefaultNearWindow;
  if (word.empty()) return kind;
  if (word.front() != '/' || word.size() < 2) return std::nullopt;
  auto [end, error] = std::from_chars(word.data() + 1, word.data() + word.size(), *window);
  if (error != std::errc() || end != word.data() + word.size() || *window == 0) {
    return std::nullopt;
  }
  *window = std::min(*window, 1000u);
  return kind;
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
      } else if (c == '(' || c == ')') {
        out.push_back({c == '(' ? Kind::kOpen : Kind::kClose, query_.substr(i, 1), i});
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
      if (query_[end] == ':') {
        // "title:…": the field applies to what follows the colon, which the
        // lexer reads on its own (a word, a phrase or a group).
        if (auto field = field_named(query_.substr(start, end - start))) {
          out->push_back({Kind::kField, query_.substr(start, end - start), start, 0, *field});
          return end + 1;
        }
      }
      ++end;
    }
    std::string_view text = query_.substr(start, end - start);
    Kind kind = Kind::kWord;
    unsigned window = 0;
    if (text == "AND")
      kind = Kind::kAnd;
    else if (text == "OR")
      kind = Kind::kOr;
    else if (text == "XOR")
      kind = Kind::kXor;
    else if (text == "NOT")
      kind = Kind::kNot;
    else if (auto near = proximity(text, &window))
      kind = *near;
    out->push_back({kind, text, start, window});
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

Xapian::Query flat(Xapian::Query::op op, const std::vector<Xapian::Query>& items) {
  if (items.size() < 2) return items.empty() ? Xapian::Query() : items[0];
  return Xapian::Query(op, items.begin(), items.end());
}

// A filter that selects without adding to the score.
Xapian::Query filter(const std::string& term) {
  return Xapian::Query(Xapian::Query::OP_SCALE_WEIGHT, Xapian::Query(term), 0);
}

class Parser {
 public:
  Parser(const Analyzer& analyzer, const QueryParserConfig& config, const Xapian::Database* db,
         std::string_view query, std::vector<Lexeme> lexemes, ParsedQuery* out)
      : analyzer_(analyzer),
        config_(config),
        db_(db),
        query_(query),
        lexemes_(std::move(lexemes)),
        out_(out) {}

  Xapian::Query parse() {
    Xapian::Query query = expression(true, Field::kNone);
    if (peek().kind == Kind::kClose) fail(peek(), "unmatched ')'");
    return query;
  }

 private:
  const Lexeme& peek(std::size_t ahead = 0) const {
    return lexemes_[std::min(at_ + ahead, lexemes_.size() - 1)];
  }
  const Lexeme& take() { return lexemes_[at_++]; }

  [[noreturn]] void fail(const Lexeme& where, const std::string& reason) const {
    throw QueryError(std::string(query_), detail::column_of(query_, where.offset), reason);
  }

  static bool ends_sequence(Kind kind) {
    return kind == Kind::kAnd || kind == Kind::kOr || kind == Kind::kXor || kind == Kind::kClose ||
           kind == Kind::kEnd || kind == Kind::kNot;
  }

  static bool is_binary(Kind kind) {
    return kind == Kind::kAnd || kind == Kind::kOr || kind == Kind::kXor || kind == Kind::kNear ||
           kind == Kind::kAdj;
  }

  // expression := xor_expr ("OR" xor_expr)*
  Xapian::Query expression(bool positive, Field field) {
    Xapian::Query query = exclusive(positive, field);
    while (peek().kind == Kind::kOr) {
      const Lexeme& op = take();
      query = combine(Xapian::Query::OP_OR, query,
                      operand(op, [&] { return exclusive(positive, field); }));
    }
    return query;
  }

  // xor_expr := and_expr ("XOR" and_expr)*
  Xapian::Query exclusive(bool positive, Field field) {
    Xapian::Query query = conjunction(positive, field);
    while (peek().kind == Kind::kXor) {
      const Lexeme& op = take();
      query = combine(Xapian::Query::OP_XOR, query,
                      operand(op, [&] { return conjunction(positive, field); }));
    }
    return query;
  }

  // and_expr := sequence (("AND" | "AND NOT" | "NOT") sequence)*
  Xapian::Query conjunction(bool positive, Field field) {
    Xapian::Query query;
    if (is_binary(peek().kind))
      fail(peek(), std::string(peek().text) + " needs words on both sides");
    if (peek().kind != Kind::kNot) query = sequence(positive, field);
    while (peek().kind == Kind::kAnd || peek().kind == Kind::kNot) {
      const Lexeme& op = take();
      bool negate = op.kind == Kind::kNot;
      if (!negate && peek().kind == Kind::kNot) {
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
    if (ends_sequence(peek().kind) || is_binary(peek().kind)) {
      if (op.kind == Kind::kNot) fail(op, "NOT needs words after it");
      fail(op, std::string(op.text) + " needs words on both sides");
    }
    return next();
  }

  // sequence := (["+" | "-"] item)+, combined as Xapian's QueryParser does:
  // must-words AND'ed, the others ranked by the default operator, minus-words
  // excluded.
  Xapian::Query sequence(bool positive, Field field) {
    std::vector<Xapian::Query> must, may, must_not;
    // Filters (source:, category:, id:, dates) narrow the words beside them,
    // as boolean prefixes do in Xapian's QueryParser: filters on one field
    // are alternatives, filters on different fields all apply.
    std::map<Field, std::vector<Xapian::Query>> filters;
    while (!ends_sequence(peek().kind)) {
      const Kind sign = peek().kind;
      if (sign == Kind::kPlus || sign == Kind::kMinus) take();
      if (is_binary(peek().kind))
        fail(peek(), std::string(peek().text) + " needs words on both sides");
      const Field filter_field =
          peek().kind == Kind::kField && is_filter(peek().field) ? peek().field : Field::kNone;
      Xapian::Query item = proximity_chain(positive && sign != Kind::kMinus, field);
      if (item.empty()) continue;
      if (sign == Kind::kMinus) {
        must_not.push_back(item);
      } else if (filter_field != Field::kNone) {
        filters[filter_field].push_back(item);
      } else {
        (sign == Kind::kPlus ? must : may).push_back(item);
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

  static bool is_filter(Field field) { return field != Field::kNone && field != Field::kTitle; }

  // item := primary (("NEAR" | "ADJ")[/n] primary)*
  Xapian::Query proximity_chain(bool positive, Field field) {
    if (peek(1).kind != Kind::kNear && peek(1).kind != Kind::kAdj) return primary(positive, field);
    std::vector<std::string> words;
    std::vector<Xapian::Query> terms{proximity_operand(positive, &words)};
    const Lexeme& first_op = peek();
    unsigned window = first_op.window;
    while (peek().kind == Kind::kNear || peek().kind == Kind::kAdj) {
      const Lexeme& op = take();
      if (op.kind != first_op.kind) fail(op, "NEAR and ADJ cannot be mixed in one chain");
      window = std::max(window, op.window);
      if (peek().kind != Kind::kWord && peek().kind != Kind::kPhrase) {
        fail(op, std::string(op.text) + " needs words on both sides");
      }
      terms.push_back(proximity_operand(positive, &words));
    }
    terms.erase(std::remove_if(terms.begin(), terms.end(), [](auto& q) { return q.empty(); }),
                terms.end());
    if (terms.size() < 2) return flat(Xapian::Query::OP_OR, terms);
    // "within n words" of each other: a window of n + the words themselves.
    const Xapian::termcount span = window + static_cast<Xapian::termcount>(terms.size()) - 1;
    Xapian::Query query(
        first_op.kind == Kind::kNear ? Xapian::Query::OP_NEAR : Xapian::Query::OP_PHRASE,
        terms.begin(), terms.end(), span);
    query = in_field(query, words, field);
    score(positive, std::string(first_op.text) + " chain", query);
    return query;
  }

  // A word joined by NEAR or ADJ: its stem, at its position, as in phrases.
  Xapian::Query proximity_operand(bool positive, std::vector<std::string>* words) {
    const Lexeme& lexeme = take();
    if (lexeme.kind != Kind::kWord && lexeme.kind != Kind::kPhrase) {
      fail(lexeme, "NEAR and ADJ join words");
    }
    std::vector<Token> tokens = analyzer_.tokenize(lexeme.text);
    if (tokens.size() > 1) fail(lexeme, "NEAR and ADJ join single words, not phrases");
    if (tokens.empty()) return Xapian::Query();
    words->push_back(tokens[0].term);
    return positioned_stem(tokens[0].term, positive);
  }

  // The term an indexed word became, with its place in the query. Only the
  // unprefixed stems have positions.
  Xapian::Query positioned_stem(const std::string& word, bool positive) {
    const std::string stem = analyzer_.stem(word);
    if (positive) out_->highlight.stems.push_back(stem);
    return Xapian::Query(detail::kStemPrefix + stem, 1, ++position_);
  }

  // A phrase or proximity query limited to a field: title terms carry no
  // positions, so the words' positions come from the whole article and the
  // title must hold every word.
  Xapian::Query in_field(const Xapian::Query& query, const std::vector<std::string>& words,
                         Field field) {
    if (field != Field::kTitle || query.empty()) return query;
    std::vector<Xapian::Query> title_terms;
    for (const std::string& word : words) {
      title_terms.emplace_back(detail::kStemPrefix + prefix_for(field) + analyzer_.stem(word));
    }
    return Xapian::Query(Xapian::Query::OP_FILTER, query, flat(Xapian::Query::OP_AND, title_terms));
  }

  Xapian::Query primary(bool positive, Field field) {
    const Lexeme& lexeme = take();
    switch (lexeme.kind) {
      case Kind::kOpen: {
        if (peek().kind == Kind::kClose) fail(lexeme, "empty parentheses");
        // Recursion depth is bounded so that no query can exhaust the stack.
        if (++depth_ > kMaxDepth) fail(lexeme, "parentheses nested too deeply");
        Xapian::Query inner = expression(positive, field);
        if (peek().kind != Kind::kClose) fail(lexeme, "'(' is never closed");
        take();
        --depth_;
        return inner;
      }
      case Kind::kField: {
        const Kind next = peek().kind;
        if (next != Kind::kWord && next != Kind::kPhrase && next != Kind::kOpen) {
          fail(lexeme, std::string(lexeme.text) + ": needs a word, a phrase or ( ) after it");
        }
        if (field != Field::kNone && field != lexeme.field) {
          fail(lexeme, "a field inside another field");
        }
        return primary(positive, lexeme.field);
      }
      case Kind::kPhrase:
      case Kind::kWord:
        return leaf(lexeme, positive, field);
      default:
        fail(lexeme, "unexpected '" + std::string(lexeme.text) + "'");
    }
  }

  Xapian::Query leaf(const Lexeme& lexeme, bool positive, Field field) {
    switch (field) {
      case Field::kSource:
        return filter(
            detail::boolean_term(detail::kSourcePrefix, analyzer_.normalize(lexeme.text)));
      case Field::kCategory:
        return filter(
            detail::boolean_term(detail::kCategoryPrefix, analyzer_.normalize(lexeme.text)));
      case Field::kId:
        return filter(detail::id_term(std::string(lexeme.text)));
      case Field::kDate:
      case Field::kAfter:
      case Field::kBefore:
        return date(lexeme, field);
      case Field::kNone:
      case Field::kTitle:
        break;
    }
    if (lexeme.kind == Kind::kPhrase) {
      Xapian::Query query = phrase(analyzer_.tokenize(lexeme.text), positive, field);
      score(positive, label(lexeme, field), query);
      return query;
    }
    if (lexeme.text.size() > 1 && lexeme.text.back() == '*') {
      Xapian::Query query = wildcard(lexeme, positive, field);
      score(positive, label(lexeme, field), query);
      return query;
    }
    return word(lexeme, positive, field);
  }

  static std::string prefix_for(Field field) {
    return field == Field::kTitle ? detail::kTitlePrefix : "";
  }

  // One word as typed. The analyzer may find several words in it
  // ("dressing-room", "2-1"): they must then appear together, in order.
  Xapian::Query word(const Lexeme& lexeme, bool positive, Field field) {
    std::vector<Token> tokens = analyzer_.tokenize(lexeme.text);
    if (tokens.size() != 1) {
      Xapian::Query query = phrase(tokens, positive, field);
      score(positive, label(lexeme, field), query);
      return query;
    }
    const std::string& term = tokens[0].term;
    const std::string stem = analyzer_.stem(term);
    if (positive) out_->highlight.stems.push_back(stem);
    if (field == Field::kNone) {
      out_->free_words.push_back({lexeme.offset, lexeme.offset + lexeme.text.size(), term});
    }
    const Xapian::termpos position = ++position_;
    Xapian::Query query = with_synonyms(
        term, Xapian::Query(detail::kStemPrefix + prefix_for(field) + stem, 1, position), positive);
    score(positive, label(lexeme, field), query);
    if (field == Field::kNone && config_.title_weight > 0) {
      const Xapian::Query title(
          Xapian::Query::OP_SCALE_WEIGHT,
          Xapian::Query(std::string(detail::kStemPrefix) + detail::kTitlePrefix + stem, 1,
                        position),
          config_.title_weight);
      score(positive, "title:" + std::string(lexeme.text), title);
      query = Xapian::Query(Xapian::Query::OP_OR, query, title);
    }
    return query;
  }

  static std::string label(const Lexeme& lexeme, Field field) {
    std::string text(lexeme.text);
    if (lexeme.kind == Kind::kPhrase) text = "\"" + text + "\"";
    return field == Field::kTitle ? "title:" + text : text;
  }

  void score(bool positive, std::string label, const Xapian::Query& query) {
    if (positive && !query.empty()) out_->scoring_parts.push_back({std::move(label), query});
  }

  // Quoted words match in order. Positions are kept for stems, so a phrase
  // matches the words' stems, as the free words of a query do.
  Xapian::Query phrase(const std::vector<Token>& tokens, bool positive, Field field) {
    std::vector<Xapian::Query> terms;
    std::vector<std::string> words;
    std::string key;
    for (const Token& token : tokens) {
      terms.push_back(positioned_stem(token.term, positive));
      words.push_back(token.term);
      key += (key.empty() ? "" : " ") + token.term;
    }
    if (terms.empty()) return Xapian::Query();
    if (terms.size() == 1 && field == Field::kTitle) {
      const std::string stem = analyzer_.stem(words[0]);
      return Xapian::Query(detail::kStemPrefix + prefix_for(field) + stem, 1, position_);
    }
    Xapian::Query query = terms.size() == 1 ? terms[0]
                                            : Xapian::Query(Xapian::Query::OP_PHRASE, terms.begin(),
                                                            terms.end(), terms.size());
    return field == Field::kNone ? with_synonyms(key, query, positive)
                                 : in_field(query, words, field);
  }

  // Words that start with what was typed, from the index's vocabulary, the
  // most frequent first: their stems, as one term for ranking.
  Xapian::Query wildcard(const Lexeme& lexeme, bool positive, Field field) {
    std::string_view stem_text = lexeme.text;
    while (!stem_text.empty() && stem_text.back() == '*') stem_text.remove_suffix(1);
    std::vector<Token> tokens = analyzer_.tokenize(stem_text);
    if (tokens.empty()) return Xapian::Query();
    if (tokens.size() > 1) fail(lexeme, "a wildcard applies to one word");
    const std::string& start = tokens[0].term;
    if (positive) out_->highlight.prefixes.push_back(start);
    const std::string prefix = detail::kStemPrefix + prefix_for(field);
    if (!db_) {
      // Without an index to list words from, stems are the best guess.
      return Xapian::Query(Xapian::Query::OP_WILDCARD, prefix + analyzer_.stem(start),
                           config_.max_wildcard_terms, Xapian::Query::WILDCARD_LIMIT_MOST_FREQUENT);
    }
    std::vector<std::pair<Xapian::doccount, std::string>> words;
    auto it = db_->spellings_begin();
    for (it.skip_to(start); it != db_->spellings_end() && (*it).starts_with(start); ++it) {
      words.emplace_back(it.get_termfreq(), *it);
    }
    const std::size_t limit = std::min<std::size_t>(words.size(), config_.max_wildcard_terms);
    std::partial_sort(words.begin(), words.begin() + static_cast<std::ptrdiff_t>(limit),
                      words.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<std::string> stems;
    for (std::size_t i = 0; i < limit; ++i)
      stems.push_back(prefix + analyzer_.stem(words[i].second));
    std::sort(stems.begin(), stems.end());
    stems.erase(std::unique(stems.begin(), stems.end()), stems.end());
    // No word starts so. The bare prefix is a term no article has (words are
    // never empty): it matches nothing, where an empty query would be left
    // out of the query around it.
    if (stems.empty()) return Xapian::Query(prefix);
    return Xapian::Query(Xapian::Query::OP_SYNONYM, stems.begin(), stems.end());
  }

  Xapian::Query date(const Lexeme& lexeme, Field field) {
    std::optional<detail::DateRange> range =
        field == Field::kDate ? detail::parse_date_range(lexeme.text)
                              : detail::parse_date_bound(lexeme.text, field == Field::kAfter);
    if (!range) {
      fail(lexeme, "a date is YYYY, YYYY-MM or YYYY-MM-DD" +
                       std::string(field == Field::kDate ? ", or a range FROM..TO" : ""));
    }
    return detail::date_query(*range);
  }

  // The synonyms stored for `key` (a word or a phrase, normalized) match as
  // the key does.
  Xapian::Query with_synonyms(const std::string& key, const Xapian::Query& query, bool positive) {
    if (!db_) return query;
    std::vector<Xapian::Query> alternatives{query};
    for (auto it = db_->synonyms_begin(key); it != db_->synonyms_end(key); ++it) {
      std::vector<Token> tokens = analyzer_.tokenize(*it);
      if (tokens.empty()) continue;
      std::vector<Xapian::Query> terms;
      for (const Token& token : tokens) {
        const std::string stem = analyzer_.stem(token.term);
        if (positive) out_->highlight.stems.push_back(stem);
        terms.emplace_back(detail::kStemPrefix + stem);
      }
      alternatives.push_back(
          terms.size() == 1
              ? terms[0]
              : Xapian::Query(Xapian::Query::OP_PHRASE, terms.begin(), terms.end(), terms.size()));
    }
    if (alternatives.size() == 1) return query;
    return Xapian::Query(Xapian::Query::OP_SYNONYM, alternatives.begin(), alternatives.end());
  }

  static constexpr int kMaxDepth = 100;

  const Analyzer& analyzer_;
  const QueryParserConfig& config_;
  const Xapian::Database* db_;
  std::string_view query_;
  std::vector<Lexeme> lexemes_;
  ParsedQuery* out_;
  std::size_t at_ = 0;
  int depth_ = 0;
  Xapian::termpos position_ = 0;
};

void deduplicate(std::vector<std::string>* words) {
  std::sort(words->begin(), words->end());
  words->erase(std::unique(words->begin(), words->end()), words->end());
}

void deduplicate(HighlightTerms* terms) {
  deduplicate(&terms->stems);
  deduplicate(&terms->prefixes);
}

}  // namespace

ParsedQuery QueryParser::parse(std::string_view query) const {
  ParsedQuery out;
  std::vector<Lexeme> lexemes = Lexer(query, &out.notes).run();
  if (lexemes.size() > kMaxQueryWords + 1) {
    throw QueryError(std::string(query), detail::column_of(query, lexemes[kMaxQueryWords].offset),
                     "more than " + std::to_string(kMaxQueryWords) + " words and operators");
  }
  out.query = Parser(analyzer_, config_, db_, query, std::move(lexemes), &out).parse();
  deduplicate(&out.highlight);
  return out;
}

ParsedQuery QueryParser::parse_plain(std::string_view text) const {
  // Each word the analyzer finds becomes a free word; nothing is syntax.
  std::string words;
  for (const Token& token : analyzer_.tokenize(text)) {
    words += token.term;
    words += ' ';
  }
  std::vector<Lexeme> lexemes;
  std::size_t at = 0;
  std::string_view view(words);
  while (at < view.size()) {
    const std::size_t space = view.find(' ', at);
    lexemes.push_back({Kind::kWord, view.substr(at, space - at), at});
    at = space + 1;
  }
  ParsedQuery out;
  if (lexemes.size() > kMaxQueryWords) {
    lexemes.resize(kMaxQueryWords);
    out.notes.push_back("only the first " + std::to_string(kMaxQueryWords) + " words are searched");
  }
  lexemes.push_back({Kind::kEnd, {}, view.size()});
  out.query = Parser(analyzer_, config_, db_, view, std::move(lexemes), &out).parse();
  out.free_words.clear();  // offsets into `words`, not into the text given
  deduplicate(&out.highlight);
  return out;
}

}  // namespace quarry
