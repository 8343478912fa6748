// Query-biased snippets: the passage of an article that best shows why it
// matched, with every matching word marked.
#ifndef QUARRY_SEARCH_SNIPPET_H_
#define QUARRY_SEARCH_SNIPPET_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "quarry/search/highlight_terms.h"
#include "quarry/text/analyzer.h"

namespace quarry {

// [begin, end) in Unicode code points into Snippet::text.
struct Highlight {
  std::size_t begin;
  std::size_t end;

  bool operator==(const Highlight&) const = default;
};

struct Snippet {
  // From make_snippet, one line: runs of white space become one space;
  // from highlight_all, the text as it was.
  std::string text;
  std::vector<Highlight> highlights;
};

struct SnippetConfig {
  std::size_t window_words = 30;
};

// Snippets: each hit's passage that best shows why it matched
// (Hit::snippet), and its title's matches marked (Hit::title_highlights).
struct SnippetOptions {
  bool enabled = true;
  SnippetConfig passage;
};

// The window of about config.window_words words of `text` that holds the
// most distinct highlight terms (then the most matches, then the earliest),
// moved so that its matches sit in its middle, cut at word boundaries, with
// "…" where text was left out before or after. With no matching word it is
// the start of the text. Words of a phrase, NEAR or ADJ match only where
// their group occurs (see HighlightTerms), so the window shows the phrase.
Snippet make_snippet(const Analyzer& analyzer, std::string_view text, const HighlightTerms& terms,
                     const SnippetConfig& config = {});

// Where each of terms.stems occurs in a text: stem_words[k] lists the
// indexes of the words (as Analyzer::tokenize counts them) whose stem is
// terms.stems[k]. A search reads them from the index's positions instead of
// stemming every word of every hit.
using StemWords = std::vector<std::vector<std::size_t>>;

// make_snippet, with the matches of terms.stems given; wildcard prefixes
// are still matched against the words.
Snippet make_snippet(const Analyzer& analyzer, std::string_view text, const HighlightTerms& terms,
                     const StemWords& stem_words, const SnippetConfig& config = {});

// make_snippet, with the text's words (Analyzer::tokenize) given as well:
// for many snippets of one text, each for other terms.
Snippet make_snippet(std::string_view text, const std::vector<Token>& tokens,
                     const HighlightTerms& terms, const StemWords& stem_words,
                     const SnippetConfig& config = {});

// The whole of `text`, unchanged, with every word that matches `terms`
// marked, groups applied as make_snippet applies them.
Snippet highlight_all(const Analyzer& analyzer, std::string_view text, const HighlightTerms& terms);

// highlight_all, with the text's words (Analyzer::tokenize) and the
// matches of terms.stems given.
Snippet highlight_all(std::string_view text, const std::vector<Token>& tokens,
                      const HighlightTerms& terms, const StemWords& stem_words);

}  // namespace quarry

#endif  // QUARRY_SEARCH_SNIPPET_H_
