#include "app/common/alerts_option_rows.h"

#include <cstdint>

namespace quarry {

// Every cursor a kCount row takes is one.
static_assert(SIZE_MAX <= UINT64_MAX);

std::vector<SearchOption> alerts_option_rows() {
  using enum ValueKind;
  using option_value::count;
  using option_value::flag;
  using option_value::text;
  return {
      {.name = "db",
       .kind = kPath,
       .commands = kAlertsCommand,
       .help = "Index folder whose alerts to print (default: $QUARRY_DB, else "
               "$XDG_DATA_HOME/quarry/index)",
       .value_name = "PATH",
       .check = [](std::string_view path) -> std::string {
         return path.empty() ? "an empty path names no index" : "";
       },
       .set = [](QuarryOptions& o, const OptionValue& v) { o.alerts.index_path = text(v); }},
      {.name = "since",
       .kind = kCount,
       .commands = kAlertsCommand,
       .help = "Print the alerts after this cursor (default: 0, every alert)",
       .value_name = "CURSOR",
       .set = [](QuarryOptions& o, const OptionValue& v) { o.alerts.since = count(v); }},
      {.name = "follow",
       .commands = kAlertsCommand,
       .help = "Then print each alert as it is added, until SIGINT or SIGTERM",
       .set = [](QuarryOptions& o, const OptionValue& v) { o.alerts.follow = flag(v); }},
  };
}

}  // namespace quarry
