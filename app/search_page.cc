#include "app/search_page.h"

#include <algorithm>
#include <initializer_list>
#include <utility>

#include "app/http_query.h"
#include "app/output.h"
#include "app/search_option_values.h"
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

// What a link to the page asks for.
struct PageLink {
  std::string_view query = {};
  SortOrder sort = SortOrder::kRelevance;
  std::size_t offset = 0;
  Collapse collapse = Collapse::kStory;
  std::string_view like = {};  // an article id: the articles like it
  std::string_view from = {};  // with like: the query the page goes back to
};

// The link with the defaults left out; q is left out only of a like
// search that it does not narrow.
std::string page_link(const PageLink& link) {
  std::string url = "/?";
  if (!link.query.empty() || link.like.empty()) url += "q=" + url_encode(link.query) + "&";
  if (!link.like.empty()) url += "like=" + url_encode(link.like) + "&";
  if (link.sort != SortOrder::kRelevance) url += "sort=" + std::string(sort_name(link.sort)) + "&";
  if (link.offset > 0) url += "offset=" + std::to_string(link.offset) + "&";
  if (link.collapse != Collapse::kStory) {
    url += "collapse=" + std::string(collapse_name(link.collapse)) + "&";
  }
  if (!link.like.empty() && !link.from.empty()) url += "from=" + url_encode(link.from) + "&";
  url.pop_back();
  return url;
}

// The view's own search, with its results from `offset`.
PageLink view_link(const SearchPageView& view, std::size_t offset) {
  return {view.query, view.sort, offset, view.collapse, view.like, view.from};
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

std::string collapse_options(Collapse collapse) {
  static constexpr std::pair<Collapse, std::string_view> kChoices[] = {
      {Collapse::kStory, "One per story"}, {Collapse::kNone, "All reports"}};
  std::string html;
  for (const auto& [choice, label] : kChoices) {
    html += "<option value=\"" + std::string(collapse_name(choice)) + "\"";
    if (choice == collapse) html += " selected";
    html += ">" + std::string(label) + "</option>";
  }
  return html;
}

std::string page(std::string_view title, std::string_view query, SortOrder sort, Collapse collapse,
                 std::string main) {
  return fill(detail::kSearchPageHtml, {{"title", html_escape(title)},
                                        {"query", html_escape(query)},
                                        {"sort_options", sort_options(sort)},
                                        {"collapse_options", collapse_options(collapse)},
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
      const std::string meta = meta_html(found->second.date, found->second.source, "");
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
  html += "</a></h2><p class=\"meta\">" + meta_html(hit.date, hit.source, hit.category) + "</p>";
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
              html_escape(page_link({narrowed(view.query, facet.field, value.value), view.sort, 0,
                                     view.collapse, view.like, view.from})) +
              "\">" + html_escape(value.value) + "</a> <span class=\"n\">" +
              std::to_string(value.count) + "</span></li>";
    }
    html += "</ul></section>";
  }
  return html.empty() ? html : "<aside class=\"facets\" aria-label=\"Narrow\">" + html + "</aside>";
}

// The pages go through the hits shown: the stories when one hit stands for
// each, else the articles.
std::string shown_text(const SearchResult& result) {
  return result.stories < result.total ? stories_text(result) : total_text(result);
}

std::string pages_html(const SearchPageView& view) {
  const SearchResult& result = *view.result;
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
  // Shown one hit a story, articles like one are other stories: say so,
  // for a reader who looks for the reports of its own.
  if (view.collapse == Collapse::kStory) {
    const PageLink every{view.query, view.sort, 0, Collapse::kNone, view.like, view.from};
    html += "<p class=\"note\">Its own story is left out: <a href=\"" +
            html_escape(page_link(every)) + "\">show all reports</a></p>";
  }
  if (!view.from.empty()) {
    const PageLink back{view.from, SortOrder::kRelevance, 0, view.collapse, "", ""};
    html += "<p class=\"back\"><a href=\"" + html_escape(page_link(back)) + "\">← Results for " +
            html_escape(view.from) + "</a></p>";
  }
  return html;
}

std::string results_html(const SearchPageView& view) {
  const SearchResult& result = *view.result;
  std::string html = view.like.empty() ? "" : like_html(view);
  if (!result.suggestion.empty()) {
    html += "<p class=\"suggestion\">" +
            std::string(result.corrected ? "Showing results for " : "Did you mean ") +
            "<a href=\"" +
            html_escape(page_link({result.suggestion, view.sort, 0, view.collapse, "", ""})) +
            "\">" + html_escape(result.suggestion) + "</a></p>";
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
  for (const Hit& hit : result.hits) html += hit_html(hit, view);
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
  std::string title = view.query.empty() ? "Quarry" : view.query + " — Quarry";
  if (!view.like.empty()) {
    title = "Articles like " + (view.like_title.empty() ? view.like : view.like_title) +
            (view.query.empty() ? "" : ": " + view.query) + " — Quarry";
  }
  return page(title, view.query, view.sort, view.collapse, std::move(main));
}

std::string render_article_page(const Article& article, const std::vector<Highlight>& title,
                                const std::vector<Highlight>& body, std::string_view query) {
  std::string main = "<article class=\"article\">";
  if (!query.empty()) {
    main += "<p class=\"back\"><a href=\"" + html_escape(page_link({query})) + "\">← Results for " +
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
  return page(page_title, query, SortOrder::kRelevance, Collapse::kStory, std::move(main));
}

std::string render_error_page(int status, std::string_view message) {
  const std::string main = "<p class=\"error\" role=\"alert\">" + html_escape(message) + "</p>";
  return page(std::to_string(status) + " — Quarry", "", SortOrder::kRelevance, Collapse::kStory,
              main);
}

}  // namespace quarry
