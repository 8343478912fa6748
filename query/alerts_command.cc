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
  take_options_given_before(app, *app.get_subcommand("alerts"));
  return run_alerts(config, std::cout, std::cerr, program);
}

}  // namespace quarry
