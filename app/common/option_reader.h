// The one checker of an option's value, whichever front end it came from:
// the command line (query/option_cli.cc), the HTTP API (http_query.cc) and
// the prompt's commands (option_rules.h's set_by_prompt_command) read
// every value through here, so that a value one refuses the others refuse
// too, in the same words.
#ifndef QUARRY_APP_COMMON_OPTION_READER_H_
#define QUARRY_APP_COMMON_OPTION_READER_H_

#include <string>
#include <string_view>

#include "app/common/option_rules.h"
#include "app/common/search_option_table.h"

namespace quarry {

// `text` as the value of `option`, of the kind its row says (a kPaths
// option's one path as a string): a kCount a whole number within its
// bounds, a kNumber a finite number from 0 to its largest, a kChoice one
// of its values, any value passing its row's check. The bounds are those
// of `naming`'s front end. Throws OptionError naming the option as
// `naming` does, and what it takes: "--limit must be a whole number of 0
// or more, not '-1'", "parameter recency: '7x' is not a half-life …".
// A kFlag, which the command line gives or not, reads "true" or "1",
// "false" or "0".
OptionValue read_option_value(const SearchOption& option, std::string_view text,
                              const OptionNaming& naming);

// What `option` takes from that front end, as read_option_value says it:
// "a whole number from 0 to 100", "one of text, json, trec".
std::string values_taken(const SearchOption& option, FrontEnd front_end);

}  // namespace quarry

#endif  // QUARRY_APP_COMMON_OPTION_READER_H_
