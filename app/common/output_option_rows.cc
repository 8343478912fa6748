#include <string>
#include <string_view>

#include "app/common/option_rows.h"

namespace quarry {
namespace {

// The formats the prompt writes: a TREC run is for batches.
std::vector<std::string_view> prompt_format_names() {
  return {name_of(kFormatNames, OutputFormat::kText), name_of(kFormatNames, OutputFormat::kJson)};
}

std::string hits_text(std::size_t count) {
  return std::to_string(count) + (count == 1 ? " hit" : " hits");
}

// A run tag is the last field of a TREC line, which is split on white space.
std::string check_run_tag(std::string_view tag) {
  if (tag.empty() || tag.find_first_of(" \t\r\n") != std::string_view::npos) {
    return "a run tag is one word, with no spaces";
  }
  return "";
}

using option_value::count;
using option_value::flag;
using option_value::text;

}  // namespace

std::vector<SearchOption> output_option_rows() {
  using enum ValueKind;
  return {
      {.name = "limit",
       .short_name = 'n',
       .kind = kCount,
       .help = "Hits per query; a TREC run (--format trec) takes 1000 unless given",
       .http = "n",
       .http_most = kMaxHitsPerPage,
       .prompt = ":limit",
       .prompt_usage = ":limit 20",
       .prompt_confirm =
           [](const QuarryOptions& o) {
             return hits_text(search(o).limit) + " a page, from the next query";
           },
       .set =
           [](QuarryOptions& o, const OptionValue& v) {
             search(o).limit = count(v);
             o.limit_given = true;
           },
       .show = [](const QuarryOptions& o) { return std::to_string(search(o).limit); }},
      {.name = "offset",
       .kind = kCount,
       .help = "Hits to skip first",
       .http = "offset",
       .http_most = kMaxOffset,
       .set = [](QuarryOptions& o, const OptionValue& v) { search(o).offset = count(v); },
       .show = [](const QuarryOptions& o) { return std::to_string(search(o).offset); }},
      {.name = "format",
       .kind = kChoice,
       .help = "Output: text (default), json (default with --batch: JSON Lines), or trec (a "
               "TREC run, with --batch or queries on standard input)",
       .values = names_of(kFormatNames),
       .prompt = ":format",
       .prompt_usage = ":format " + std::string(name_of(kFormatNames, OutputFormat::kJson)),
       .prompt_values = prompt_format_names(),
       .prompt_confirm =
           [](const QuarryOptions& o) {
             return "answers as " + std::string(name_of(kFormatNames, *o.format)) +
                    ", from the next query";
           },
       .set =
           [](QuarryOptions& o, const OptionValue& v) {
             o.format = value_named(kFormatNames, text(v));
             o.session.format =
                 o.format == OutputFormat::kJson ? OutputFormat::kJson : OutputFormat::kText;
           }},
      {.name = "run-tag",
       .kind = kText,
       .help = "The name a TREC run gives itself, in its last column (default: quarry)",
       .value_name = "NAME",
       .check = check_run_tag,
       .set = [](QuarryOptions& o, const OptionValue& v) { o.run_tag = text(v); }},
      {.name = "color",
       .kind = kChoice,
       .help = "Highlight matches (auto: on a terminal, unless NO_COLOR is set)",
       .values = names_of(kColorNames),
       .set = [](QuarryOptions& o,
                 const OptionValue& v) { o.color = *value_named(kColorNames, text(v)); },
       .show = [](const QuarryOptions& o) { return std::string(name_of(kColorNames, o.color)); }},
      {.name = "interactive",
       .short_name = 'i',
       .help = "Open the prompt; with standard input not a terminal, answer its lines as the "
               "prompt would, commands included",
       .set = [](QuarryOptions& o, const OptionValue& v) { o.interactive = flag(v); }},
      {.name = "batch",
       .kind = kPath,
       .help = "Answer one query per line of FILE ('-': standard input) on -j threads, as "
               "JSON Lines, a TREC run or text (--format); a line 'qid<TAB>query' names its "
               "query",
       .value_name = "FILE",
       .set = [](QuarryOptions& o, const OptionValue& v) { o.batch_file = text(v); }},
      {.name = "threads",
       .short_name = 'j',
       .kind = kCount,
       .help = "Threads answering a batch (default: the cores available)",
       .set = [](QuarryOptions& o, const OptionValue& v) { o.threads = count(v); }},
      {.name = "no-snippets",
       .help = "Leave snippets out (faster)",
       .http = "snippets",
       .http_negated = true,
       .set = [](QuarryOptions& o,
                 const OptionValue& v) { search(o).snippets.enabled = !flag(v); }},
      {.name = "no-timings",
       .help = "Leave took_ms out of JSON Lines (--batch, queries piped in), so that runs "
               "compare byte for byte",
       .set = [](QuarryOptions& o, const OptionValue& v) { o.timings = !flag(v); }},
  };
}

}  // namespace quarry
