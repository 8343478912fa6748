#include "query/alerts_command.h"

#include <cstdint>
#include <iostream>

#include "app/common/index_location.h"
#include "app/common/quarry_help.h"
#include "query/whole_number.h"

namespace quarry {

// Every cursor whole_number lets through is one.
static_assert(SIZE_MAX <= UINT64_MAX);

CLI::App* add_alerts_command(CLI::App& app, AlertsConfig& config) {
  CLI::App* alerts = app.add_subcommand("alerts", kAlertsSummary);
  config.index_path = default_index_path();
  alerts
      ->add_option("--db", config.index_path,
                   "Index folder whose alerts to print (default: $QUARRY_DB, else "
                   "$XDG_DATA_HOME/quarry/index)")
      ->option_text("PATH")
      ->check(CLI::Validator(
          [](const std::string& path) {
            return path.empty() ? std::string("an empty path names no index") : std::string();
          },
          "PATH"));
  alerts
      ->add_option("--since", config.since,
                   "Print the alerts after this cursor (default: 0, every alert)")
      ->option_text("CURSOR")
      ->check(whole_number(0));
  alerts->add_flag("--follow", config.follow,
                   "Then print each alert as it is added, until SIGINT or SIGTERM");
  alerts->footer(kAlertsFooter);
  return alerts;
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
