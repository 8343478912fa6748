#include "query/serve_command.h"

#include <iostream>

#include "app/index_location.h"
#include "query/whole_number.h"

namespace quarry {
namespace {

constexpr char kServeFooter[] = R"(Routes (all GET):
  /                       the search page (works without JavaScript)
  /api/search?q=...       the JSON of quarry --format json; parameters n, offset,
                          sort, match, plain, strict, correct, explain, snippets,
                          facets, count_limit, weight, bm25, title_weight,
                          collapse, feedback, like (q may then be left out), as
                          quarry's options (strict=true: 400 for a bad query)
  /api/articles/ID        a stored article (with q=..., where the query matches it)
  /api/suggest?q=...      completions of the query's last word
  /api/stats, /healthz
The server is read-only and has no authentication: it listens on loopback
unless --listen names another address. SIGINT or SIGTERM stop it, answering
the requests already received.
Exit codes:
  0  stopped by SIGINT or SIGTERM
  1  the address cannot be listened on (in use, not this machine's)
  2  usage error (an option, or --listen that is not HOST:PORT))";

}  // namespace

CLI::App* add_serve_command(CLI::App& app, ServerConfig& config) {
  CLI::App* serve =
      app.add_subcommand("serve", "Serve the index over HTTP: a search page and a JSON API");
  config.db_paths = {default_index_path()};
  serve
      ->add_option("--db", config.db_paths,
                   "Index folder, or Xapian stub file naming shards; several are served as one "
                   "(default: $QUARRY_DB, else $XDG_DATA_HOME/quarry/index)")
      ->allow_extra_args(false);
  serve->add_flag("--allow-partial", config.open.allow_partial,
                  "When some shards do not answer, search the others and warn");
  serve
      ->add_option("--connect-timeout", config.open.connect_timeout,
                   "Seconds to wait for a remote shard to accept a connection (0: for ever)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  serve
      ->add_option("--timeout", config.open.timeout,
                   "Seconds to wait for any one answer from a remote shard (0: for ever)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  serve
      ->add_option("--listen", config.listen,
                   "HOST:PORT to listen on; port 0 picks a free one. An address other than "
                   "loopback lets anyone who reaches it read the whole index")
      ->capture_default_str();
  serve
      ->add_option("-j,--threads", config.threads,
                   "Threads answering requests, each with its own view of the index "
                   "(default: the cores available)")
      ->check(whole_number(0));
  serve
      ->add_option_function<std::size_t>(
          "--cache-mib", [&config](std::size_t mib) { config.cache_bytes = mib << 20; },
          "MiB of search answers kept for the same request asked again while the index does "
          "not change (default: 64; 0: none)")
      ->check(CLI::Range(0, 1 << 20));
  serve->add_flag_callback(
      "-q,--quiet", [&config] { config.log_requests = false; }, "Log no line per request");
  serve->footer(kServeFooter);
  return serve;
}

int run_serve(const CLI::App& app, const ServerConfig& config, std::string_view program) {
  // quarry --db X serve would silently serve the default index.
  for (const CLI::Option* option : app.get_options()) {
    if (option->count() > 0) {
      throw CLI::ValidationError("serve takes its options after it: quarry serve --db …");
    }
  }
  serve(config, std::cout, std::cerr, program);
  return 0;
}

}  // namespace quarry
