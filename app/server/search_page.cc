#include "app/server/search_page.h"

#include <initializer_list>
#include <utility>

#include "app/common/http_query.h"
#include "app/common/search_option_values.h"
#include "app/server/page_markup.h"
#include "quarry/search/facet.h"
#include "quarry/text/language_identifier.h"
#include "quarry/text/utf8.h"

namespace quarry {
namespace detail {

// search_page.html, .css and the script (search_page*.js, one after
// another) as they were at build time (the build writes their definitions,
// app/server/CMakeLists.txt).
extern const std::string_view kSearchPageHtml;
extern const std::string_view kSearchPageCss;
extern const std::string_view kSearchPageJs;

}  // namespace detail

std::vector<FacetField> page_facets() {
  return {FacetField::kSource, FacetField::kCategory, FacetField::kLanguage, FacetField::kDate};
}

std::string_view search_page_stylesheet() { return detail::kSearchPageCss; }
std::string_view search_page_script() { return detail::kSearchPageJs; }

namespace {

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

// "Newest relevant" carries its half-life, which the script sends as the
// recency parameter.
std::string sort_options(PageOrder selected) {
  std::string html;
  for (const auto& [order, label] : kPageOrders) {
    html += "<option value=\"" + std::string(page_order_name(order)) + "\"";
    if (order.newest_relevant) html += " data-recency=\"" + std::string(kPageHalfLife) + "\"";
    if (order == selected) html += " selected";
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

// The language searched goes with the next query typed in the form; the
// page says which it is, and links to every language.
std::string language_input(std::string_view language) {
  if (language.empty()) return "";
  return "<input id=\"language\" name=\"language\" type=\"hidden\" value=\"" +
         html_escape(language) + "\">";
}

}  // namespace

std::string alerts_panel(std::uint64_t since) {
  return "<aside id=\"alerts\" class=\"alerts\" data-since=\"" + std::to_string(since) +
         "\" hidden><h2>Alerts</h2><ol></ol></aside>";
}

std::string render_page(std::string_view title, std::string_view query, PageOrder order,
                        Collapse collapse, std::string_view language, std::string main,
                        std::string alerts) {
  return fill(detail::kSearchPageHtml, {{"title", html_escape(title)},
                                        {"query", html_escape(query)},
                                        {"sort_options", sort_options(order)},
                                        {"collapse_options", collapse_options(collapse)},
                                        {"language_input", language_input(language)},
                                        {"main", std::move(main)},
                                        {"alerts", std::move(alerts)}});
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
  main +=
      "<p class=\"meta\">" +
      meta_html(article.date, article.source, article.category, language_label(article.language)) +
      "</p><p class=\"id\">" + html_escape(article.id) + "</p>";
  main += "<div class=\"body\">" + paragraphs_html(highlighted_html(article.body, body)) +
          "</div></article>";
  const std::string page_title = (article.title.empty() ? article.id : article.title) + " — Quarry";
  return render_page(page_title, query, {}, Collapse::kStory, "", std::move(main));
}

std::string render_error_page(int status, std::string_view message) {
  const std::string main = "<p class=\"error\" role=\"alert\">" + html_escape(message) + "</p>";
  return render_page(std::to_string(status) + " — Quarry", "", {}, Collapse::kStory, "", main);
}

}  // namespace quarry
