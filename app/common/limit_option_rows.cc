#include "app/common/option_rows.h"

namespace quarry {
namespace {

using option_value::count;
using option_value::flag;
using option_value::number;
using option_value::number_text;

}  // namespace

std::vector<SearchOption> limit_option_rows() {
  using enum ValueKind;
  return {
      {.name = "count",
       .help = "Print only how many articles match QUERY, counted exactly",
       .set = [](QuarryOptions& o, const OptionValue& v) { o.count = flag(v); }},
      {.name = "count-limit",
       .kind = kCount,
       .help = "Count matches and their stories exactly up to N, or as far as the page "
               "reaches; past it, say N+ (\"total_relation\": \"gte\") and about M stories",
       .least = 1,
       .http = "count_limit",
       .set = [](QuarryOptions& o, const OptionValue& v) { search(o).count_limit = count(v); },
       .show = [](const QuarryOptions& o) { return std::to_string(search(o).count_limit); }},
      {.name = "time-limit",
       .kind = kNumber,
       .help = "Seconds a search may take; then it stops and shows the best hits found by "
               "then, its counts as lower bounds (\"timed_out\": true) (0: no limit)",
       .value_name = "SECONDS",
       .largest = kMostSeconds,
       .http = "time_limit",
       .prompt = ":time-limit",
       .prompt_usage = ":time-limit 2, or :time-limit 0 for no limit",
       .prompt_confirm =
           [](const QuarryOptions& o) {
             const double seconds = search(o).time_limit;
             return (seconds > 0 ? "searches stop after " + number_text(seconds) + " s"
                                 : std::string("searches take the time they need")) +
                    ", from the next query";
           },
       .set = [](QuarryOptions& o, const OptionValue& v) { search(o).time_limit = number(v); },
       .show = [](const QuarryOptions& o) { return number_text(search(o).time_limit); }},
      {.name = "max-query-terms",
       .kind = kCount,
       .commands = kBothCommands,
       .help = "Words a query's wildcards and synonyms may stand for in all; each wildcard "
               "keeps its most frequent words (at most 500), and a note says when they were cut",
       .least = 1,
       .most = 1000000,
       .set =
           [](QuarryOptions& o, const OptionValue& v) {
             const auto terms = static_cast<unsigned>(count(v));
             search(o).parser.max_query_terms = terms;
             o.serve.limits.max_query_terms = terms;
           },
       .show =
           [](const QuarryOptions& o) { return std::to_string(search(o).parser.max_query_terms); }},
  };
}

}  // namespace quarry
