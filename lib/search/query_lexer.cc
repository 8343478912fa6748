#include "lib/search/query_lexer.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <utility>

#include "lib/text/utf8_repair.h"
#include "quarry/error.h"

namespace quarry::detail {
namespace {

constexpr unsigned kDefaultNearWindow = 10;

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

char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// Field names are read in any case ("Title:", "CATEGORY:"), as the headers
// of .txt articles are.
std::optional<QueryField> field_named(std::string_view name) {
  static constexpr std::pair<std::string_view, QueryField> kFields[] = {
      {"title", QueryField::kTitle},       {"source", QueryField::kSource},
      {"category", QueryField::kCategory}, {"id", QueryField::kId},
      {"date", QueryField::kDate},         {"after", QueryField::kAfter},
      {"before", QueryField::kBefore},     {"language", QueryField::kLanguage},
      {"lang", QueryField::kLanguage}};
  for (const auto& [known, field] : kFields) {
    if (std::equal(name.begin(), name.end(), known.begin(), known.end(),
                   [](char a, char b) { return ascii_lower(a) == b; })) {
      return field;
    }
  }
  return std::nullopt;
}

bool is_sign(char c) { return c == '+' || c == '-'; }

bool is_ascii_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// "site:example.org" reads as a field that does not exist; "10:30",
// "http://…", "c:\\" and ":)" do not.
bool looks_like_field(std::string_view name, std::string_view value) {
  if (name.size() < 2 || !std::all_of(name.begin(), name.end(), is_ascii_letter)) return false;
  return !value.empty() && !is_space(value.front()) && value.front() != '/' &&
         value.front() != '\\' && value.front() != ':' && value.front() != ')';
}

constexpr unsigned kMaxNearWindow = 1000;

// "NEAR", "NEAR/5", "ADJ", "ADJ/3"; sets the window. A distance that is a
// number but not a whole one from 1 to kMaxNearWindow ("NEAR/0",
// "NEAR/-5", "ADJ/1.5") sets *bad_distance: it was meant as an operator.
std::optional<LexemeKind> proximity(std::string_view word, unsigned* window, bool* bad_distance) {
  LexemeKind kind;
  if (word.starts_with("NEAR")) {
    kind = LexemeKind::kNear;
    word.remove_prefix(4);
  } else if (word.starts_with("ADJ")) {
    kind = LexemeKind::kAdj;
    word.remove_prefix(3);
  } else {
    return std::nullopt;
  }
  *window = kDefaultNearWindow;
  if (word.empty()) return kind;
  if (word.front() != '/' || word.size() < 2) return std::nullopt;
  const std::string_view distance = word.substr(1);
  unsigned long long value = 0;
  auto [end, error] = std::from_chars(distance.data(), distance.data() + distance.size(), value);
  if (error == std::errc() && end == distance.data() + distance.size() && value >= 1 &&
      value <= kMaxNearWindow) {
    *window = static_cast<unsigned>(value);
    return kind;
  }
  const char first = distance.front();
  *bad_distance = (first >= '0' && first <= '9') || first == '-' || first == '+' || first == '.';
  return std::nullopt;
}

class Lexer {
 public:
  Lexer(std::string_view query, std::vector<std::string>* notes, std::vector<std::string>* warnings)
      : query_(query), notes_(notes), warnings_(warnings) {}

  std::vector<Lexeme> run() {
    std::vector<Lexeme> out;
    std::size_t i = 0;
    while (i < query_.size()) {
      const char c = query_[i];
      if (is_space(c)) {
        ++i;
      } else if (c == '(' || c == ')') {
        out.push_back({c == '(' ? LexemeKind::kOpen : LexemeKind::kClose, query_.substr(i, 1), i});
        ++i;
      } else if (std::size_t q = quote_length(query_, i)) {
        i = phrase(i, q, &out);
      } else if (is_sign(c)) {
        i = signs(i, &out);
      } else {
        i = word(i, &out);
      }
    }
    out.push_back({LexemeKind::kEnd, {}, query_.size()});
    return out;
  }

 private:
  // A sign before a word, a phrase or a group. A run of signs ("+-dvd",
  // "--http-user") is no sign at all, as Xapian's QueryParser reads it: such
  // runs are pasted text, not operators.
  std::size_t signs(std::size_t start, std::vector<Lexeme>* out) {
    std::size_t end = start;
    while (end < query_.size() && is_sign(query_[end])) ++end;
    if (end == query_.size() || is_space(query_[end]) || query_[end] == ')')
      return word(start, out);
    if (end - start == 1) {
      const LexemeKind kind = query_[start] == '+' ? LexemeKind::kPlus : LexemeKind::kMinus;
      out->push_back({kind, query_.substr(start, 1), start});
    }
    return end;
  }

  std::size_t phrase(std::size_t start, std::size_t quote, std::vector<Lexeme>* out) {
    std::size_t inside = start + quote;
    std::size_t end = inside;
    while (end < query_.size() && quote_length(query_, end) == 0) ++end;
    out->push_back({LexemeKind::kPhrase, query_.substr(inside, end - inside), start});
    if (end >= query_.size()) {
      notes_->push_back("unclosed quote at column " + std::to_string(column_of(query_, start)) +
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
        const std::string_view name = query_.substr(start, end - start);
        if (auto field = field_named(name)) {
          out->push_back({LexemeKind::kField, name, start, 0, *field});
          return end + 1;
        }
        if (looks_like_field(name, query_.substr(end + 1))) warn_unknown_field(name);
      }
      ++end;
    }
    std::string_view text = query_.substr(start, end - start);
    LexemeKind kind = LexemeKind::kWord;
    unsigned window = 0;
    if (text == "AND")
      kind = LexemeKind::kAnd;
    else if (text == "OR")
      kind = LexemeKind::kOr;
    else if (text == "XOR")
      kind = LexemeKind::kXor;
    else if (text == "NOT")
      kind = LexemeKind::kNot;
    else if (bool bad_distance = false; auto near = proximity(text, &window, &bad_distance))
      kind = *near;
    else if (bad_distance)
      throw_query_error(query_, start,
                        std::string(text) + ": the distance must be a whole number from 1 to " +
                            std::to_string(kMaxNearWindow));
    out->push_back({kind, text, start, window});
    return end;
  }

  void warn_unknown_field(std::string_view name) {
    std::string warning = "no field '" + std::string(name) + "'; searched as words";
    if (std::find(warnings_->begin(), warnings_->end(), warning) == warnings_->end()) {
      warnings_->push_back(std::move(warning));
    }
  }

  std::string_view query_;
  std::vector<std::string>* notes_;
  std::vector<std::string>* warnings_;
};

}  // namespace

std::vector<Lexeme> lex_query(std::string_view query, std::vector<std::string>* notes,
                              std::vector<std::string>* warnings) {
  return Lexer(query, notes, warnings).run();
}

bool is_operator_word(std::string_view word) {
  return word == "AND" || word == "OR" || word == "XOR" || word == "NOT" || word == "NEAR" ||
         word == "ADJ";
}

void throw_query_error(std::string_view query, std::size_t offset, const std::string& reason) {
  throw QueryError(std::string(query), column_of(query, offset), reason);
}

void throw_query_value_error(std::string_view query, std::size_t offset,
                             const std::string& reason) {
  throw QueryValueError(std::string(query), column_of(query, offset), reason);
}

DanglingOperatorError::DanglingOperatorError(std::string_view query, std::size_t offset,
                                             const std::string& reason)
    : QueryError(std::string(query), column_of(query, offset), reason), offset_(offset) {}

void refuse_long_query(std::string_view query, const std::vector<Lexeme>& lexemes) {
  std::size_t words = 0;
  for (const Lexeme& lexeme : lexemes) {
    if (lexeme.kind != LexemeKind::kWord && lexeme.kind != LexemeKind::kPhrase) continue;
    if (++words > kMaxQueryWords) {
      throw QueryTooLongError(
          std::string(query), column_of(query, lexeme.offset),
          "more than " + std::to_string(kMaxQueryWords) + " words, the most a query may hold");
    }
  }
}

}  // namespace quarry::detail
