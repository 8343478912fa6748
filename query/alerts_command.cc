#include "query/alerts_command.h"

#include <iostream>

#include "app/common/index_location.h"
#include "query/option_cli.h"

namespace quarry {

CLI::App* add_alerts_command(CLI::App& app, QuarryOptions& options) {
  options.alerts.index_path = default_index_path();
  return add_table_subcommand(app, kAlertsCommand, options);
}

int run_alerts_command(const CLI::App& app, const AlertsConfig& config, std::string_view program) {
  // quarry --db X alerts would silently read the default index.
  for (const CLI::Option* option : app.get_options()) {
    if (option->count() > 0) {
      throw CLI::ValidationError("alerts takes its options after it: quarry alerts --db …");
    }
  }
  return run_alerts(config, std::cout, std::cerr, program);
}

}  // namespace quarry
