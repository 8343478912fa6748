// What `quarry serve` is asked to do: the index, the address, the limits it
// holds every request to. Plain settings, filled by the option table and read
// by the server, so that the table needs nothing of HTTP.
#ifndef QUARRY_APP_COMMON_SERVE_CONFIG_H_
#define QUARRY_APP_COMMON_SERVE_CONFIG_H_

#include <cstddef>
#include <string>
#include <vector>

#include "quarry/search/open_options.h"
#include "quarry/search/query_language.h"

namespace quarry {

// What the server holds every search to, whatever its request asks.
struct SearchLimits {
  // Seconds a search may take (SearchOptions::time_limit; 0: no limit); a
  // request may ask for less. A few seconds: a search that takes more holds
  // a worker from the others, and its client has mostly given up.
  double time_limit = 5;
  // Words a query's wildcards and synonyms may stand for in all
  // (QueryParserConfig::max_query_terms).
  unsigned max_query_terms = QueryParserConfig{}.max_query_terms;
};

struct ServerConfig {
  // The index, or its shards (see Searcher).
  std::vector<std::string> db_paths;
  OpenOptions open;
  // "HOST:PORT": an IP address (v6 in brackets, "[::1]:8080") or
  // localhost; port 0 picks a free one.
  std::string listen = "127.0.0.1:8080";
  // Workers answering requests, each with its own Searcher; 0: the cores.
  std::size_t threads = 0;
  // Bytes of answers to /api/search kept for requests asked again while the
  // index does not change (ResponseCache); 0: none kept.
  std::size_t cache_bytes = std::size_t{64} << 20;
  SearchLimits limits;
  // Streams of /api/alerts open at once; more are answered 503. Each costs
  // a socket and a little memory, no thread.
  std::size_t alert_streams = 64;
  // One line per request on `log`: method, path, status, milliseconds.
  bool log_requests = true;
  // Host names a request may be addressed to besides localhost and IP
  // addresses ("*": any), so that a page of another site whose name is
  // made to resolve to this server (DNS rebinding) cannot read it.
  std::vector<std::string> allowed_hosts;
  // A file of bearer tokens (AccessTokens::read_file), one of which every
  // request must carry; empty: none asked for.
  std::string token_file;
  // Whether an address other than loopback may be listened on without
  // token_file: the index is meant to be open to whoever reaches it.
  bool open_to_all = false;
};

}  // namespace quarry

#endif  // QUARRY_APP_COMMON_SERVE_CONFIG_H_
