#include "query/serve_command.h"

#include <cstdlib>
#include <iostream>

#include "app/server/server.h"
#include "query/option_cli.h"

namespace quarry {

CLI::App* add_serve_command(CLI::App& app, QuarryOptions& options) {
  return add_table_subcommand(app, kServeCommand, options);
}

int run_serve(const CLI::App& app, const QuarryOptions& options, std::string_view program) {
  take_options_given_before(app, *app.get_subcommand("serve"));
  ServerConfig config = options.serve;
  config.db_paths = options.db_paths;
  config.open = options.open;
  if (serve(config, std::cout, std::cerr, program) == ServeEnd::kSearchesLeftRunning) {
    // A search still running on another thread may use objects that
    // returning from main would destroy: end here, as they are.
    std::cout.flush();
    std::cerr.flush();
    std::quick_exit(0);
  }
  return 0;
}

}  // namespace quarry
