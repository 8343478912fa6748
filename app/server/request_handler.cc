#include "app/server/request_handler.h"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <sstream>

#include "app/common/json_documents.h"
#include "app/common/json_printer.h"
#include "app/common/search_option_table.h"
#include "app/server/page_request.h"
#include "app/server/search_page.h"
#include "app/server/search_page_printer.h"
#include "quarry/error.h"
#include "quarry/search/alert_log.h"
#include "quarry/search/snippet.h"

namespace quarry {
namespace {

constexpr std::string_view kJson = "application/json";
constexpr std::string_view kHtml = "text/html; charset=utf-8";

// Scripts and styles from this server only, and none inline: an article
// that smuggled markup past the escaping could still run nothing.
constexpr std::string_view kContentSecurityPolicy =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

HttpResponse json_response(int status, std::string json) {
  return {status, std::string(kJson), std::move(json), {{"Cache-Control", "no-store"}}};
}

HttpResponse html_response(int status, std::string html) {
  return {status,
          std::string(kHtml),
          std::move(html),
          {{"Cache-Control", "no-store"},
           {"Content-Security-Policy", std::string(kContentSecurityPolicy)}}};
}

}  // namespace

HttpResponse json_error_response(int status, std::string_view message) {
  return json_response(status, http_error_json(status, message));
}

namespace {

HttpResponse query_error(const QueryError& error) {
  return json_response(400,
                       http_query_error_json(400, error.what(), error.query(), error.column()));
}

bool is_api(std::string_view path) { return path.starts_with("/api/") || path == "/healthz"; }

// JSON for the API, a page for a person.
HttpResponse error_response(std::string_view path, int status, std::string_view message) {
  if (is_api(path)) return json_error_response(status, message);
  return html_response(status, render_error_page(status, message));
}

// Throws HttpError(400) when the target has parameters.
void expect_no_parameters(const HttpTarget& target) { Parameters(target.parameters, {}); }

// Ids may hold '/', so an id is the rest of the path, decoded.
std::string article_id(std::string_view encoded) {
  std::string id = percent_decode(encoded, "the article id", false);
  if (id.empty()) throw HttpError(404, "no article id given");
  return id;
}

// The completions of a query's last word, the word as typed replaced: what
// the search box offers. A word written after a field, a sign, a quote or
// a parenthesis keeps them.
std::string suggestions(Searcher& searcher, std::string_view query, std::size_t limit) {
  const std::size_t space = query.find_last_of(" \t");
  const std::size_t word_start = space == std::string_view::npos ? 0 : space + 1;
  std::string_view word = query.substr(word_start);
  std::size_t prefix_length = word.find_last_of(":(\"+-");
  prefix_length = prefix_length == std::string_view::npos ? 0 : prefix_length + 1;
  word.remove_prefix(prefix_length);
  std::vector<std::string> words, completions;
  if (!word.empty()) {
    const std::string kept(query.substr(0, word_start + prefix_length));
    words = searcher.complete(word, limit);
    for (const std::string& found : words) completions.push_back(kept + found);
  }
  return suggestions_json(query, words, completions);
}

}  // namespace

RequestHandler::RequestHandler(std::vector<std::string> db_paths, OpenOptions open,
                               std::shared_ptr<ResponseCache> cache, SearchLimits limits)
    : db_paths_(std::move(db_paths)),
      open_options_(open),
      cache_(std::move(cache)),
      limits_(limits) {
  open_options_.time_limit = limits_.time_limit;
}

std::optional<std::string> RequestHandler::open() {
  try {
    searcher();
  } catch (const HttpError& error) {
    return std::string(error.what());
  }
  return std::nullopt;
}

Searcher& RequestHandler::searcher() {
  if (!searcher_) {
    try {
      searcher_.emplace(db_paths_, open_options_);
    } catch (const IndexNotFoundError& error) {
      throw HttpError(503, error.what());
    } catch (const IndexError& error) {
      throw HttpError(503, error.what());
    }
  }
  return *searcher_;
}

HttpResponse RequestHandler::handle(std::string_view method, std::string_view target) {
  const std::string_view path = target.substr(0, target.find('?'));
  try {
    if (method != "GET" && method != "HEAD") throw HttpError(405, "only GET and HEAD are served");
    return route(path, parse_target(target));
  } catch (const HttpError& error) {
    HttpResponse response = error_response(path, error.status(), error.what());
    if (error.status() == 405) response.headers.emplace_back("Allow", "GET, HEAD");
    return response;
  } catch (const QueryError& error) {
    return is_api(path) ? query_error(error) : error_response(path, 400, error.what());
  } catch (const ConfigError& error) {
    return error_response(path, 400, error.what());
  } catch (const IndexNotFoundError& error) {
    searcher_.reset();
    return error_response(path, 503, error.what());
  } catch (const IndexError& error) {
    // Opened afresh at the next request: the index or the shard may be back.
    searcher_.reset();
    return error_response(path, 503, error.what());
  } catch (const std::exception& error) {
    // Whatever else went wrong is this request's alone: the server goes on.
    return error_response(path, 500, std::string("internal error: ") + error.what());
  }
}

HttpResponse RequestHandler::route(std::string_view path, const HttpTarget& target) {
  constexpr std::string_view kApiArticles = "/api/articles/";
  constexpr std::string_view kArticles = "/articles/";
  if (path == "/api/search") return api_search(target);
  if (path.starts_with(kApiArticles)) return api_article(path.substr(kApiArticles.size()), target);
  if (path == "/api/suggest") return api_suggest(target);
  if (path == "/api/stats") return api_stats(target);
  if (path == "/healthz") return healthz(target);
  if (path == "/") return search_page(target);
  if (path.starts_with(kArticles)) return article_page(path.substr(kArticles.size()), target);
  if (path == "/search.css" || path == "/search.js") {
    const bool css = path == "/search.css";
    return {200,
            css ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8",
            std::string(css ? search_page_stylesheet() : search_page_script()),
            {{"Cache-Control", "no-cache"}}};
  }
  throw HttpError(404, "no such page");
}

std::string RequestHandler::cache_key(const HttpTarget& target) {
  if (!cache_) return "";
  std::string key = searcher().revision();
  if (key.empty()) return "";
  std::vector<std::pair<std::string, std::string>> parameters = target.parameters;
  std::sort(parameters.begin(), parameters.end());
  key += '\n' + target.path;
  // Each value's length first: a value may hold any character.
  for (const auto& [name, value] : parameters) {
    key += '\n' + name + '=' + std::to_string(value.size()) + ':' + value;
  }
  return key;
}

void RequestHandler::limit(const HttpTarget& target, SearchOptions* options) const {
  options->parser.max_query_terms = limits_.max_query_terms;
  const SearchOption& option = *option_named("time-limit", kSearchCommand);
  const bool asked = std::any_of(target.parameters.begin(), target.parameters.end(),
                                 [&](const auto& p) { return p.first == option.http; });
  const double most = limits_.time_limit;
  double& seconds = options->time_limit;
  if (!asked || (most > 0 && (seconds == 0 || seconds > most))) seconds = most;
}

HttpResponse RequestHandler::api_search(const HttpTarget& target) {
  SearchRequest request = parse_search_request(target);
  limit(target, &request.options);
  const std::string key = cache_key(target);
  if (!key.empty()) {
    if (std::optional<HttpResponse> kept = cache_->find(key)) return std::move(*kept);
  }
  const SearchResult result = searcher().search(request.query, request.options);
  // Written as `quarry --format json` writes it, by the same printer.
  std::ostringstream out;
  JsonPrinter printer(out);
  printer.begin_run();
  printer.answer(result, {});
  printer.end_run();
  HttpResponse response = json_response(200, std::move(out).str());
  // An answer cut short by the time limit is this moment's, not the index's.
  if (!key.empty() && !result.timed_out) cache_->add(key, response);
  return response;
}

namespace {

ArticleMarks mark(Searcher& searcher, const Article& article, std::string_view query,
                  const SearchLimits& limits) {
  ArticleMarks marks;
  if (query.empty()) return marks;
  SearchOptions options;
  options.time_limit = limits.time_limit;
  options.parser.max_query_terms = limits.max_query_terms;
  options.limit = 0;
  options.snippets.enabled = false;
  options.count_limit = 1;
  const HighlightTerms terms = searcher.search(query, options).highlight;
  marks.title = highlight_all(searcher.analyzer(article), article.title, terms).highlights;
  marks.body = highlight_all(searcher.analyzer(article), article.body, terms).highlights;
  return marks;
}

std::string article_query(const HttpTarget& target) {
  const Parameters parameters(target.parameters, {"q"});
  const std::string_view query = parameters.get("q").value_or("");
  if (query.size() > kMaxQueryBytes) {
    throw HttpError(400, "parameter q is longer than " + std::to_string(kMaxQueryBytes) + " bytes");
  }
  return std::string(query);
}

}  // namespace

HttpResponse RequestHandler::api_article(std::string_view encoded_id, const HttpTarget& target) {
  const std::string id = article_id(encoded_id);
  const std::string query = article_query(target);
  std::optional<Article> article = searcher().fetch(id);
  if (!article) throw HttpError(404, "no article has the id " + id);
  std::optional<ArticleMarks> marks;
  if (!query.empty()) marks = mark(searcher(), *article, query, limits_);
  return json_response(200, article_json(*article, marks));
}

HttpResponse RequestHandler::api_suggest(const HttpTarget& target) {
  const Parameters parameters(target.parameters, {"q", "n"});
  const std::optional<std::string_view> query = parameters.get("q");
  if (!query) throw HttpError(400, "parameter q (the query) is missing");
  if (query->size() > kMaxQueryBytes) {
    throw HttpError(400, "parameter q is longer than " + std::to_string(kMaxQueryBytes) + " bytes");
  }
  const std::size_t limit = parameters.number("n", 10, 0, kMaxSuggestions);
  return json_response(200, suggestions(searcher(), *query, limit));
}

HttpResponse RequestHandler::api_stats(const HttpTarget& target) {
  expect_no_parameters(target);
  return json_response(200, stats_json(searcher().stats()));
}

HttpResponse RequestHandler::healthz(const HttpTarget& target) {
  expect_no_parameters(target);
  return json_response(200, health_json(searcher().article_count()));
}

namespace {

// The titles of the hits' other reports, for the page to list them by.
std::map<std::string, ReportSummary> report_summaries(Searcher& searcher,
                                                      const SearchResult& result) {
  std::map<std::string, ReportSummary> reports;
  for (const Hit& hit : result.hits) {
    for (const std::string& id : hit.more) {
      if (reports.count(id)) continue;
      if (std::optional<Article> article = searcher.fetch(id)) {
        reports[id] = {std::move(article->title), std::move(article->date),
                       std::move(article->source)};
      }
    }
  }
  return reports;
}

// The search page of `view`, with what `print` tells its printer.
std::string page_html(const SearchPageView& view,
                      const std::function<void(AnswerPrinter&)>& print) {
  std::ostringstream page;
  SearchPagePrinter printer(page, view);
  printer.begin_run();
  print(printer);
  printer.end_run();
  return std::move(page).str();
}

// The cursor of the last alert of the one index folder served, for the
// page to follow those after it; nothing when the server serves several
// paths or a stub file, or the log cannot be read.
std::optional<std::uint64_t> last_alert_cursor(const std::vector<std::string>& db_paths) {
  std::error_code ignored;
  if (db_paths.size() != 1 || !std::filesystem::is_directory(db_paths.front(), ignored)) {
    return std::nullopt;
  }
  try {
    return AlertLog(db_paths.front()).last_cursor();
  } catch (const IndexError&) {
    return std::nullopt;
  }
}

}  // namespace

HttpResponse RequestHandler::search_page(const HttpTarget& target) {
  std::optional<PageRequest> page = parse_page_request(target);
  SearchPageView view;
  view.limit = kPageHits;
  view.alerts_since = last_alert_cursor(db_paths_);
  if (!page) return html_response(200, page_html(view, [](AnswerPrinter&) {}));
  SearchRequest& request = page->search;
  limit(target, &request.options);
  view.query = request.query;
  view.sort = request.options.sort;
  view.newest_relevant = page->order.newest_relevant;
  view.offset = request.options.offset;
  view.collapse = request.options.collapse.by;
  view.language = request.options.parser.language;
  view.correct = request.options.spelling.correct;
  view.like = request.options.like.id;
  view.from = std::move(page->from);
  try {
    const SearchResult result = searcher().search(request.query, request.options);
    view.reports = report_summaries(searcher(), result);
    if (!view.like.empty()) {
      if (std::optional<Article> like = searcher().fetch(view.like)) view.like_title = like->title;
    }
    return html_response(200,
                         page_html(view, [&](AnswerPrinter& page) { page.answer(result, {}); }));
  } catch (const UnknownArticleError& error) {
    return html_response(404, page_html(view, [&](AnswerPrinter& page) {
                           page.query_error(request.query, error.what(), {});
                         }));
  } catch (const QueryError& error) {
    return html_response(400, page_html(view, [&](AnswerPrinter& page) {
                           page.query_error(request.query, error.what(), {});
                         }));
  }
}

HttpResponse RequestHandler::article_page(std::string_view encoded_id, const HttpTarget& target) {
  const std::string id = article_id(encoded_id);
  const std::string query = article_query(target);
  std::optional<Article> article = searcher().fetch(id);
  if (!article) throw HttpError(404, "no article has the id " + id);
  const ArticleMarks marks = mark(searcher(), *article, query, limits_);
  return html_response(200, render_article_page(*article, marks.title, marks.body, query));
}

}  // namespace quarry
