// `quarry alerts`: the alerts of an index's saved searches, printed from a
// cursor on, and with --follow as they come until a signal stops it.
#ifndef QUARRY_APP_COMMON_ALERTS_COMMAND_H_
#define QUARRY_APP_COMMON_ALERTS_COMMAND_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>

namespace quarry {

struct AlertsConfig {
  std::string index_path;   // the folder that holds alerts.jsonl
  std::uint64_t since = 0;  // print the alerts after this cursor
  bool follow = false;      // then wait for more until SIGINT or SIGTERM
};

// Prints the alerts after `since` on `out` (AlertPrinter), then with
// `follow` each one appended afterwards, woken by AlertLogWatch, until
// SIGINT or SIGTERM (which it blocks and waits for meanwhile). A log that
// ends before the cursor followed (cut short by hand) is read again from its
// first alert, with a warning on `err` prefixed with `program`. Returns
// kExitSuccess. Throws IndexNotFoundError when there is no index folder,
// IndexError when the log cannot be read, Error when `out` cannot be
// written.
int run_alerts(const AlertsConfig& config, std::ostream& out, std::ostream& err,
               std::string_view program);

}  // namespace quarry

#endif  // QUARRY_APP_COMMON_ALERTS_COMMAND_H_
