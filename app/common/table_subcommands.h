// quarry's subcommands whose options are all rows of the option table
// (quarry serve, quarry alerts). The command line adds each from here
// (query/option_cli.h) and the completion offers each with its options
// (option_docs.cc), so that a subcommand added is completed with them.
#ifndef QUARRY_APP_COMMON_TABLE_SUBCOMMANDS_H_
#define QUARRY_APP_COMMON_TABLE_SUBCOMMANDS_H_

#include <string_view>
#include <vector>

#include "app/common/search_option_table.h"

namespace quarry {

struct TableSubcommand {
  std::string_view name;  // "serve"
  Command command;        // the rows that belong to it
  const char* summary;    // its help's first line
  const char* footer;     // what its help says after the options
};

// In the order completion offers them.
const std::vector<TableSubcommand>& table_subcommands();

// The subcommand of that command; it must be one of table_subcommands().
const TableSubcommand& table_subcommand(Command command);

}  // namespace quarry

#endif  // QUARRY_APP_COMMON_TABLE_SUBCOMMANDS_H_
