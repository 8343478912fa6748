#include "app/server/alert_streams.h"

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/write.hpp>
#include <chrono>
#include <filesystem>
#include <sstream>

#include "app/common/alert_printer.h"
#include "app/server/request_handler.h"
#include "quarry/error.h"
#include "quarry/search/alert_log.h"

namespace quarry {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

namespace {

// A comment this often keeps proxies and clients from taking a quiet
// stream for a dead one, and finds clients that left.
constexpr std::chrono::seconds kHeartbeat{15};
// A client that reads nothing for this long while an event waits is dropped.
constexpr std::chrono::seconds kWriteTimeout{10};
// How often the index folder is looked for while it is gone.
constexpr std::chrono::seconds kRewatch{1};
// What EventSource waits before connecting again.
constexpr unsigned kRetryMilliseconds = 2000;
// Alerts read from the log at a time: the next are read once these are
// written, so that a client far behind holds little memory.
constexpr std::size_t kBatch = 200;

std::uint64_t cursor_of(std::string_view text, std::string_view what) {
  if (text.empty() || text.size() > 19 || text.find_first_not_of("0123456789") != text.npos) {
    throw HttpError(400, std::string(what) + " is not a cursor (a whole number)");
  }
  return std::stoull(std::string(text));
}

// The answer's header, written once: the events follow until the
// connection closes, which ends the body.
std::string stream_header() {
  http::response<http::empty_body> message{http::status::ok, 11};
  message.set(http::field::content_type, "text/event-stream");
  message.set(http::field::cache_control, "no-store");
  message.set("X-Content-Type-Options", "nosniff");
  message.set("Referrer-Policy", "no-referrer");
  // Proxies that buffer answers would hold the events back.
  message.set("X-Accel-Buffering", "no");
  message.keep_alive(false);
  std::ostringstream out;
  out << message.base();
  return std::move(out).str();
}

}  // namespace

std::uint64_t alert_stream_cursor(const HttpTarget& target, std::string_view last_event_id) {
  const Parameters parameters(target.parameters, {"since"});
  if (!last_event_id.empty()) return cursor_of(last_event_id, "Last-Event-ID");
  const std::optional<std::string_view> since = parameters.get("since");
  return since ? cursor_of(*since, "parameter since") : 0;
}

// One client's stream: its header, then each alert after its cursor as the
// log grows, a comment now and then, until the client leaves, cannot keep
// up, or the server stops.
class AlertStream : public std::enable_shared_from_this<AlertStream> {
 public:
  AlertStream(beast::tcp_stream stream, AlertStreams& streams, std::uint64_t cursor, bool head)
      : stream_(std::move(stream)),
        streams_(streams),
        follower_(streams.index_path(), cursor),
        heartbeat_(stream_.get_executor()),
        head_(head) {}

  void start() {
    queued_ = stream_header();
    if (!head_) {
      std::ostringstream out;
      AlertEventPrinter(out).retry(kRetryMilliseconds);
      queued_ += std::move(out).str();
      beat();
      notice_leaving();
    }
    pump();
  }

  // Sends what the log holds after what was sent, once what is being
  // written is.
  void pump() {
    if (closed_ || writing_) return;
    if (queued_.empty() && !head_ && !closing_) {
      std::ostringstream out;
      AlertEventPrinter printer(out);
      const std::uint64_t cursor = follower_.cursor();
      try {
        const std::vector<Alert> alerts = follower_.next(kBatch);
        if (follower_.started_over()) {
          printer.comment("the alert log ends before cursor " + std::to_string(cursor) +
                          "; it is sent again from its first alert");
        }
        for (const Alert& alert : alerts) printer.alert(alert);
      } catch (const Error& error) {
        printer.comment(error.what());
        closing_ = true;
      }
      queued_ = std::move(out).str();
    }
    if (!queued_.empty()) write();
  }

  // Says `why` in a comment, then closes.
  void end(std::string_view why) {
    if (closed_ || closing_) return;
    std::ostringstream out;
    AlertEventPrinter(out).comment(why);
    queued_ += std::move(out).str();
    closing_ = true;
    heartbeat_.cancel();
    if (!writing_) write();
  }

  void close() {
    if (closed_) return;
    const auto self = shared_from_this();
    closed_ = true;
    heartbeat_.cancel();
    beast::error_code ignored;
    stream_.socket().shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
    stream_.close();
    streams_.remove(this);
  }

 private:
  void write() {
    writing_ = true;
    sending_ = std::move(queued_);
    queued_.clear();
    stream_.expires_after(kWriteTimeout);
    asio::async_write(stream_, asio::buffer(sending_),
                      [self = shared_from_this()](beast::error_code error, std::size_t) {
                        self->on_write(error);
                      });
  }

  void on_write(beast::error_code error) {
    writing_ = false;
    if (closed_) return;
    if (error || head_ || (closing_ && queued_.empty())) return close();
    stream_.expires_never();
    pump();
  }

  void beat() {
    heartbeat_.expires_after(kHeartbeat);
    heartbeat_.async_wait([self = shared_from_this()](beast::error_code cancelled) {
      if (cancelled || self->closed_) return;
      if (!self->writing_ && self->queued_.empty()) {
        std::ostringstream out;
        AlertEventPrinter(out).comment("keep-alive");
        self->queued_ = std::move(out).str();
        self->write();
      }
      self->beat();
    });
  }

  // A client that closes its end frees its place at once, rather than at
  // the next heartbeat; what it sends is read and dropped.
  void notice_leaving() {
    stream_.socket().async_read_some(
        asio::buffer(ignored_), [self = shared_from_this()](beast::error_code error, std::size_t) {
          if (error) return self->close();
          self->notice_leaving();
        });
  }

  beast::tcp_stream stream_;
  AlertStreams& streams_;
  AlertFollower follower_;
  asio::steady_timer heartbeat_;
  bool head_;
  std::string queued_;   // to write once sending_ is written
  std::string sending_;  // being written
  bool writing_ = false;
  bool closing_ = false;  // close once what is queued is written
  bool closed_ = false;
  char ignored_[512];
};

AlertStreams::AlertStreams(asio::io_context& io, std::vector<std::string> db_paths,
                           std::size_t most)
    : io_(io), most_(most) {
  if (db_paths.size() == 1) index_path_ = std::move(db_paths.front());
}

AlertStreams::~AlertStreams() {
  // The descriptor is the watch's to close.
  if (watch_wait_) watch_wait_->release();
}

std::optional<HttpResponse> AlertStreams::open(beast::tcp_stream& stream,
                                               const HttpRequestParser& parser) {
  const auto& request = parser.get();
  if (stopping_) {
    return json_error_response(503, "the server is stopping; ask again once it is back");
  }
  if (index_path_.empty()) {
    return json_error_response(404,
                               "alerts are kept by one index folder, and this server "
                               "serves several");
  }
  std::uint64_t cursor = 0;
  try {
    const std::string target(request.target());
    const std::string last_event_id(request["Last-Event-ID"]);
    cursor = alert_stream_cursor(parse_target(target), last_event_id);
  } catch (const HttpError& error) {
    return json_error_response(error.status(), error.what());
  }
  if (streams_.size() >= most_) {
    return json_error_response(
        503, "too many alert streams are open (" + std::to_string(most_) + "); ask again later");
  }
  if (!watch_) {
    try {
      watch_.emplace(index_path_);
      watch_wait_.emplace(io_, watch_->fd());
    } catch (const Error& error) {
      watch_.reset();
      return json_error_response(503, error.what());
    }
    watch();
  }
  auto opened = std::make_shared<AlertStream>(std::move(stream), *this, cursor,
                                              request.method() == http::verb::head);
  streams_.insert(opened);
  opened->start();
  return std::nullopt;
}

void AlertStreams::watch() {
  watch_wait_->async_wait(asio::posix::stream_descriptor::wait_read,
                          [this](beast::error_code error) {
                            if (error || stopping_) return;
                            if (watch_->take_events()) pump_all();
                            if (!watch_->watching()) rewatch_later();
                            watch();
                          });
}

void AlertStreams::rewatch_later() {
  if (!rewatch_) rewatch_.emplace(io_);
  rewatch_->expires_after(kRewatch);
  rewatch_->async_wait([this](beast::error_code cancelled) {
    if (cancelled || stopping_) return;
    if (watch_->rewatch()) return pump_all();
    rewatch_later();
  });
}

void AlertStreams::pump_all() {
  // A stream that fails closes, and leaves the set.
  const std::vector<std::shared_ptr<AlertStream>> open(streams_.begin(), streams_.end());
  for (const auto& stream : open) stream->pump();
}

void AlertStreams::stop() {
  stopping_ = true;
  if (rewatch_) rewatch_->cancel();
  if (watch_wait_) {
    beast::error_code ignored;
    watch_wait_->cancel(ignored);
  }
  const std::vector<std::shared_ptr<AlertStream>> open(streams_.begin(), streams_.end());
  for (const auto& stream : open) stream->end("the server is stopping");
}

void AlertStreams::remove(const AlertStream* stream) {
  std::erase_if(streams_, [stream](const auto& open) { return open.get() == stream; });
}

}  // namespace quarry
