#include "app/server/listen_address.h"

#include <cctype>
#include <charconv>

#include "quarry/error.h"

namespace quarry {

namespace asio = boost::asio;

boost::asio::ip::tcp::endpoint parse_listen(std::string_view listen) {
  const std::size_t colon = listen.rfind(':');
  if (colon == std::string_view::npos) {
    throw ConfigError("--listen: expected HOST:PORT, got " + std::string(listen));
  }
  std::string_view host = listen.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  const std::string_view port = listen.substr(colon + 1);
  unsigned number = 0;
  const auto [end, failed] = std::from_chars(port.data(), port.data() + port.size(), number);
  if (port.empty() || failed != std::errc() || end != port.data() + port.size() || number > 65535) {
    throw ConfigError("--listen: the port must be a number from 0 to 65535");
  }
  if (host == "localhost")
    return {asio::ip::address_v4::loopback(), static_cast<unsigned short>(number)};
  boost::system::error_code error;
  const asio::ip::address address = asio::ip::make_address(std::string(host), error);
  if (error) throw ConfigError("--listen: " + std::string(host) + " is not an IP address");
  return {address, static_cast<unsigned short>(number)};
}

bool host_allowed(std::string_view host, const std::vector<std::string>& allowed) {
  if (host.empty()) return true;
  std::string name;
  if (host.front() == '[') {
    const std::size_t end = host.find(']');
    if (end == std::string_view::npos) return false;
    boost::system::error_code error;
    asio::ip::make_address_v6(std::string(host.substr(1, end - 1)), error);
    if (!error) return true;
    name = host.substr(0, end + 1);
  } else {
    const std::size_t colon = host.rfind(':');
    name = host.substr(0, colon);
    boost::system::error_code error;
    asio::ip::make_address_v4(name, error);
    if (!error) return true;
  }
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (name.ends_with('.')) name.pop_back();
  if (name == "localhost") return true;
  for (const std::string& allowed_name : allowed) {
    std::string folded = allowed_name;
    for (char& c : folded) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (folded == "*" || folded == name) return true;
  }
  return false;
}

std::string url_host(const asio::ip::address& address) {
  return address.is_v6() ? "[" + address.to_string() + "]" : address.to_string();
}

}  // namespace quarry
