// The rules between quarry's options, in one place for every front end:
// the command line, the HTTP API and the prompt set options through here,
// and each front end names the options in its messages as its users write
// them ("--bm25", "parameter bm25").
#ifndef QUARRY_APP_COMMON_OPTION_RULES_H_
#define QUARRY_APP_COMMON_OPTION_RULES_H_

#include <string>

#include "app/common/search_option_table.h"
#include "quarry/error.h"

namespace quarry {

// Where an option's value comes from. Each takes the same values, but for
// the bounds a front end sets on what one request may cost or show: the
// HTTP API's page (SearchOption::http_most), the prompt's formats
// (SearchOption::prompt_values).
enum class FrontEnd { kCommandLine, kHttp, kPrompt };

// How a front end names an option in a message about it.
struct OptionNaming {
  FrontEnd front_end;
  // The option the message is about, which starts it: "--bm25".
  std::string (*subject)(const SearchOption& option);
  // Another option it mentions: "--weight".
  std::string (*mention)(const SearchOption& option);
};

// "--bm25"; "parameter bm25" and "weight"; ":limit".
extern const OptionNaming kCommandLineNaming;
extern const OptionNaming kHttpNaming;
extern const OptionNaming kPromptNaming;

// A value an option cannot take, or options that do not go together; the
// message names them as the front end does.
class OptionError : public ConfigError {
 public:
  using ConfigError::ConfigError;
};

// Sets `option` to `value`. Throws OptionError ("--facets: no facet …")
// for a value it refuses.
void set_option(const SearchOption& option, const OptionValue& value, QuarryOptions& options,
                const OptionNaming& naming);

// The rules of the search, whatever asks for it: --bm25 goes with a BM25
// scheme; the scheme is one the library has, and takes the parameters
// given; plain-words searches, which are for evaluation, never collapse.
// Throws OptionError.
void resolve_search(QuarryOptions& options, const OptionNaming& naming);

// Where quarry's queries come from and how they are answered.
enum class QuarryMode {
  kQuery,         // QUERY given (or --like)
  kCount,         // --count QUERY
  kBatch,         // --batch FILE
  kPrompt,        // the prompt, on a terminal
  kPromptScript,  // -i with standard input not a terminal: the prompt's lines
  kLines,         // standard input not a terminal: a line, an answer
};

QuarryMode mode_of(const QuarryOptions& options, bool input_is_terminal);

// resolve_search, then quarry's own rules: the format a mode writes by
// default, TREC runs only for batches of queries (they never collapse, nor
// write snippets), --run-tag only for them, --count with a QUERY, and no
// QUERY that would be ignored. Throws OptionError, named as on the
// command line.
void resolve_quarry(QuarryOptions& options, bool input_is_terminal);

// Sets the option of a prompt command (":limit") from `argument`, read as
// read_option_value reads it, in `session` and returns what to confirm ("3
// hits a page, from the next query"); throws OptionError, with an example
// of the command, when the argument is wrong.
std::string set_by_prompt_command(const SearchOption& option, std::string_view argument,
                                  SessionConfig& session);

}  // namespace quarry

#endif  // QUARRY_APP_COMMON_OPTION_RULES_H_
