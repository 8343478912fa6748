#include "app/common/table_subcommands.h"

#include <algorithm>

#include "app/common/quarry_help.h"

namespace quarry {

const std::vector<TableSubcommand>& table_subcommands() {
  static const std::vector<TableSubcommand> kSubcommands = {
      {"serve", kServeCommand, kServeSummary, kServeFooter},
      {"alerts", kAlertsCommand, kAlertsSummary, kAlertsFooter},
  };
  return kSubcommands;
}

const TableSubcommand& table_subcommand(Command command) {
  const std::vector<TableSubcommand>& all = table_subcommands();
  return *std::find_if(all.begin(), all.end(),
                       [command](const TableSubcommand& s) { return s.command == command; });
}

}  // namespace quarry
