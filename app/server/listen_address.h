// Where `quarry serve` listens: --listen's HOST:PORT, and the address as a
// URL names it.
#ifndef QUARRY_APP_SERVER_LISTEN_ADDRESS_H_
#define QUARRY_APP_SERVER_LISTEN_ADDRESS_H_

#include <boost/asio/ip/tcp.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace quarry {

// "HOST:PORT": an IP address (v6 in brackets, "[::1]:8080") or localhost,
// and a port from 0 to 65535. Throws ConfigError naming --listen otherwise.
boost::asio::ip::tcp::endpoint parse_listen(std::string_view listen);

// The host of a URL: the address, in brackets when it is IPv6.
std::string url_host(const boost::asio::ip::address& address);

// Whether a request's Host header (NAME or NAME:PORT) names this server:
// empty (no header), localhost, an IP address, or one of `allowed`, case
// aside ("*" allows any).
bool host_allowed(std::string_view host, const std::vector<std::string>& allowed);

}  // namespace quarry

#endif  // QUARRY_APP_SERVER_LISTEN_ADDRESS_H_
