// quarry serve's /api/alerts: the index's alerts as Server-Sent Events,
// each stream a connection of the I/O thread's own, which holds no worker:
// a search is answered however many streams are open.
#ifndef QUARRY_APP_SERVER_ALERT_STREAMS_H_
#define QUARRY_APP_SERVER_ALERT_STREAMS_H_

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "app/common/alert_log_watch.h"
#include "app/common/http_query.h"
#include "app/server/http_exchange.h"
#include "app/server/http_response.h"

namespace quarry {

class AlertStream;

// The cursor a stream request resumes after: its Last-Event-ID header (what
// a browser's EventSource sends when it connects again) when it has one,
// else its parameter since, else 0. Throws HttpError(400) for another
// parameter, or a value that is not a whole number.
std::uint64_t alert_stream_cursor(const HttpTarget& target, std::string_view last_event_id);

// Every stream of a server, and the one watch (inotify, AlertLogWatch, on
// the I/O loop) that wakes them when the log grows: a change is seen at once,
// and an idle server does nothing, where looking at the file's size a few
// times a second would cost every stream a wake-up for nothing. Runs on the
// I/O thread only.
class AlertStreams {
 public:
  // The alerts of the index at `db_paths` (one folder; several paths have
  // no alerts), at most `most` streams at once.
  AlertStreams(boost::asio::io_context& io, std::vector<std::string> db_paths, std::size_t most);
  ~AlertStreams();

  // Takes the connection `stream`, whose request `parser` read, as a
  // stream of alerts, and returns nothing; or leaves it and returns the
  // answer that refuses it: 400 for a bad cursor, 404 when the server has
  // no one index folder, 503 when `most` streams are open, the server is
  // stopping or the index folder cannot be watched.
  std::optional<HttpResponse> open(boost::beast::tcp_stream& stream,
                                   const HttpRequestParser& parser);

  // Ends the watch, and every stream once it has written what it has and
  // the comment ": the server is stopping": the server is stopping.
  void stop();

  // For AlertStream.
  void remove(const AlertStream* stream);
  const std::string& index_path() const { return index_path_; }

 private:
  void watch();
  // Looks for the index folder at its path again, now and then, while it is
  // gone.
  void rewatch_later();
  void pump_all();

  boost::asio::io_context& io_;
  std::string index_path_;  // empty: no one folder
  std::size_t most_;
  bool stopping_ = false;
  std::optional<AlertLogWatch> watch_;
  std::optional<boost::asio::posix::stream_descriptor> watch_wait_;
  std::optional<boost::asio::steady_timer> rewatch_;
  std::set<std::shared_ptr<AlertStream>> streams_;
};

}  // namespace quarry

#endif  // QUARRY_APP_SERVER_ALERT_STREAMS_H_
