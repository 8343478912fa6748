// What `quarry serve` answers: the JSON API and the search page, one request
// at a time, from one Searcher. The server's threads and sockets are
// elsewhere (app/server/server.h); this turns a method and a target into a status,
// headers and a body, so that it is tested without a network.
#ifndef QUARRY_APP_SERVER_REQUEST_HANDLER_H_
#define QUARRY_APP_SERVER_REQUEST_HANDLER_H_

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "app/common/http_query.h"
#include "app/server/http_response.h"
#include "app/server/response_cache.h"
#include "quarry/search/searcher.h"

namespace quarry {

// {"status": status, "error": message}, as the API writes its errors.
HttpResponse json_error_response(int status, std::string_view message);

// The routes, all GET (and HEAD, answered as GET: the server leaves out the
// body):
//   /api/search?q=…        the JSON object of `quarry --format json` (JsonPrinter),
//                          parameters as parse_search_request reads them
//   /api/articles/{id}     the stored article; with q=…, its highlights
//   /api/suggest?q=…&n=    completions of the query's last word
//   /api/stats             the index's figures
//   /healthz               200 when the index can be read, else 503
//   (/api/alerts, a stream, is the server's own: app/server/alert_streams.h)
//   /                      the search page; with q=… (or like=ID), its results
//                          as HTML: /api/search's parameters but n and facets,
//                          the page's orders in sort, collapse story or none,
//                          and from=…, the query a like search goes back to
//                          (page_request.h)
//   /articles/{id}?q=…     an article as HTML, its matches marked
//   /search.css, /search.js
// API errors are JSON {"status", "error"} (a query that cannot be parsed
// adds "query" and "column"): 400 for a bad parameter or query, 404 for an
// unknown article or path, 405 for another method, 503 when the index
// cannot be opened or read. Page errors are HTML pages with the same
// statuses.
//
// Not thread-safe, as Searcher is not: one handler per thread. The index is
// opened on first use and again after it failed, so that a server started
// before its index exists, or whose shard went away, recovers by itself.
//
// With a cache, answers of /api/search are kept there, by the index's
// revision and the parameters as decoded, in order of name.
class RequestHandler {
 public:
  // `cache`, when given, is shared with the other handlers. Searches keep
  // to `limits`, or to a shorter time when their request asks (time_limit);
  // a hung replica is waited for its share of limits.time_limit at most
  // (OpenOptions::time_limit).
  RequestHandler(std::vector<std::string> db_paths, OpenOptions open,
                 std::shared_ptr<ResponseCache> cache = nullptr, SearchLimits limits = {});

  // Opens the index unless it is open: the error's message when that
  // fails, else nothing.
  std::optional<std::string> open();

  HttpResponse handle(std::string_view method, std::string_view target);

 private:
  // The open searcher; throws HttpError(503) when the index cannot be opened.
  Searcher& searcher();
  HttpResponse route(std::string_view path, const HttpTarget& target);
  // What names the answer to `target` in the cache; "" when it is not to
  // be kept (no cache, remote shards).
  std::string cache_key(const HttpTarget& target);
  // `options` as the server's limits bound them: the time a search of
  // `target` may take is what it asks for, within the server's limit.
  void limit(const HttpTarget& target, SearchOptions* options) const;

  HttpResponse api_search(const HttpTarget& target);
  HttpResponse api_article(std::string_view encoded_id, const HttpTarget& target);
  HttpResponse api_suggest(const HttpTarget& target);
  HttpResponse api_stats(const HttpTarget& target);
  HttpResponse healthz(const HttpTarget& target);
  HttpResponse search_page(const HttpTarget& target);
  HttpResponse article_page(std::string_view encoded_id, const HttpTarget& target);

  std::vector<std::string> db_paths_;
  OpenOptions open_options_;
  std::optional<Searcher> searcher_;
  std::shared_ptr<ResponseCache> cache_;
  SearchLimits limits_;
};

}  // namespace quarry

#endif  // QUARRY_APP_SERVER_REQUEST_HANDLER_H_
