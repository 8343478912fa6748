#include "app/common/option_rows.h"

namespace quarry {
namespace {

using option_value::flag;
using option_value::number;
using option_value::number_text;

}  // namespace

std::vector<SearchOption> index_option_rows() {
  using enum ValueKind;
  return {
      {.name = "db",
       .kind = kPaths,
       .commands = kBothCommands | kAlertCommand,
       .help = "Index folder, or Xapian stub file naming shards; several are searched as one "
               "(default: $QUARRY_DB, else $XDG_DATA_HOME/quarry/index)",
       .serve_help = "Index folder, or Xapian stub file naming shards; several are served as "
                     "one (default: $QUARRY_DB, else $XDG_DATA_HOME/quarry/index)",
       .value_name = "PATH",
       .check = [](std::string_view path) -> std::string {
         return path.empty() ? "an empty path names no index" : "";
       },
       .set = [](QuarryOptions& o,
                 const OptionValue& v) { o.db_paths = std::get<std::vector<std::string>>(v); }},
      {.name = "allow-partial",
       .commands = kBothCommands,
       .help = "When some shards do not answer, search the others and warn",
       .set = [](QuarryOptions& o, const OptionValue& v) { o.open.allow_partial = flag(v); }},
      {.name = "connect-timeout",
       .kind = kNumber,
       .commands = kBothCommands,
       .help = "Seconds to wait for a remote shard to accept a connection (0: for ever)",
       .value_name = "SECONDS",
       .set = [](QuarryOptions& o, const OptionValue& v) { o.open.connect_timeout = number(v); },
       .show = [](const QuarryOptions& o) { return number_text(o.open.connect_timeout); }},
      {.name = "timeout",
       .kind = kNumber,
       .commands = kBothCommands,
       .help = "Seconds to wait for any one answer from a remote shard (0: for ever)",
       .value_name = "SECONDS",
       .set = [](QuarryOptions& o, const OptionValue& v) { o.open.timeout = number(v); },
       .show = [](const QuarryOptions& o) { return number_text(o.open.timeout); }},
  };
}

}  // namespace quarry
