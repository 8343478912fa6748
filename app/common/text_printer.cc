#include "app/common/text_printer.h"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <string>

#include "app/common/ansi.h"
#include "app/common/count_text.h"
#include "quarry/search/facet.h"

namespace quarry {
namespace {

// At most this many values of a facet are written; JSON has all. Dates are
// a timeline, which a cut would end early: they are all written (there
// are at most 24 months, or the years).
constexpr std::size_t kFacetValuesShown = 10;

std::size_t values_shown(const Facet& facet) {
  if (facet.field == FacetField::kDate) return facet.values.size();
  return std::min(facet.values.size(), kFacetValuesShown);
}

std::string format_score(double score) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.3f", score);
  return buffer;
}

void write_facets(std::ostream& out, const std::vector<Facet>& facets, const TextStyle& style) {
  for (const Facet& facet : facets) {
    out << "  " << facet_name(facet.field) << ':';
    if (facet.values.empty()) out << " none";
    const std::size_t shown = values_shown(facet);
    for (std::size_t i = 0; i < shown; ++i) {
      out << (i == 0 ? " " : " · ") << terminal_safe(facet.values[i].value) << ' ';
      if (style.color) out << ansi::kDim;
      out << with_thousands(facet.values[i].count);
      if (style.color) out << ansi::kReset;
    }
    if (facet.values.size() > shown) out << " · " << facet.values.size() - shown << " more";
    out << '\n';
  }
}

// "id · date · source · category · language", as far as the article has
// them, and "same story" for a report of the story of the article that
// more-like-this is like.
void write_origin(std::ostream& out, const Hit& hit, const TextStyle& style) {
  if (style.color) out << ansi::kDim;
  out << terminal_safe(hit.id);
  for (const std::string* field : {&hit.date, &hit.source, &hit.category, &hit.language}) {
    if (!field->empty()) out << " · " << terminal_safe(*field);
  }
  if (hit.same_story) out << " · same story";
  if (style.color) out << ansi::kReset;
}

void write_title(std::ostream& out, const Hit& hit, const TextStyle& style) {
  if (style.color) out << ansi::kBold;
  if (hit.title.empty()) {
    out << terminal_safe(hit.id);
  } else {
    write_highlighted(out, Snippet{hit.title, hit.title_highlights}, style, ansi::kBold);
  }
  if (style.color) out << ansi::kReset;
}

void write_hit(std::ostream& out, const Hit& hit, const TextStyle& style) {
  const std::string number = std::to_string(hit.rank) + ". ";
  // Under a hit, lines start where its title does, however wide its rank.
  const std::string indent(number.size(), ' ');
  std::ostringstream title;
  title << number;
  write_title(title, hit, style);
  title << "  [" << format_score(hit.score) << "]";
  out << wrap(std::move(title).str(), style.width, indent) << '\n' << indent;
  write_origin(out, hit, style);
  out << '\n';
  if (!hit.snippet.text.empty()) {
    std::ostringstream snippet;
    snippet << indent;
    write_highlighted(snippet, hit.snippet, style);
    out << wrap(std::move(snippet).str(), style.width, indent) << '\n';
  }
  if (hit.more_total > 0) {
    out << indent;
    if (style.color) out << ansi::kDim;
    out << terminal_safe(more_reports_text(hit));
    if (style.color) out << ansi::kReset;
    out << '\n';
  }
  if (!hit.explanation.empty()) {
    out << indent << "score:";
    for (const Contribution& part : hit.explanation) {
      out << ' ' << part.part << '=' << format_score(part.weight);
    }
    out << '\n';
  }
}

}  // namespace

TextPrinter::TextPrinter(std::ostream& out, const TextStyle& style, const TextLayout& layout)
    : AnswerPrinter(out), style_(style), layout_(layout) {}

void TextPrinter::answer(const SearchResult& result, const AnswerFields& fields) {
  set_apart();
  if (fields.qid) heading(*fields.qid, result.query);
  result_text(result);
  if (layout_.decorations) {
    if (!result.hits.empty()) {
      char line[128];
      // The pages go through the stories when they group the matches, a
      // story's articles as one hit.
      const std::string shown = stories_group(result) ? stories_text(result) : total_text(result);
      std::snprintf(line, sizeof line, "Hits %zu-%zu of %s (%.1f ms)", result.hits.front().rank,
                    result.hits.back().rank, shown.c_str(), fields.took_ms.value_or(0));
      out_ << line << '\n';
    }
    out_ << '\n';
  }
  ++answers_;
}

void TextPrinter::facets(const SearchResult& result) {
  result_text(result);
  if (layout_.decorations) out_ << '\n';
}

void TextPrinter::query_error(std::string_view query, std::string_view message,
                              const AnswerFields& fields) {
  set_apart();
  if (fields.qid) heading(*fields.qid, query);
  out_ << "error: " << terminal_safe(message) << '\n';
  ++answers_;
}

void TextPrinter::set_apart() {
  // As paragraphs on a page; decorations end each answer with a blank line.
  if (!layout_.decorations && (answers_ > 0 || layout_.after_answers)) out_ << '\n';
}

void TextPrinter::heading(std::string_view qid, std::string_view query) {
  if (style_.color) out_ << ansi::kBold;
  out_ << "Query " << terminal_safe(qid) << ": " << terminal_safe(query);
  if (style_.color) out_ << ansi::kReset;
  out_ << '\n';
}

void TextPrinter::result_text(const SearchResult& result) {
  if (result.corrected) {
    out_ << "Showing results for " << terminal_safe(result.suggestion) << "; search instead for "
         << terminal_safe(result.query) << '\n';
  } else if (!result.suggestion.empty()) {
    out_ << "Did you mean: " << terminal_safe(result.suggestion) << '\n';
  }
  out_ << count_text(result) << '\n';
  if (const std::string past = past_end_text(result); !past.empty()) out_ << past << '\n';
  write_facets(out_, result.facets, style_);
  for (const Hit& hit : result.hits) write_hit(out_, hit, style_);
}

}  // namespace quarry
