// Quarry's options, each defined once, as one row of a table: its names,
// the values it takes, its default, its help, its HTTP parameter and prompt
// command, and what it sets. The command line (query/option_cli.cc), the
// HTTP API (http_query.cc), the prompt's commands (prompt.cc), the manual
// page and the shell completion (option_docs.cc) are all read from it, so
// that no option is spelled twice and none can drift.
#ifndef QUARRY_APP_COMMON_SEARCH_OPTION_TABLE_H_
#define QUARRY_APP_COMMON_SEARCH_OPTION_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/common/alerts_command.h"
#include "app/common/option_value.h"
#include "app/common/search_option_values.h"
#include "app/common/serve_config.h"
#include "app/common/session.h"
#include "quarry/search/open_options.h"

namespace quarry {

// Bounds on what one request over HTTP may ask for: deep pages cost the
// server, not the client.
inline constexpr std::size_t kMaxHitsPerPage = 100;
inline constexpr std::size_t kMaxOffset = 10000;
// The time a search at the command line or the prompt may take: far more
// than any query within the parser's bounds needs (see
// QueryParserConfig::max_query_terms), so that only a pathological one
// stops early, and no one waits for minutes. quarry serve's is
// SearchLimits::time_limit.
inline constexpr double kSearchTimeLimit = 10;
// Hits per query of a TREC run that does not say (-n): evaluation tools
// judge the first 1,000 of each run, as trec_eval does by default.
inline constexpr std::size_t kTrecRunDepth = 1000;

// The most a time limit may be, in seconds (a day), wherever it is given.
inline constexpr double kMostSeconds = 86400;
// A kNumber with no largest but the largest finite number.
inline constexpr double kNoLargest = std::numeric_limits<double>::max();

// Everything the options of quarry and quarry serve set. The defaults are
// the programs': as the library's SearchOptions, but showing each story
// once. The rules between options are applied afterwards (option_rules.h).
struct QuarryOptions {
  QuarryOptions();

  std::vector<std::string> db_paths;  // default_index_path()
  OpenOptions open;
  SessionConfig session;  // the search, and how its answers are written
  // quarry alone.
  std::optional<OutputFormat> format;  // unset: text, or JSON Lines with --batch
  std::string run_tag;                 // empty: "quarry"
  ColorMode color = ColorMode::kAuto;
  bool interactive = false;
  std::string batch_file;  // empty: no batch
  std::size_t threads = 0;
  bool timings = true;
  bool count = false;
  bool bm25_given = false;
  // Whether the hits per query were asked for (-n), which a TREC run
  // otherwise sets to kTrecRunDepth.
  bool limit_given = false;
  std::vector<std::string> query_words;
  // quarry serve alone (its db_paths and open are the ones above).
  ServerConfig serve;
  // quarry alerts alone.
  AlertsConfig alerts;
};

// The command an option belongs to; some belong to several. `quarry alert
// add` takes those that say which articles a saved search matches.
enum Command : unsigned {
  kSearchCommand = 1,
  kServeCommand = 2,
  kBothCommands = 3,
  kAlertCommand = 4,
  kAlertsCommand = 8,
};

struct SearchOption {
  std::string_view name = {};  // the long option without its dashes: "limit"
  char short_name = 0;         // 'n' for -n, or 0
  ValueKind kind = ValueKind::kFlag;
  unsigned commands = kSearchCommand;
  std::string help = {};
  std::string serve_help = {};  // in quarry serve's help, when it differs
  // kChoice: every value it takes; otherwise, when there are some, the
  // values completion offers.
  std::vector<std::string_view> values = {};
  // What the help calls the value ("SECONDS"); empty: value_name_of's
  // name for the kind.
  std::string_view value_name = {};
  std::size_t least = 0;        // kCount: the smallest
  std::size_t most = SIZE_MAX;  // kCount: the largest
  double largest = kNoLargest;  // kNumber: the largest (the smallest is 0)
  // The /api/search parameter (empty: none), and the largest count it
  // takes when that is less than `most`: a request's page is bounded,
  // since deep pages cost the server, not the client.
  std::string_view http = {};
  std::size_t http_most = SIZE_MAX;
  // A kFlag whose parameter says the opposite: --no-snippets, snippets=false.
  bool http_negated = false;
  // The prompt's command (empty: none), an example of it for a message
  // about a wrong argument, the values it takes when fewer than `values`
  // (kChoice), and what it confirms once set.
  std::string_view prompt = {};
  std::string prompt_usage = {};
  std::vector<std::string_view> prompt_values = {};
  std::string (*prompt_confirm)(const QuarryOptions&) = nullptr;
  // A check of the text given, before it is read as its kind: why it is
  // refused, or empty.
  std::string (*check)(std::string_view value) = nullptr;
  // Sets the value. Throws ConfigError for one it cannot take (a bad
  // --feedback list).
  void (*set)(QuarryOptions&, const OptionValue&) = nullptr;
  // The value as the help shows a default; null: none is shown.
  std::string (*show)(const QuarryOptions&) = nullptr;

  // "--limit", "-n", or "" when there is no short name.
  std::string long_flag() const { return "--" + std::string(name); }
  std::string short_flag() const;
  bool takes_value() const { return kind != ValueKind::kFlag; }
  bool belongs_to(Command command) const { return (commands & command) != 0; }
  const std::string& help_in(Command command) const {
    return command == kServeCommand && !serve_help.empty() ? serve_help : help;
  }
};

// Every option, in the order the help lists them.
const std::vector<SearchOption>& search_option_table();

// The option of that long name (no dashes), that HTTP parameter, or that
// prompt command; null when there is none.
const SearchOption* option_named(std::string_view name, Command command);
const SearchOption* option_of_parameter(std::string_view parameter);
const SearchOption* option_of_prompt_command(std::string_view command);

// What the rules between options ask of the search options set; the table
// alone knows the fields of SearchOptions.
bool takes_plain_words(const QuarryOptions& options);  // --plain
bool searches_like(const QuarryOptions& options);      // --like

// The default values, as the help shows them ("10", "story"), or empty.
std::string default_of(const SearchOption& option);

// What the help calls the option's value: its value_name, a kChoice's
// values ("text|json|trec"), or a name for its kind ("N", "NUMBER",
// "LIST", "TEXT", "FILE"); empty for a flag.
std::string value_name_of(const SearchOption& option);

}  // namespace quarry

#endif  // QUARRY_APP_COMMON_SEARCH_OPTION_TABLE_H_
