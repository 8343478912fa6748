// Any bytes through the analyzer and the snippet maker: no crash, and every
// token is a valid, bounded term lying inside the text, in order (the terms
// one character folds into, Thai ำ as ํ and า, share its place); snippets
// mark words inside them, in order and apart, and a phrase or NEAR group of
// the same words still marks some word where the words alone do.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "lib/text/utf8_repair.h"
#include "quarry/search/snippet.h"
#include "quarry/text/analyzer.h"

namespace {

void check_highlights(const quarry::Snippet& snippet) {
  const std::size_t length = quarry::count_code_points(snippet.text);
  std::size_t previous_end = 0;
  for (const quarry::Highlight& highlight : snippet.highlights) {
    if (highlight.begin < previous_end) std::abort();
    if (highlight.begin >= highlight.end || highlight.end > length) std::abort();
    previous_end = highlight.end;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const quarry::Analyzer analyzer;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  quarry::HighlightTerms terms;
  std::size_t previous_begin = 0;
  std::size_t previous_end = 0;
  for (const quarry::Token& token : analyzer.tokenize(text)) {
    if (token.term.empty() || token.term.size() > quarry::Analyzer::kMaxTermBytes) std::abort();
    if (quarry::detail::count_invalid_utf8(token.term) != 0) std::abort();
    const bool same_character = token.begin == previous_begin && token.end == previous_end;
    if (token.begin < previous_end && !same_character) std::abort();
    if (token.begin >= token.end || token.end > size) std::abort();
    previous_begin = token.begin;
    previous_end = token.end;
    const std::string stem = analyzer.stem(token.term);
    if (terms.stems.size() < 3) terms.stems.push_back(stem);
  }
  analyzer.normalize(text);
  const quarry::Snippet snippet = quarry::make_snippet(analyzer, text, terms);
  check_highlights(snippet);
  if (terms.stems.size() < 2) return 0;
  for (const bool ordered : {true, false}) {
    quarry::HighlightTerms grouped = terms;
    grouped.groups.push_back({terms.stems, size % 7 + 1, ordered});
    const quarry::Snippet group_snippet = quarry::make_snippet(analyzer, text, grouped);
    check_highlights(group_snippet);
    if (group_snippet.highlights.empty() != snippet.highlights.empty()) std::abort();
  }
  return 0;
}
