// quarry-index's options, each defined once, as one row of a table: its
// names, the value it takes, its help, what its value names (for checking
// and completing it), and what it sets. The command line
// (indexer/index_command_line.cc), and through it the help and the manual
// page, and the shell completion (index_completion.cc) are all read from
// it, as quarry's are from search_option_table.h.
#ifndef QUARRY_APP_INDEXING_INDEX_OPTION_TABLE_H_
#define QUARRY_APP_INDEXING_INDEX_OPTION_TABLE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "app/common/option_value.h"
#include "app/indexing/index_command.h"

namespace quarry {

// What a row is besides an option that sets a value: the help and the
// version, which print and exit, and the PATHs, the positional arguments.
enum class IndexRowRole { kOption, kHelp, kVersion, kArguments };

// What a value names, to check it and to complete it.
enum class IndexValueNames {
  kNothing,       // a number, which no list completes
  kFolder,        // a folder, made when missing
  kExistingFile,  // a file that must exist
  kLanguage,      // a stemmer's language, auto or none
  kArticles,      // folders, .txt articles and JSON Lines corpora
};

// Which run an option belongs to: a --snapshot (kSnapshot's own row)
// takes none of the options of indexing.
enum class IndexRun { kBoth, kIndexing, kSnapshot };

struct IndexOption {
  // The long option without its dashes ("threads"), or the arguments'
  // name ("PATH").
  std::string_view name = {};
  char short_name = 0;  // 'j' for -j, or 0
  IndexRowRole role = IndexRowRole::kOption;
  ValueKind kind = ValueKind::kFlag;
  std::string help = {};
  // What the help calls the value ("N", "[=SECONDS]" when it may be left
  // out, "..." for the arguments).
  std::string_view value_name = {};
  IndexValueNames names = IndexValueNames::kNothing;
  IndexRun run = IndexRun::kBoth;
  std::size_t least = 0;  // kCount: the smallest
  // The largest: of a kNumber; of a kCount, SIZE_MAX or, for a count
  // Xapian keeps as an unsigned int, UINT_MAX.
  double most = static_cast<double>(SIZE_MAX);
  // A kNumber that may be given alone (--wait): the value it then takes.
  std::string_view when_alone = {};
  // A check of a kPath value: why it is refused, or empty.
  std::string (*check)(std::string_view value) = nullptr;
  // Sets the value given.
  void (*set)(IndexCommand&, const OptionValue&) = nullptr;

  // "--threads"; the arguments' name for them.
  std::string long_flag() const;
  // "-j", or "" when there is no short name.
  std::string short_flag() const;
  bool takes_value() const { return kind != ValueKind::kFlag; }
  bool value_optional() const { return !when_alone.empty(); }
};

// Every row, in the order the help lists them.
const std::vector<IndexOption>& index_option_table();

// The run with no option given: the default index (default_index_path()).
IndexCommand default_index_command();

// What the options set that the rows do not say alone: a PATH "-" is
// standard input, read as it comes.
void resolve_index_command(IndexCommand& command);

}  // namespace quarry

#endif  // QUARRY_APP_INDEXING_INDEX_OPTION_TABLE_H_
