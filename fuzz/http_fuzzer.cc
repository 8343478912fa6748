// Any bytes as what one client sends down a connection to `quarry serve`:
// read as the server reads them (Beast's parser, the server's bounds, one
// request after another while the connection is kept alive) and answered
// by the server's own RequestHandler over a small index built at start,
// never through a socket. Every request is answered with a status the
// server documents, never 500 (an exception no route expected); the answer
// is written as a message that reads back whole, its status, headers and
// body unchanged; every body is valid UTF-8, and every JSON body parses.
#include <boost/asio/buffer.hpp>
#include <boost/asio/error.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/system/system_error.hpp>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "app/server/http_exchange.h"
#include "app/server/request_handler.h"
#include "app/server/response_cache.h"
#include "fuzz/fuzz_index.h"
#include "lib/text/utf8_repair.h"

namespace {

namespace asio = boost::asio;
namespace http = boost::beast::http;

// The bytes the client sent, then the end of the stream: a SyncReadStream
// for Beast's read, which is what the server's asynchronous read does with
// what arrives.
class SentBytes {
 public:
  explicit SentBytes(std::string_view bytes) : bytes_(bytes) {}

  template <class MutableBuffers>
  std::size_t read_some(const MutableBuffers& buffers, boost::system::error_code& error) {
    error = {};
    if (bytes_.empty()) {
      error = asio::error::eof;
      return 0;
    }
    const std::size_t copied = asio::buffer_copy(buffers, asio::buffer(bytes_));
    bytes_.remove_prefix(copied);
    return copied;
  }

  template <class MutableBuffers>
  std::size_t read_some(const MutableBuffers& buffers) {
    boost::system::error_code error;
    const std::size_t copied = read_some(buffers, error);
    if (error) throw boost::system::system_error(error);
    return copied;
  }

 private:
  std::string_view bytes_;
};

bool documented(int status) {
  for (const int known : {200, 400, 404, 405, 413, 414, 421, 431}) {
    if (status == known) return true;
  }
  return false;
}

// The answer as the server writes it, read back as a client reads it.
void check(const quarry::HttpResponse& answer, const quarry::HttpResponseMessage& message,
           bool head) {
  if (!documented(answer.status)) std::abort();
  if (quarry::detail::count_invalid_utf8(answer.body) != 0) std::abort();
  if (answer.content_type == "application/json" && !nlohmann::json::accept(answer.body)) {
    std::abort();
  }
  std::ostringstream written;
  written << message;
  const std::string bytes = std::move(written).str();
  http::response_parser<http::string_body> reader;
  reader.skip(head);
  boost::system::error_code error;
  reader.eager(true);
  const std::size_t used = reader.put(asio::buffer(bytes), error);
  if (error || used != bytes.size() || !reader.is_done()) std::abort();
  const auto& read = reader.get();
  if (read.result_int() != static_cast<unsigned>(answer.status)) std::abort();
  if (read[http::field::content_type] != answer.content_type) std::abort();
  if (!head && read.body() != answer.body) std::abort();
  // A header value that smuggled a line break would make more fields.
  if (std::distance(read.begin(), read.end()) != std::distance(message.begin(), message.end())) {
    std::abort();
  }
}

// Enough for a few requests kept alive, pipelined, then one that breaks
// the connection; more only repeat them.
constexpr int kMaxRequests = 8;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // Destroyed in reverse: the handler closes the index before its folder goes.
  static const quarry::fuzz::TempFolder folder;
  static const std::string db_path = quarry::fuzz::small_index(folder);
  // Small, so that answers are dropped from it as well as found there.
  static quarry::RequestHandler handler({db_path}, {},
                                        std::make_shared<quarry::ResponseCache>(64 * 1024));
  static const std::vector<std::string> allowed_hosts = {"quarry.example"};

  SentBytes client(std::string_view(reinterpret_cast<const char*>(data), size));
  boost::beast::flat_buffer buffer;
  std::optional<quarry::HttpRequestParser> parser;
  for (int i = 0; i < kMaxRequests; ++i) {
    quarry::start_request(parser);
    boost::system::error_code error;
    http::read(client, buffer, *parser, error);
    std::optional<quarry::HttpResponse> answer = quarry::read_refusal(error, *parser);
    if (!answer && error) break;  // the client left
    if (!answer) answer = quarry::host_refusal(*parser, allowed_hosts);
    if (!answer) {
      const auto& request = parser->get();
      const auto method = request.method_string();
      const auto target = request.target();
      answer = handler.handle(std::string_view(method.data(), method.size()),
                              std::string_view(target.data(), target.size()));
    }
    const bool head = !error && parser->get().method() == http::verb::head;
    const quarry::HttpResponseMessage message = quarry::response_message(*answer, *parser, true);
    check(*answer, message, head);
    if (!message.keep_alive()) break;
  }
  return 0;
}
