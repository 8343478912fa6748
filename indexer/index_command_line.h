// quarry-index's command line: the rows of its option table
// (app/indexing/index_option_table.h) as CLI11 options, and the run they
// ask for once parsed.
#ifndef QUARRY_INDEXER_INDEX_COMMAND_LINE_H_
#define QUARRY_INDEXER_INDEX_COMMAND_LINE_H_

#include <CLI/CLI.hpp>
#include <vector>

#include "app/common/option_value.h"
#include "app/indexing/index_command.h"

namespace quarry {

class IndexCommandLine {
 public:
  // Adds every row of the table to `app`, with its help, in the table's
  // order, and the help's summary and footer. `app` must outlive this.
  explicit IndexCommandLine(CLI::App& app);
  IndexCommandLine(const IndexCommandLine&) = delete;
  IndexCommandLine& operator=(const IndexCommandLine&) = delete;

  // After app.parse(): the run the options given ask for. Throws
  // CLI::ExcludesError for an option of indexing given with --snapshot,
  // and CLI::RequiredError when neither PATH nor --snapshot is.
  IndexCommand command() const;

 private:
  // The value each row was given, and its CLI11 option, by row.
  std::vector<OptionValue> values_;
  std::vector<CLI::Option*> options_;
};

}  // namespace quarry

#endif  // QUARRY_INDEXER_INDEX_COMMAND_LINE_H_
