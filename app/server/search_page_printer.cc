#include "app/server/search_page_printer.h"

#include <algorithm>
#include <string>
#include <utility>

#include "app/common/count_text.h"
#include "app/common/http_query.h"
#include "app/server/page_markup.h"
#include "app/server/search_page.h"
#include "quarry/search/facet.h"

namespace quarry {
namespace {

// The view's own search, with its results from `offset`.
PageLink view_link(const SearchPageView& view, std::size_t offset) {
  return {view.query,  view.sort, offset,        view.collapse,
          view.like,   view.from, view.language, view.newest_relevant,
          view.correct};
}

// The view's search of `query` from its first result, narrowed as the
// view is: the same order, grouping and language.
PageLink narrowed_link(const SearchPageView& view, std::string_view query) {
  return {query,
          view.sort,
          0,
          view.collapse,
          view.like,
          view.from,
          view.language,
          view.newest_relevant,
          view.correct};
}

// "+2 more reports", opening the list of the others, each a link to it.
std::string reports_html(const Hit& hit, const SearchPageView& view) {
  const std::size_t more = hit.more_total;
  std::string html = "<details class=\"more\"><summary>+" + std::to_string(more) +
                     (more == 1 ? " more report" : " more reports") +
                     "</summary><ul class=\"reports\">";
  for (const std::string& id : hit.more) {
    const auto found = view.reports.find(id);
    const bool titled = found != view.reports.end() && !found->second.title.empty();
    html += "<li><a href=\"" + html_escape(article_link(id, view.query)) + "\">" +
            html_escape(titled ? found->second.title : id) + "</a>";
    if (found != view.reports.end()) {
      const std::string meta = meta_html(found->second.date, found->second.source, "", "");
      if (!meta.empty()) html += " <span class=\"meta\">" + meta + "</span>";
    }
    html += "</li>";
  }
  if (hit.more.size() < more) {
    html += "<li class=\"rest\">… and " + std::to_string(more - hit.more.size()) + " more</li>";
  }
  return html + "</ul></details>";
}

std::string hit_html(const Hit& hit, const SearchPageView& view) {
  std::string html = "<li class=\"hit\"><h2 class=\"title\"><a href=\"" +
                     html_escape(article_link(hit.id, view.query)) + "\">";
  html +=
      hit.title.empty() ? html_escape(hit.id) : highlighted_html(hit.title, hit.title_highlights);
  html +=
      "</a></h2><p class=\"meta\">" + meta_html(hit.date, hit.source, hit.category, hit.language);
  if (hit.same_story) html += " · <span class=\"same-story\">same story</span>";
  html += "</p>";
  if (!hit.snippet.text.empty()) {
    html += "<p class=\"snippet\">" + highlighted_html(hit.snippet.text, hit.snippet.highlights) +
            "</p>";
  }
  if (hit.more_total > 0) html += reports_html(hit, view);
  // Back from the articles like this one goes to the query the reader
  // searched, however many likes deep.
  const std::string_view from = view.like.empty() ? std::string_view(view.query) : view.from;
  const PageLink like{"", SortOrder::kRelevance, 0, view.collapse, hit.id, from};
  html += "<p class=\"actions\"><a class=\"like\" href=\"" + html_escape(page_link(like)) +
          "\">More like this</a></p>";
  return html + "</li>";
}

// The query narrowed to one value of a facet, as the query language writes
// a filter: dates and languages ("fr") are one word, others are quoted.
std::string narrowed(std::string_view query, FacetField field, std::string_view value) {
  std::string filter(facet_name(field));
  filter += ':';
  if (field == FacetField::kDate || field == FacetField::kLanguage) {
    filter += value;
  } else {
    std::string quoted(value);
    std::erase(quoted, '"');
    filter += '"' + quoted + '"';
  }
  return query.empty() ? filter : std::string(query) + ' ' + filter;
}

constexpr std::size_t kFacetValuesShown = 10;

// The timeline's geometry, in the units of its viewBox, which the page
// stretches to the width of the facets: each month or year a slot this
// wide, its bar narrower, thinner still when there are few to fill the
// width; the tallest bar this high. search_page.js draws the same.
constexpr int kSlotWidth = 20;
constexpr int kChartHeight = 40;
constexpr int kFewSlots = 6;

int bar_width(int slots) { return slots < kFewSlots ? 6 : 16; }

// The place of "YYYY-MM" or "YYYY" on a timeline of months or years.
int slot_of(std::string_view date) {
  const int year = std::stoi(std::string(date.substr(0, 4)));
  return date.size() > 4 ? year * 12 + std::stoi(std::string(date.substr(5, 2))) - 1 : year;
}

std::string articles_text(std::size_t count) {
  return with_thousands(count) + (count == 1 ? " article" : " articles");
}

// The date facet as a timeline: a bar a month (or year) in date order,
// its height the matches', each a link narrowing the search to it; months
// without matches are gaps. Inline SVG, which the page's content policy
// allows where it refuses inline styles; no script draws it.
std::string timeline_html(const SearchPageView& view, const Facet& facet) {
  const FacetValue* earliest = &facet.values.front();
  const FacetValue* latest = earliest;
  std::size_t most = 0;
  for (const FacetValue& value : facet.values) {
    if (slot_of(value.value) < slot_of(earliest->value)) earliest = &value;
    if (slot_of(value.value) > slot_of(latest->value)) latest = &value;
    most = std::max(most, value.count);
  }
  const int first = slot_of(earliest->value);
  const int slots = slot_of(latest->value) - first + 1;
  const int width = bar_width(slots);
  const bool months = earliest->value.size() > 4;
  std::string html = "<svg class=\"timeline\" viewBox=\"0 0 " + std::to_string(slots * kSlotWidth) +
                     " " + std::to_string(kChartHeight) +
                     "\" preserveAspectRatio=\"none\" role=\"group\" aria-label=\"" +
                     (months ? "Matches by month" : "Matches by year") + "\">";
  for (const FacetValue& value : facet.values) {
    // Every count shows, however small beside the largest.
    const auto bar = std::max<std::size_t>(1, (value.count * kChartHeight + most / 2) / most);
    const int x = (slot_of(value.value) - first) * kSlotWidth + (kSlotWidth - width) / 2;
    html += "<a href=\"" +
            html_escape(
                page_link(narrowed_link(view, narrowed(view.query, facet.field, value.value)))) +
            "\"><title>" + html_escape(value.value) + ": " + articles_text(value.count) +
            "</title><rect x=\"" + std::to_string(x) + "\" y=\"" +
            std::to_string(kChartHeight - static_cast<int>(bar)) + "\" width=\"" +
            std::to_string(width) + "\" height=\"" + std::to_string(bar) + "\"/></a>";
  }
  html += "</svg><p class=\"axis\"><span>" + html_escape(earliest->value) + "</span>";
  if (latest != earliest) html += "<span>" + html_escape(latest->value) + "</span>";
  return html + "</p>";
}

std::string facets_html(const SearchPageView& view, const SearchResult& result) {
  std::string html;
  for (const Facet& facet : result.facets) {
    if (facet.values.empty()) continue;
    if (facet.field == FacetField::kDate) {
      html += "<section class=\"facet dates\"><h2>" + std::string(facet_name(facet.field)) +
              "</h2>" + timeline_html(view, facet) + "</section>";
      continue;
    }
    html += "<section class=\"facet\"><h2>" + std::string(facet_name(facet.field)) + "</h2><ul>";
    for (std::size_t i = 0; i < facet.values.size() && i < kFacetValuesShown; ++i) {
      const FacetValue& value = facet.values[i];
      html += "<li><a href=\"" +
              html_escape(
                  page_link(narrowed_link(view, narrowed(view.query, facet.field, value.value)))) +
              "\">" + html_escape(value.value) + "</a> <span class=\"n\">" +
              std::to_string(value.count) + "</span></li>";
    }
    // As text says it: the values past those shown are there to narrow by
    // too, from the query.
    if (facet.values.size() > kFacetValuesShown) {
      html += "<li class=\"rest\">" + with_thousands(facet.values.size() - kFacetValuesShown) +
              " more</li>";
    }
    html += "</ul></section>";
  }
  return html.empty() ? html : "<aside class=\"facets\" aria-label=\"Narrow\">" + html + "</aside>";
}

// The pages go through the hits shown: the stories when one hit stands for
// each, else the articles.
std::string shown_text(const SearchResult& result) {
  return stories_group(result) ? stories_text(result) : total_text(result);
}

std::string pages_html(const SearchPageView& view, const SearchResult& result) {
  std::string html;
  if (view.offset > 0) {
    const std::size_t previous = view.offset > view.limit ? view.offset - view.limit : 0;
    html += "<a rel=\"prev\" href=\"" + html_escape(page_link(view_link(view, previous))) +
            "\">← Previous</a>";
  }
  if (!result.hits.empty()) {
    html += "<span class=\"range\">" + std::to_string(result.hits.front().rank) + "–" +
            std::to_string(result.hits.back().rank) + " of " + shown_text(result) + "</span>";
  }
  const std::size_t next = view.offset + view.limit;
  if (next < result.stories && next <= kMaxOffset) {
    html +=
        "<a rel=\"next\" href=\"" + html_escape(page_link(view_link(view, next))) + "\">Next →</a>";
  }
  return html.empty() ? html : "<nav class=\"pages\" aria-label=\"Pages\">" + html + "</nav>";
}

// What the hits are like, and the way back to the query that led there.
std::string like_html(const SearchPageView& view) {
  std::string html =
      "<p class=\"like\">Articles like <a href=\"" + html_escape(article_link(view.like, "")) +
      "\">" + html_escape(view.like_title.empty() ? view.like : view.like_title) + "</a></p>";
  if (!view.from.empty()) {
    const PageLink back{view.from, SortOrder::kRelevance, 0, view.collapse, "", ""};
    html += "<p class=\"back\"><a href=\"" + html_escape(page_link(back)) + "\">← Results for " +
            html_escape(view.from) + "</a></p>";
  }
  return html;
}

// The one language searched, and the way to every language.
std::string language_html(const SearchPageView& view) {
  PageLink every = view_link(view, 0);
  every.language = {};
  return "<p class=\"language\">Only articles in <span>" + html_escape(view.language) +
         "</span>: <a href=\"" + html_escape(page_link(every)) + "\">search every language</a></p>";
}

// The suggestion, a link searching it; when it was searched instead, as
// text says it, "Showing results for S; search instead for Q", Q a link
// searching the query as typed, never corrected.
std::string suggestion_html(const SearchPageView& view, const SearchResult& result) {
  const PageLink suggested{
      result.suggestion,    view.sort,   0, view.collapse, "", "", view.language,
      view.newest_relevant, view.correct};
  std::string html = "<p class=\"suggestion\">" +
                     std::string(result.corrected ? "Showing results for " : "Did you mean ") +
                     "<a href=\"" + html_escape(page_link(suggested)) + "\">" +
                     html_escape(result.suggestion) + "</a>";
  if (result.corrected) {
    PageLink typed = view_link(view, 0);
    typed.query = result.query;
    typed.correct = Correction::kNever;
    html += "; search instead for <a class=\"instead\" href=\"" + html_escape(page_link(typed)) +
            "\">" + html_escape(result.query) + "</a>";
  }
  return html + "</p>";
}

std::string results_html(const SearchPageView& view, const SearchResult& result) {
  std::string html = view.like.empty() ? "" : like_html(view);
  if (!view.language.empty()) html += language_html(view);
  if (!result.suggestion.empty()) html += suggestion_html(view, result);
  for (const std::string& note : result.notes) {
    html += "<p class=\"note\">" + html_escape(note) + "</p>";
  }
  for (const std::string& warning : result.warnings) {
    html += "<p class=\"warning\">" + html_escape(warning) + "</p>";
  }
  html += "<p class=\"count\" id=\"count\">" + html_escape(count_text(result)) + "</p>";
  if (const std::string past = past_end_text(result); !past.empty()) {
    html += "<p class=\"note\" id=\"past-end\">" + html_escape(past) + "</p>";
  }
  html += "<div class=\"results\"><ol class=\"hits\" start=\"" + std::to_string(view.offset + 1) +
          "\">";
  for (const Hit& hit : result.hits) html += hit_html(hit, view);
  html += "</ol>" + facets_html(view, result) + "</div>" + pages_html(view, result);
  return html;
}

}  // namespace

SearchPagePrinter::SearchPagePrinter(std::ostream& out, SearchPageView view)
    : AnswerPrinter(out), view_(std::move(view)) {}

void SearchPagePrinter::answer(const SearchResult& result, const AnswerFields&) {
  main_ = results_html(view_, result);
}

void SearchPagePrinter::facets(const SearchResult& result) { main_ = results_html(view_, result); }

void SearchPagePrinter::query_error(std::string_view, std::string_view message,
                                    const AnswerFields&) {
  main_ = "<p class=\"error\" role=\"alert\">" + html_escape(message) + "</p>";
}

void SearchPagePrinter::end_run() {
  const SearchPageView& view = view_;
  std::string title = view.query.empty() ? "Quarry" : view.query + " — Quarry";
  if (!view.like.empty()) {
    title = "Articles like " + (view.like_title.empty() ? view.like : view.like_title) +
            (view.query.empty() ? "" : ": " + view.query) + " — Quarry";
  }
  out_ << render_page(title, view.query, {view.sort, view.newest_relevant}, view.collapse,
                      view.language, std::move(main_),
                      view.alerts_since ? alerts_panel(*view.alerts_since) : "");
  main_.clear();
}

}  // namespace quarry
