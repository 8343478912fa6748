#include "app/server/server.h"

#include <boost/asio/ip/tcp.hpp>
#include <memory>
#include <optional>

#include "app/server/access_tokens.h"
#include "app/server/http_server.h"
#include "app/server/listen_address.h"
#include "app/server/request_handler.h"
#include "app/server/response_cache.h"
#include "quarry/error.h"
#include "quarry/thread_count.h"

namespace quarry {

ServeEnd serve(const ServerConfig& config, std::ostream& out, std::ostream& log,
               std::string_view program) {
  const boost::asio::ip::tcp::endpoint endpoint = parse_listen(config.listen);
  const boost::asio::ip::address address = endpoint.address();
  std::optional<AccessTokens> tokens;
  if (!config.token_file.empty()) {
    tokens = AccessTokens::read_file(config.token_file);
  } else if (!address.is_loopback() && !config.open_to_all) {
    throw ConfigError("--listen " + config.listen +
                      " is not loopback: give --token-file FILE to ask every request for a "
                      "token, or --public to let anyone who can reach it read the index");
  }
  // Shared by the workers, so that an answer one of them found serves all.
  std::shared_ptr<ResponseCache> cache;
  if (config.cache_bytes > 0) cache = std::make_shared<ResponseCache>(config.cache_bytes);
  std::vector<RequestHandler> handlers;
  for (std::size_t i = 0; i < thread_count(config.threads); ++i) {
    handlers.emplace_back(config.db_paths, config.open, cache, config.limits);
  }
  // Opened now, so that the first requests are not slower, and so that a
  // wrong path is said at once rather than in every answer.
  for (RequestHandler& handler : handlers) {
    if (std::optional<std::string> problem = handler.open()) {
      log << program << ": warning: " << *problem << "; answering 503 until it can be opened"
          << std::endl;
      break;
    }
  }
  const bool guarded = tokens.has_value();
  HttpServer server(config, std::move(tokens), log, program);
  const unsigned short port = server.listen(endpoint);
  if (!address.is_loopback()) {
    log << program << ": warning: serving on " << address.to_string()
        << (guarded ? ": tokens and articles cross the network unencrypted (no TLS)"
                    : ": anyone who can reach this port can read the whole index (--public)")
        << std::endl;
  }
  out << "listening on http://" << url_host(address) << ':' << port << std::endl;
  return server.run(std::move(handlers), RequestHandler(config.db_paths, config.open));
}

}  // namespace quarry
