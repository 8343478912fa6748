#include "app/search_page.h"

#include <algorithm>
#include <initializer_list>
#include <utility>

#include "app/http_query.h"
#include "app/output.h"
#include "quarry/search/facet.h"
#include "quarry/text/utf8.h"

namespace quarry {
namespace detail {

// search_page.html, .css and .js as they were at build time (the build
// writes their definitions, app/CMakeLists.txt).
extern const std::string_view kSearchPageHtml;
extern const std::string_view kSearchPageCss;
extern const std::string_view kSearchPageJs;

}  // namespace detail

std::vector<FacetField> page_facets() {
  return {FacetField::kSource, FacetField::kCategory, FacetField::kDate};
}

std::string_view search_page_stylesheet() { return detail::kSearchPageCss; }
std::string_view search_page_script() { return detail::kSearchPageJs; }

std::string html_escape(std::string_view text) {
  std::string escaped;
  escaped.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        escaped += "&amp;";
        break;
      case '<':
        escaped += "&lt;";
        break;
      case '>':
        escaped += "&gt;";
        break;
      case '"':
        escaped += "&quot;";
        break;
      case '\'':
        escaped += "&#39;";
        break;
      default:
        escaped += c;
    }
  }
  return escaped;
}

std::string highlighted_html(std::string_view text, const std::vector<Highlight>& highlights) {
  std::string html;
  std::size_t byte = 0, code_point = 0;
  // Moves `byte` to the start of code point `index`, or the end of the text.
  auto advance_to = [&](std::size_t index) {
    while (byte < text.size() && code_point < index) {
      ++byte;
      while (byte < text.size() && !starts_code_point(text[byte])) ++byte;
      ++code_point;
    }
  };
  std::size_t written = 0;
  for (const Highlight& highlight : highlights) {
    if (highlight.begin < code_point || highlight.end <= highlight.begin) continue;
    advance_to(highlight.begin);
    const std::size_t begin = byte;
    advance_to(highlight.end);
    html += html_escape(text.substr(written, begin - written));
    html += "<mark>" + html_escape(text.substr(begin, byte - begin)) + "</mark>";
    written = byte;
  }
  html += html_escape(text.substr(written));
  return html;
}

std::string url_encode(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string encoded;
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte >= 'A' && byte <= 'Z') || (byte >= 'a' && byte <= 'z') ||
        (byte >= '0' && byte <= '9') || byte == '-' || byte == '_' || byte == '.' || byte == '~') {
      encoded += c;
    } else {
      encoded += '%';
      encoded += kHex[byte >> 4];
      encoded += kHex[byte & 0xF];
    }
  }
  return encoded;
}

namespace {

std::string_view sort_name(SortOrder sort) {
  switch (sort) {
    case SortOrder::kOldestFirst:
      return "date";
    case SortOrder::kNewestFirst:
      return "-date";
    case SortOrder::kRelevance:
      break;
  }
  return "relevance";
}

// A link to the page searching `query`; the defaults are left out.
std::string page_link(std::string_view query, SortOrder sort, std::size_t offset) {
  std::string link = "/?q=" + url_encode(query);
  if (sort != SortOrder::kRelevance) link += "&sort=" + std::string(sort_name(sort));
  if (offset > 0) link += "&offset=" + std::to_string(offset);
  return link;
}

std::string article_link(std::string_view id, std::string_view query) {
  std::string link = "/articles/" + url_encode(id);
  if (!query.empty()) link += "?q=" + url_encode(query);
  return link;
}

// The template with each {{name}} replaced by its (already escaped) HTML.
std::string fill(std::string_view page,
                 std::initializer_list<std::pair<std::string_view, std::string>> slots) {
  std::string html;
  for (std::size_t at = 0; at < page.size();) {
    const std::size_t open = page.find("{{", at);
    const std::size_t close = open == std::string_view::npos ? open : page.find("}}", open);
    if (close == std::string_view::npos) {
      html += page.substr(at);
      break;
    }
    html += page.substr(at, open - at);
    const std::string_view name = page.substr(open + 2, close - open - 2);
    for (const auto& [slot, value] : slots) {
      if (slot == name) html += value;
    }
    at = close + 2;
  }
  return html;
}

std::string sort_options(SortOrder sort) {
  static constexpr std::pair<SortOrder, std::string_view> kOrders[] = {
      {SortOrder::kRelevance, "Best match"},
      {SortOrder::kNewestFirst, "Newest first"},
      {SortOrder::kOldestFirst, "Oldest first"}};
  std::string html;
  for (const auto& [order, label] : kOrders) {
    html += "<option value=\"" + std::string(sort_name(order)) + "\"";
    if (order == sort) html += " selected";
    html += ">" + std::string(label) + "</option>";
  }
  return html;
}

std::string page(std::string_view title, std::string_view query, SortOrder sort, std::string main) {
  return fill(detail::kSearchPageHtml, {{"title", html_escape(title)},
                                        {"query", html_escape(query)},
                                        {"sort_options", sort_options(sort)},
                                        {"main", std::move(main)}});
}

// "date · source · category", as far as the article has them.
std::string meta_html(std::string_view date, std::string_view source, std::string_view category) {
  std::string html;
  const std::pair<std::string_view, std::string_view> parts[] = {
      {"date", date.substr(0, 10)}, {"source", source}, {"category", category}};
  for (const auto& [name, value] : parts) {
    if (value.empty()) continue;
    if (!html.empty()) html += " · ";
    html += "<span class=\"" + std::string(name) + "\">" + html_escape(value) + "</span>";
  }
  return html;
}

std::string hit_html(const Hit& hit, std::string_view query) {
  std::string html = "<li class=\"hit\"><h2 class=\"title\"><a href=\"" +
                     html_escape(article_link(hit.id, query)) + "\">";
  html +=
      hit.title.empty() ? html_escape(hit.id) : highlighted_html(hit.title, hit.title_highlights);
  html += "</a></h2><p class=\"meta\">" + meta_html(hit.date, hit.source, hit.category) + "</p>";
  if (!hit.snippet.text.empty()) {
    html += "<p class=\"snippet\">" + highlighted_html(hit.snippet.text, hit.snippet.highlights) +
            "</p>";
  }
  return html + "</li>";
}

// The query narrowed to one value of a facet, as the query language writes
// a filter.
std::string narrowed(std::string_view query, FacetField field, std::string_view value) {
  std::string filter(facet_name(field));
  filter += ':';
  if (field == FacetField::kDate) {
    filter += value;
  } else {
    std::string quoted(value);
    std::erase(quoted, '"');
    filter += '"' + quoted + '"';
  }
  return query.empty() ? filter : std::string(query) + ' ' + filter;
}

constexpr std::size_t kFacetValuesShown = 10;

std::string facets_html(const SearchPageView& view) {
  std::string html;
  for (const Facet& facet : view.result->facets) {
    if (facet.values.empty()) continue;
    html += "<section class=\"facet\"><h2>" + std::string(facet_name(facet.field)) + "</h2><ul>";
    for (std::size_t i = 0; i < facet.values.size() && i < kFacetValuesShown; ++i) {
      const FacetValue& value = facet.values[i];
      html += "<li><a href=\"" +
              html_escape(page_link(narrowed(view.query, facet.field, value.value), view.sort, 0)) +
              "\">" + html_escape(value.value) + "</a> <span class=\"n\">" +
              std::to_string(value.count) + "</span></li>";
    }
    html += "</ul></section>";
  }
  return html.empty() ? html : "<aside class=\"facets\" aria-label=\"Narrow\">" + html + "</aside>";
}

std::string pages_html(const SearchPageView& view) {
  const SearchResult& result = *view.result;
  std::string html;
  if (view.offset > 0) {
    const std::size_t previous = view.offset > view.limit ? view.offset - view.limit : 0;
    html += "<a rel=\"prev\" href=\"" + html_escape(page_link(view.query, view.sort, previous)) +
            "\">← Previous</a>";
  }
  if (!result.hits.empty()) {
    html += "<span class=\"range\">" + std::to_string(result.hits.front().rank) + "–" +
            std::to_string(result.hits.back().rank) + " of " + total_text(result) + "</span>";
  }
  const std::size_t next = view.offset + view.limit;
  if (next < result.total && next <= kMaxOffset) {
    html += "<a rel=\"next\" href=\"" + html_escape(page_link(view.query, view.sort, next)) +
            "\">Next →</a>";
  }
  return html.empty() ? html : "<nav class=\"pages\" aria-label=\"Pages\">" + html + "</nav>";
}

std::string results_html(const SearchPageView& view) {
  const SearchResult& result = *view.result;
  std::string html;
  if (!result.suggestion.empty()) {
    html += "<p class=\"suggestion\">" +
            std::string(result.corrected ? "Showing results for " : "Did you mean ") +
            "<a href=\"" + html_escape(page_link(result.suggestion, view.sort, 0)) + "\">" +
            html_escape(result.suggestion) + "</a></p>";
  }
  for (const std::string& note : result.notes) {
    html += "<p class=\"note\">" + html_escape(note) + "</p>";
  }
  for (const std::string& warning : result.warnings) {
    html += "<p class=\"warning\">" + html_escape(warning) + "</p>";
  }
  html += "<p class=\"count\" id=\"count\">" + html_escape(count_text(result)) + "</p>";
  html += "<div class=\"results\"><ol class=\"hits\" start=\"" + std::to_string(view.offset + 1) +
          "\">";
  for (const Hit& hit : result.hits) html += hit_html(hit, view.query);
  html += "</ol>" + facets_html(view) + "</div>" + pages_html(view);
  return html;
}

}  // namespace

std::string render_search_page(const SearchPageView& view) {
  std::string main;
  if (!view.error.empty()) {
    main = "<p class=\"error\" role=\"alert\">" + html_escape(view.error) + "</p>";
  } else if (view.result) {
    main = results_html(view);
  }
  const std::string title = view.query.empty() ? "Quarry" : view.query + " — Quarry";
  return page(title, view.query, view.sort, std::move(main));
}

std::string render_article_page(const Article& article, const std::vector<Highlight>& title,
                                const std::vector<Highlight>& body, std::string_view query) {
  std::string main = "<article class=\"article\">";
  if (!query.empty()) {
    main += "<p class=\"back\"><a href=\"" +
            html_escape(page_link(query, SortOrder::kRelevance, 0)) + "\">← Results for " +
            html_escape(query) + "</a></p>";
  }
  main +=
      "<h1>" +
      (article.title.empty() ? html_escape(article.id) : highlighted_html(article.title, title)) +
      "</h1>";
  main += "<p class=\"meta\">" + meta_html(article.date, article.source, article.category) +
          "</p><p class=\"id\">" + html_escape(article.id) + "</p>";
  main += "<div class=\"body\">" + highlighted_html(article.body, body) + "</div></article>";
  const std::string page_title = (article.title.empty() ? article.id : article.title) + " — Quarry";
  return page(page_title, query, SortOrder::kRelevance, std::move(main));
}

std::string render_error_page(int status, std::string_view message) {
  const std::string main = "<p class=\"error\" role=\"alert\">" + html_escape(message) + "</p>";
  return page(std::to_string(status) + " — Quarry", "", SortOrder::kRelevance, main);
}

}  // namespace quarry
