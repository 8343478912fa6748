#include "app/common/alerts_command.h"

#include <poll.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>

#include "app/common/alert_log_watch.h"
#include "app/common/alert_printer.h"
#include "quarry/error.h"
#include "quarry/search/alert_log.h"

namespace quarry {
namespace {

// Alerts read at a time: a long log is printed without holding it all.
constexpr std::size_t kBatch = 1000;
constexpr int kRewatchMilliseconds = 1000;

// SIGINT and SIGTERM as a file descriptor to wait on beside the watch;
// blocked while this lives, so that they end the wait rather than the
// process, and the output is left whole.
class StopSignals {
 public:
  StopSignals() {
    sigemptyset(&signals_);
    sigaddset(&signals_, SIGINT);
    sigaddset(&signals_, SIGTERM);
    if (sigprocmask(SIG_BLOCK, &signals_, &previous_) != 0 ||
        (fd_ = signalfd(-1, &signals_, SFD_CLOEXEC)) < 0) {
      throw Error(std::string("cannot wait for signals: ") + std::strerror(errno));
    }
  }
  ~StopSignals() {
    ::close(fd_);
    sigprocmask(SIG_SETMASK, &previous_, nullptr);
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  int fd() const { return fd_; }

  // Takes the signal that made fd() readable, so that it is not delivered
  // once unblocked.
  void take() const {
    signalfd_siginfo info;
    while (::read(fd_, &info, sizeof info) < 0 && errno == EINTR) {
    }
  }

 private:
  sigset_t signals_;
  sigset_t previous_;
  int fd_ = -1;
};

// Prints what the log holds after the follower's cursor; throws Error when
// `out` fails.
void print_new(AlertFollower& follower, AlertPrinter& printer, std::ostream& out, std::ostream& err,
               std::string_view program) {
  for (;;) {
    const std::uint64_t cursor = follower.cursor();
    const std::vector<Alert> alerts = follower.next(kBatch);
    if (follower.started_over()) {
      err << program << ": warning: the alert log ends before cursor " << cursor
          << " (was it cut short?); reading it again from its first alert" << std::endl;
    }
    for (const Alert& alert : alerts) printer.alert(alert);
    if (!out) throw Error("cannot write the alerts to standard output");
    if (alerts.size() < kBatch) return;
  }
}

// Whether the stop signal came (true) or the log may have changed.
bool wait(AlertLogWatch& watch, const StopSignals& signals) {
  for (;;) {
    pollfd fds[2] = {{signals.fd(), POLLIN, 0}, {watch.fd(), POLLIN, 0}};
    // Without a folder to watch (removed, or moved away), looks for one at
    // its path now and then.
    const int ready = ::poll(fds, 2, watch.watching() ? -1 : kRewatchMilliseconds);
    if (ready < 0) {
      if (errno == EINTR) continue;
      throw Error(std::string("cannot wait for alerts: ") + std::strerror(errno));
    }
    if (ready == 0) {
      if (watch.rewatch()) return false;
      continue;
    }
    if (fds[0].revents != 0) {
      signals.take();
      return true;
    }
    if (watch.take_events()) return false;
  }
}

}  // namespace

int run_alerts(const AlertsConfig& config, std::ostream& out, std::ostream& err,
               std::string_view program) {
  std::error_code ignored;
  if (!std::filesystem::is_directory(config.index_path, ignored)) {
    throw IndexNotFoundError("no index folder at " + config.index_path);
  }
  AlertPrinter printer(out);
  AlertFollower follower(config.index_path, config.since);
  if (!config.follow) {
    print_new(follower, printer, out, err, program);
    return 0;
  }
  // Both before the first read: a signal or an append from now on is seen.
  const StopSignals signals;
  AlertLogWatch watch(config.index_path);
  do {
    print_new(follower, printer, out, err, program);
  } while (!wait(watch, signals));
  return 0;
}

}  // namespace quarry
