// `quarry serve`: the index over HTTP, for a search page and for programs.
#ifndef QUARRY_APP_SERVER_SERVER_H_
#define QUARRY_APP_SERVER_SERVER_H_

#include <ostream>
#include <string_view>

#include "app/common/serve_config.h"

namespace quarry {

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

#endif  // QUARRY_APP_SERVER_SERVER_H_
