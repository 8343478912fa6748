// `quarry serve`: the index over HTTP, for a search page and for programs.
#ifndef QUARRY_APP_SERVER_H_
#define QUARRY_APP_SERVER_H_

#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>
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

// How serve() ended.
enum class ServeEnd {
  kClean,
  // Searches still running when the grace ran out were answered 503 and
  // left to finish on threads of their own, which hold nothing of the
  // caller's: the process is to end without destroying static objects
  // (std::quick_exit) rather than wait for them.
  kSearchesLeftRunning,
};

// Serves the routes of RequestHandler until SIGINT or SIGTERM, then stops
// within a second: it accepts no more connections, closes idle ones, and
// answers the requests it has received first, with 503 those still being
// searched when the grace runs out. A request addressed to a host not
// allowed (ServerConfig::allowed_hosts) is answered 421, one without a
// token when they are asked for (ServerConfig::token_file) 401. Once listening, writes
// "listening on http://HOST:PORT" on `out`. `log` gets a line per request
// and warnings (an address other than loopback, an index that cannot be
// opened yet: its requests are answered 503 until it can), each prefixed
// with `program`.
//
// One thread reads and writes every connection, so that clients that
// connect and send nothing cost a socket, not a thread; idle connections
// are closed after 10 seconds. Searches run on the workers; /healthz on a
// thread of its own, so that it answers while searches keep them busy.
//
// With a token file, every request must carry one of its tokens
// (access_refusal says how, and what the others are answered).
//
// Throws ConfigError, before any socket is made, for a `listen` that is not
// HOST:PORT with an IP address, for a token file that cannot be read or
// holds no token or a bad one, and for an address other than loopback
// (127.0.0.0/8, ::1) with neither a token file nor open_to_all; Error when
// the address cannot be listened on.
ServeEnd serve(const ServerConfig& config, std::ostream& out, std::ostream& log,
               std::string_view program);

}  // namespace quarry

#endif  // QUARRY_APP_SERVER_H_
