// Any bytes as a query, parsed and run against a small index: the parser
// either builds a query that Xapian runs or throws QueryError, nothing else;
// read forgivingly or as plain words it never throws, and each free word
// lies within the query and can be checked for its spelling.
//
// Everything that does not depend on the input is made once, and spelling,
// the costly part (hundreds of lookups a word), is asked of the words of one
// reading only (the forgiving one, a search box's), the first through the
// vocabulary as better_spelling does, the others as a searcher's Speller
// does, with the words that may be suggested in memory.
#include <xapian.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "fuzz/fuzz_index.h"
#include "lib/search/query_parser.h"
#include "lib/search/spelling.h"
#include "quarry/error.h"
#include "quarry/text/analyzer.h"

namespace {

quarry::QueryParserConfig few_wildcard_terms() {
  quarry::QueryParserConfig config;
  config.max_wildcard_terms = 5;
  return config;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const quarry::Analyzer analyzer;
  // Destroyed in reverse: the database is closed before its folder goes.
  static const quarry::fuzz::TempFolder folder;
  static const Xapian::Database db(quarry::fuzz::small_index(folder));
  static const quarry::detail::QueryParser parser(analyzer, few_wildcard_terms(), &db);
  static quarry::detail::Speller speller;
  const std::string_view query(reinterpret_cast<const char*>(data), size);
  enum class Mode { kStrict, kForgiving, kPlain };
  for (const Mode mode : {Mode::kStrict, Mode::kForgiving, Mode::kPlain}) {
    try {
      const quarry::detail::ParsedQuery parsed = mode == Mode::kPlain ? parser.parse_plain(query)
                                                 : mode == Mode::kForgiving
                                                     ? parser.parse_or_plain(query)
                                                     : parser.parse(query);
      Xapian::Enquire enquire(db);
      enquire.set_query(parsed.query);
      enquire.get_mset(0, 10);
      for (const quarry::detail::QueryWord& word : parsed.free_words) {
        if (word.begin > word.end || word.end > query.size()) std::abort();
        if (mode != Mode::kForgiving) continue;
        if (&word == &parsed.free_words.front()) {
          quarry::detail::better_spelling(db, db.get_doccount(), analyzer, word.term, false);
        } else {
          speller.better_spelling(db, db.get_doccount(), analyzer, word.term, false);
        }
      }
    } catch (const quarry::QueryError&) {
      if (mode != Mode::kStrict) throw;  // the other modes never fail
    } catch (const Xapian::WildcardError&) {
      // More words than max_wildcard_terms match: searching reports it.
    }
  }
  return 0;
}
