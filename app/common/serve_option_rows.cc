#include <algorithm>
#include <string_view>

#include "app/common/option_rows.h"

namespace quarry {

std::vector<SearchOption> serve_option_rows() {
  using enum ValueKind;
  using option_value::count;
  using option_value::flag;
  using option_value::number;
  using option_value::number_text;
  using option_value::text;
  return {
      {.name = "listen",
       .kind = kText,
       .commands = kServeCommand,
       .help = "HOST:PORT to listen on; port 0 picks a free one. An address other than "
               "loopback needs --token-file, or --public to let anyone who reaches it read "
               "the whole index",
       .value_name = "HOST:PORT",
       .set = [](QuarryOptions& o, const OptionValue& v) { o.serve.listen = text(v); },
       .show = [](const QuarryOptions& o) { return o.serve.listen; }},
      {.name = "allow-host",
       .kind = kText,
       .commands = kServeCommand,
       .help = "Host names, comma-separated, that requests may be addressed to besides "
               "localhost and IP addresses (*: any); others are refused, so that no other "
               "site's page can read the index through its own name",
       .value_name = "NAMES",
       .set =
           [](QuarryOptions& o, const OptionValue& v) {
             std::string_view names = text(v);
             while (!names.empty()) {
               const std::size_t comma = std::min(names.find(','), names.size());
               if (comma > 0) o.serve.allowed_hosts.emplace_back(names.substr(0, comma));
               names.remove_prefix(std::min(comma + 1, names.size()));
             }
           }},
      {.name = "token-file",
       .kind = kPath,
       .commands = kServeCommand,
       .help = "Answer only requests that carry one of FILE's tokens, one a line (16 to 256 "
               "letters, digits and - . _ ~ + / =), as 'Authorization: Bearer TOKEN'; the "
               "search page asks for one once and keeps it in a cookie",
       .value_name = "FILE",
       // An empty value, as an unset variable gives, would otherwise ask for no token.
       .check = [](std::string_view file) -> std::string {
         return file.empty() ? "a file of tokens, not an empty name" : "";
       },
       .set = [](QuarryOptions& o, const OptionValue& v) { o.serve.token_file = text(v); }},
      {.name = "public",
       .commands = kServeCommand,
       .help = "Let --listen name an address other than loopback without --token-file: the "
               "index is open to anyone who reaches it",
       .set = [](QuarryOptions& o, const OptionValue& v) { o.serve.open_to_all = flag(v); }},
      {.name = "threads",
       .short_name = 'j',
       .kind = kCount,
       .commands = kServeCommand,
       .help = "Threads answering requests, each with its own view of the index "
               "(default: the cores available)",
       .set = [](QuarryOptions& o, const OptionValue& v) { o.serve.threads = count(v); }},
      {.name = "cache-mib",
       .kind = kCount,
       .commands = kServeCommand,
       .help = "MiB of search answers kept for the same request asked again while the index "
               "does not change (default: 64; 0: none)",
       .value_name = "MIB",
       .most = std::size_t{1} << 20,
       .set = [](QuarryOptions& o, const OptionValue& v) { o.serve.cache_bytes = count(v) << 20; }},
      {.name = "time-limit",
       .kind = kNumber,
       .commands = kServeCommand,
       .help = "Seconds a search may take; then it answers with the best hits found by then "
               "(\"timed_out\": true). A request may ask for less with time_limit (0: no limit)",
       .value_name = "SECONDS",
       .largest = kMostSeconds,
       .set = [](QuarryOptions& o, const OptionValue& v) { o.serve.limits.time_limit = number(v); },
       .show = [](const QuarryOptions& o) { return number_text(o.serve.limits.time_limit); }},
      {.name = "alert-streams",
       .kind = kCount,
       .commands = kServeCommand,
       .help = "Streams of /api/alerts open at once; more are answered 503 (default: 64)",
       .most = std::size_t{1} << 16,
       .set = [](QuarryOptions& o, const OptionValue& v) { o.serve.alert_streams = count(v); }},
      {.name = "quiet",
       .short_name = 'q',
       .commands = kServeCommand,
       .help = "Log no line per request",
       .set = [](QuarryOptions& o, const OptionValue& v) { o.serve.log_requests = !flag(v); }},
  };
}

}  // namespace quarry
