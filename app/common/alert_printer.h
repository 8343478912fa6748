// How alerts are written: as `quarry alerts` prints them, JSON Lines, and
// as `quarry serve` streams them, Server-Sent Events. Each alert's object is
// the alert log's own line (alert_json), cursor included.
#ifndef QUARRY_APP_COMMON_ALERT_PRINTER_H_
#define QUARRY_APP_COMMON_ALERT_PRINTER_H_

#include <ostream>
#include <string>
#include <string_view>

#include "quarry/search/alert_log.h"

namespace quarry {

// One line per alert on a stream, flushed after each, so that a program
// reading the other end of a pipe gets every alert as it comes.
class AlertPrinter {
 public:
  explicit AlertPrinter(std::ostream& out) : out_(out) {}

  void alert(const Alert& alert);

 private:
  std::ostream& out_;
};

// Alerts as a stream of Server-Sent Events (text/event-stream): each alert
// "id: CURSOR\nevent: alert\ndata: {json}\n\n", so that a browser's
// EventSource resumes after the last one it got (Last-Event-ID).
class AlertEventPrinter {
 public:
  explicit AlertEventPrinter(std::ostream& out) : out_(out) {}

  // How long a client waits before connecting again, at the stream's start.
  void retry(unsigned milliseconds);
  void alert(const Alert& alert);
  // A comment, which clients ignore: ": text\n\n" (one line).
  void comment(std::string_view text);

 private:
  std::ostream& out_;
};

}  // namespace quarry

#endif  // QUARRY_APP_COMMON_ALERT_PRINTER_H_
