// Writing search results for people (text) and for programs (JSON, and
// TREC runs for evaluation tools).
#ifndef QUARRY_APP_OUTPUT_H_
#define QUARRY_APP_OUTPUT_H_

#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "quarry/search/searcher.h"

namespace quarry {

struct TextStyle {
  // ANSI styles: titles bold, ids dim, highlighted words bold yellow.
  bool color = false;
  // Titles and snippets are wrapped at spaces to lines of this many
  // columns, as a terminal is wide; 0: each is one line.
  std::size_t width = 0;
};

// "Showing results for S; search instead for Q" when the result is for the
// spelling suggestion S of the query Q (SearchOptions::correct), else "Did
// you mean: S" when there is one; then
// count_text(result), the facets asked for, one line a field
//     source: Reuters 120 · AP 3           (the 10 largest values)
// then each hit as
//   1. Title  [score]                      (words of the query highlighted)
//      id · date · source · category       (dim; what the article has)
//      snippet with highlighted words      (when it has a snippet)
//      +N more reports: id, id …           (when its story has others)
//      score: part=weight …                (when explained)
// The title is the id when the article has none. Titles and snippets
// wrapped to style.width go on indented like the lines under them.
void write_text(std::ostream& out, const SearchResult& result, const TextStyle& style);

// How many articles match, for people: "No articles match.", "1 article
// matches", "1,234 articles match", "10,000+ articles match" (past the
// count limit); with the stories when they group the matches, "3 articles
// match, 1 story", "86 articles match, about 80 stories".
std::string count_text(const SearchResult& result);

// The line under a hit whose story has other reports: "+2 more reports:
// 001_…, 002_…" (ending ", …" past the ids listed); empty when it has none.
std::string more_reports_text(const Hit& hit);

// The total alone: "1,234", or "10,000+" past the count limit.
std::string total_text(const SearchResult& result);

// The stories alone, as count_text says them: "1 story", "about 80 stories".
std::string stories_text(const SearchResult& result);

// The facets' block of write_text.
void write_facets(std::ostream& out, const std::vector<Facet>& facets, const TextStyle& style);

// How many columns `text` takes on a terminal: ANSI escapes none, East
// Asian wide characters and emoji two, control characters none, others one.
std::size_t display_width(std::string_view text);

// How many rows `text` fills on a terminal `columns` wide, which wraps its
// long lines (columns 0: one row a line).
std::size_t screen_rows(std::string_view text, std::size_t columns);

// `line` broken at spaces into lines of at most `width` columns, each after
// the first starting with `indent`. A word wider than that has a line of its
// own; width 0 leaves the line as it is.
std::string wrap(std::string_view line, std::size_t width, std::string_view indent);

// Members a batch run adds to each answer, when set.
struct BatchFields {
  std::optional<std::string> qid;
  std::optional<double> took_ms;
};

// The snippet's text with its highlights in bold colour when style.color;
// `style_around` is the style the text around them is in (restored after
// each highlight).
void write_highlighted(std::ostream& out, const Snippet& snippet, const TextStyle& style,
                       std::string_view style_around = {});

// One JSON object on one line, members in this order: "qid" (batch),
// "query", "total", "total_relation" ("eq": total is exact; "gte": at least
// that many match), "hits": [{"rank", "id", "title", "score", "snippet",
// "highlights": [[begin, end], …] in code points of the snippet,
// "title_highlights" (the same in the title), "date", "source", "category"
// (each when the article has it), "explain": [{"part", "weight"}, …] (when
// explained)}], then only when they apply "facets": {"source": [[value,
// count], …], …} (the fields asked for, largest count first), "notes":
// [...], "warnings": [...], "suggestion" (did you mean), "corrected": true
// (the hits are the suggestion's), and "took_ms" (batch).
void write_json(std::ostream& out, const SearchResult& result, const BatchFields& batch = {});

// {"qid", "query", "error"} on one line, for a query that could not be run.
void write_json_error(std::ostream& out, const std::string& qid, std::string_view query,
                      std::string_view error);

// A TREC run's lines for one query: "qid Q0 docid rank score tag". Ids and
// qids are written with white space replaced by '_', as the format splits on
// it.
void write_trec(std::ostream& out, const std::string& qid, const SearchResult& result,
                const std::string& tag);

}  // namespace quarry

#endif  // QUARRY_APP_OUTPUT_H_
