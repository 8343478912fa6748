// What a search box does with a query that cannot be read as written: an
// operator left with no words on a side is dropped, and a query that still
// cannot be read is searched as plain words, each time with a warning.
#include "lib/search/query_lexer.h"
#include "lib/search/query_parser.h"

namespace quarry::detail {

ParsedQuery QueryParser::parse_or_plain(std::string_view query) const {
  // Operators left with no words on a side are dropped one by one, as
  // typed queries end in them ("Blair AND"); a query that needs more is
  // not a query with a slip in it, and is searched as plain words.
  constexpr std::size_t kMostDropped = 4;
  std::vector<std::size_t> dropped;
  std::vector<std::string> said;
  for (;;) {
    try {
      ParsedQuery out = parse_without(query, dropped);
      out.warnings.insert(out.warnings.begin(), said.begin(), said.end());
      return out;
    } catch (const QueryTooLongError&) {
      throw;
    } catch (const QueryValueError&) {
      throw;
    } catch (const DanglingOperatorError& error) {
      if (dropped.size() < kMostDropped) {
        dropped.push_back(error.offset());
        said.push_back(error.reason() + " (column " + std::to_string(error.column()) +
                       "); searched without it");
        continue;
      }
      return plain_after(query, error);
    } catch (const QueryError& error) {
      return plain_after(query, error);
    }
  }
}

ParsedQuery QueryParser::plain_after(std::string_view query, const QueryError& error) const {
  ParsedQuery plain = parse_plain(query);
  plain.warnings.insert(
      plain.warnings.begin(),
      error.reason() + " (column " + std::to_string(error.column()) + "); searched as plain words");
  return plain;
}

ParsedQuery QueryParser::parse(std::string_view query, ParseMode mode) const {
  if (mode == ParseMode::kStrict) return parse(query);
  return mode == ParseMode::kPlain ? parse_plain(query) : parse_or_plain(query);
}

}  // namespace quarry::detail
