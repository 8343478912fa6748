// Answers for people, as a terminal shows them.
#ifndef QUARRY_APP_COMMON_TEXT_PRINTER_H_
#define QUARRY_APP_COMMON_TEXT_PRINTER_H_

#include <cstddef>
#include <ostream>
#include <string_view>

#include "app/common/printer.h"
#include "app/common/terminal_text.h"

namespace quarry {

// An answer is "Showing results for S; search instead for Q" when the
// result is for the spelling suggestion S of the query Q (SearchOptions::
// correct), else "Did you mean: S" when there is one; then count_text(
// result), the facets asked for, one line a field
//     source: Reuters 120 · AP 3           (the 10 largest values)
// then each hit as
//   1. Title  [score]                      (words of the query highlighted)
//      id · date · source · category       (dim; what the article has)
//      snippet with highlighted words      (when it has a snippet)
//      +N more reports: id, id …           (when its story has others)
//      score: part=weight …                (when explained)
// The lines under a hit start under its title, however wide its rank (4
// columns in under "10. "). The title is the id when the article has none.
// Titles and snippets wrapped to style.width go on indented like the lines
// under them. An
// answer with a qid is headed "Query qid: query" (bold in colour), and so
// is a query error, "error: message" under its heading. Notes and warnings
// are left to the diagnostics stream.
class TextPrinter : public AnswerPrinter {
 public:
  TextPrinter(std::ostream& out, const TextStyle& style, const TextLayout& layout = {});

  void answer(const SearchResult& result, const AnswerFields& fields) override;
  void facets(const SearchResult& result) override;
  void query_error(std::string_view query, std::string_view message,
                   const AnswerFields& fields) override;
  DiagnosedMessages diagnosed() const override { return {true, true}; }

 private:
  // A blank line before each answer but the first, without decorations.
  void set_apart();
  void heading(std::string_view qid, std::string_view query);
  void result_text(const SearchResult& result);

  TextStyle style_;
  TextLayout layout_;
  std::size_t answers_ = 0;
};

}  // namespace quarry

#endif  // QUARRY_APP_COMMON_TEXT_PRINTER_H_
