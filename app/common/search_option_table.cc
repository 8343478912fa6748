#include "app/common/search_option_table.h"

#include <algorithm>
#include <charconv>
#include <sstream>

#include "app/common/index_location.h"
#include "app/common/serve_option_rows.h"
#include "quarry/error.h"
#include "quarry/search/ranking.h"
#include "quarry/text/analyzer.h"
#include "quarry/text/language_identifier.h"

namespace quarry {
namespace {

// The ranking schemes' names, which the library lists in one string.
std::vector<std::string_view> scheme_names() {
  static const std::string kSchemes = ranking_schemes();
  std::vector<std::string_view> names;
  for (std::size_t at = 0; at < kSchemes.size();) {
    const std::size_t space = std::min(kSchemes.find(' ', at), kSchemes.size());
    names.push_back(std::string_view(kSchemes).substr(at, space - at));
    at = space + 1;
  }
  return names;
}

// The ISO 639-1 codes of the languages there are stemmers for, each once
// ("porter" and "english" are both "en"): what completion offers for
// --language, which takes names too.
std::vector<std::string_view> language_codes() {
  static const std::vector<std::string> kCodes = [] {
    std::vector<std::string> codes;
    std::istringstream names(Analyzer::available_languages());
    for (std::string name; names >> name;) {
      const std::string code = language_code(name);
      if (!code.empty() && std::find(codes.begin(), codes.end(), code) == codes.end()) {
        codes.push_back(code);
      }
    }
    return codes;
  }();
  return {kCodes.begin(), kCodes.end()};
}

// Why the query cannot be written in `language`, or empty: an empty one
// is every language.
std::string check_language(std::string_view language) {
  if (language.empty() || !stemmer_language(language).empty()) return "";
  return "no language '" + std::string(language) +
         "': name one by its ISO 639-1 code (fr) or its name (french)";
}

// A language the prompt takes, or none for every language.
std::optional<OptionValue> read_language(std::string_view text) {
  if (!check_language(text).empty()) return std::nullopt;
  return std::string(text);
}

// A count the prompt takes: digits alone, 1 or more.
std::optional<OptionValue> read_positive_count(std::string_view text) {
  std::size_t value = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (error != std::errc() || stop != end || value == 0) return std::nullopt;
  return value;
}

// The formats the prompt writes: a TREC run is for batches.
constexpr OutputFormat kPromptFormats[] = {OutputFormat::kText, OutputFormat::kJson};

std::optional<OptionValue> read_prompt_format(std::string_view text) {
  for (OutputFormat format : kPromptFormats) {
    if (name_of(kFormatNames, format) == text) return std::string(text);
  }
  return std::nullopt;
}

// Seconds the prompt takes: a number, 0 or more.
std::optional<OptionValue> read_seconds(std::string_view text) {
  double value = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || stop != end || !(value >= 0) ||
      value > kMostSeconds) {
    return std::nullopt;
  }
  return value;
}

// Why a --recency or --as-of value is refused, or empty.
template <class Parse>
std::string refusal(Parse parse, std::string_view text) {
  try {
    parse(text);
    return "";
  } catch (const ConfigError& error) {
    return error.what();
  }
}

std::string check_half_life(std::string_view text) { return refusal(parse_half_life, text); }
std::string check_as_of(std::string_view text) { return refusal(parse_as_of, text); }

std::optional<OptionValue> read_half_life(std::string_view text) {
  if (!check_half_life(text).empty() || text.empty()) return std::nullopt;
  return std::string(text);
}

// Alone, :as-of counts from now.
std::optional<OptionValue> read_as_of(std::string_view text) {
  if (!check_as_of(text).empty()) return std::nullopt;
  return std::string(text);
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
using option_value::number;
using option_value::number_text;
using option_value::text;

SearchOptions& search(QuarryOptions& options) { return options.session.search; }
const SearchOptions& search(const QuarryOptions& options) { return options.session.search; }

std::vector<SearchOption> make_table() {
  using enum ValueKind;
  std::vector<SearchOption> table = {
      {.name = "db",
       .kind = kPaths,
       .commands = kBothCommands | kAlertCommand,
       .help = "Index folder, or Xapian stub file naming shards; several are searched as one "
               "(default: $QUARRY_DB, else $XDG_DATA_HOME/quarry/index)",
       .serve_help = "Index folder, or Xapian stub file naming shards; several are served as "
                     "one (default: $QUARRY_DB, else $XDG_DATA_HOME/quarry/index)",
       .value_name = "PATH",
       .set = [](QuarryOptions& o,
                 const OptionValue& v) { o.db_paths = std::get<std::vector<std::string>>(v); }},
      {.name = "allow-partial",
       .commands = kBothCommands,
       .help = "When some shards do not answer, search the others and warn",
       .set = [](QuarryOptions& o, const OptionValue& v) { o.open.allow_partial = flag(v); }},
      {.name = "connect-timeout",
       .kind = kNumber,
       .commands = kBothCommands,
       .help = "Seconds to wait for a remote shard to accept a connection (0: for ever)",
       .value_name = "SECONDS",
       .set = [](QuarryOptions& o, const OptionValue& v) { o.open.connect_timeout = number(v); },
       .show = [](const QuarryOptions& o) { return number_text(o.open.connect_timeout); }},
      {.name = "timeout",
       .kind = kNumber,
       .commands = kBothCommands,
       .help = "Seconds to wait for any one answer from a remote shard (0: for ever)",
       .value_name = "SECONDS",
       .set = [](QuarryOptions& o, const OptionValue& v) { o.open.timeout = number(v); },
       .show = [](const QuarryOptions& o) { return number_text(o.open.timeout); }},
      {.name = "limit",
       .short_name = 'n',
       .kind = kCount,
       .help = "Hits per query",
       .http = "n",
       .http_most = kMaxHitsPerPage,
       .prompt = ":limit",
       .prompt_usage = ":limit needs a number of hits, such as :limit 20",
       .prompt_read = read_positive_count,
       .prompt_confirm =
           [](const QuarryOptions& o) {
             return hits_text(search(o).limit) + " a page, from the next query";
           },
       .set = [](QuarryOptions& o, const OptionValue& v) { search(o).limit = count(v); },
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
       .prompt_usage = ":format takes " + std::string(name_of(kFormatNames, kPromptFormats[0])) +
                       " or " + std::string(name_of(kFormatNames, kPromptFormats[1])),
       .prompt_read = read_prompt_format,
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
      {.name = "match",
       .kind = kChoice,
       .commands = kSearchCommand | kAlertCommand,
       .help = "Free words: any may match, or all must; auto: all when sorted by date, any "
               "when ranked by relevance (OR in the query still joins alternatives)",
       .values = names_of(kMatchNames),
       .http = "match",
       .set =
           [](QuarryOptions& o, const OptionValue& v) {
             search(o).parser.match = *value_named(kMatchNames, text(v));
           },
       .show =
           [](const QuarryOptions& o) {
             return std::string(name_of(kMatchNames, search(o).parser.match));
           }},
      {.name = "language",
       .kind = kText,
       .commands = kSearchCommand | kAlertCommand,
       .help = "Search in one language only: its words stand for their forms in that "
               "language, and only its articles match (ISO 639-1 code or name: fr, french); "
               "default: every language the index holds",
       .values = language_codes(),
       .value_name = "LANG",
       .http = "language",
       .prompt = ":language",
       .prompt_usage = ":language takes a language, by its ISO 639-1 code or its name, such as "
                       ":language fr; alone, every language",
       .prompt_read = read_language,
       .prompt_confirm =
           [](const QuarryOptions& o) {
             const std::string& language = search(o).parser.language;
             return (language.empty() ? std::string("searches in every language")
                                      : "searches in " + stemmer_language(language) + " only") +
                    ", from the next query";
           },
       .set =
           [](QuarryOptions& o, const OptionValue& v) {
             const std::string why = check_language(text(v));
             if (!why.empty()) throw ConfigError(why);
             search(o).parser.language = text(v);
           }},
      {.name = "sort",
       .kind = kChoice,
       .help = "Order: relevance, date (oldest first), -date; sorted by date, every free word "
               "must match (--match any: any)",
       .values = names_of(kSortNames),
       .http = "sort",
       .set = [](QuarryOptions& o, const OptionValue& v) { search(o).sort = *sort_named(text(v)); },
       .show = [](const QuarryOptions& o) { return std::string(sort_name(search(o).sort)); }},
      {.name = "recency",
       .kind = kText,
       .help = "Rank newer articles higher: relevance halves with every DURATION of an "
               "article's age (a number and s, m, h, d or w: 7d, 12h; off), from now or "
               "--as-of; undated articles count as ten half-lives old; by relevance only",
       .values = {kRecencyOff},
       .value_name = "DURATION",
       .http = "recency",
       .prompt = ":recency",
       .prompt_usage = ":recency needs a half-life, such as :recency 7d, or off",
       .prompt_read = read_half_life,
       .prompt_confirm =
           [](const QuarryOptions& o) {
             const double half_life = search(o).recency.half_life;
             return (half_life > 0 ? "relevance halves every " + half_life_words(half_life) +
                                         " of an article's age"
                                   : std::string("ranked by relevance alone")) +
                    ", from the next query";
           },
       .check = check_half_life,
       .set = [](QuarryOptions& o,
                 const OptionValue& v) { search(o).recency.half_life = parse_half_life(text(v)); },
       .show = [](const QuarryOptions& o) { return half_life_text(search(o).recency.half_life); }},
      {.name = "as-of",
       .kind = kText,
       .help = "Count --recency's ages from this ISO 8601 date or date-time (2024-05-01, "
               "2024-05-01T12:00Z) rather than now, for runs that can be repeated",
       .values = {"now"},
       .value_name = "DATE",
       .http = "as_of",
       .prompt = ":as-of",
       .prompt_usage = ":as-of needs an ISO 8601 date, such as :as-of 2024-05-01; alone, now",
       .prompt_read = read_as_of,
       .prompt_confirm =
           [](const QuarryOptions& o) {
             return std::string(search(o).recency.as_of ? "ages counted from the date given"
                                                        : "ages counted from now") +
                    ", from the next query";
           },
       .check = check_as_of,
       .set = [](QuarryOptions& o,
                 const OptionValue& v) { search(o).recency.as_of = parse_as_of(text(v)); }},
      {.name = "collapse",
       .kind = kChoice,
       .help = "Show each story once (story), each group of near-duplicates once "
               "(duplicates), or every article (none); --format trec and --plain: none",
       .values = names_of(kCollapseNames),
       .http = "collapse",
       .set = [](QuarryOptions& o,
                 const OptionValue& v) { search(o).collapse.by = *collapse_named(text(v)); },
       .show =
           [](const QuarryOptions& o) {
             return std::string(collapse_name(search(o).collapse.by));
           }},
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
       .http = "time_limit",
       .http_most = kMostSeconds,
       .prompt = ":time-limit",
       .prompt_usage = ":time-limit needs a number of seconds, such as :time-limit 2 (0: no limit)",
       .prompt_read = read_seconds,
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
      {.name = "facets",
       .kind = kList,
       .help = "Count all matches by these fields: source,category,language,date (dates by "
               "month, or by year over long spans)",
       .values = facet_names(),
       .value_name = "FIELDS",
       .http = "facets",
       .set = [](QuarryOptions& o,
                 const OptionValue& v) { search(o).facets.fields = parse_facet_fields(text(v)); }},
      {.name = "correct",
       .kind = kChoice,
       .help = "Search the spelling suggestion instead of the query: never, auto (when the "
               "suggestion finds something, and ten times as many articles as the query), or "
               "always",
       .values = names_of(kCorrectionNames),
       .http = "correct",
       .set =
           [](QuarryOptions& o, const OptionValue& v) {
             search(o).spelling.correct = *value_named(kCorrectionNames, text(v));
           },
       .show =
           [](const QuarryOptions& o) {
             return std::string(name_of(kCorrectionNames, search(o).spelling.correct));
           }},
      {.name = "strict",
       .commands = kSearchCommand | kAlertCommand,
       .help = "Refuse a query that cannot be parsed (exit 2) instead of searching its words",
       .http = "strict",
       .set =
           [](QuarryOptions& o, const OptionValue& v) {
             // Plain words have no syntax to be strict about: --plain wins.
             ParseMode& parse = search(o).parse;
             if (flag(v) && parse != ParseMode::kPlain) parse = ParseMode::kStrict;
             if (!flag(v) && parse == ParseMode::kStrict) parse = ParseMode::kQueryOrPlain;
           }},
      {.name = "plain",
       .commands = kSearchCommand | kAlertCommand,
       .help = "Take queries as plain words, with no syntax (natural-language queries)",
       .http = "plain",
       .set =
           [](QuarryOptions& o, const OptionValue& v) {
             ParseMode& parse = search(o).parse;
             if (flag(v)) parse = ParseMode::kPlain;
             if (!flag(v) && parse == ParseMode::kPlain) parse = ParseMode::kQueryOrPlain;
           }},
      {.name = "explain",
       .help = "Show what each query term added to each hit's score",
       .http = "explain",
       .set = [](QuarryOptions& o, const OptionValue& v) { search(o).explain.enabled = flag(v); }},
      {.name = "weight",
       .kind = kText,
       .help = "Ranking scheme: " + ranking_schemes(),
       .values = scheme_names(),
       .value_name = "SCHEME",
       .http = "weight",
       .set = [](QuarryOptions& o, const OptionValue& v) { search(o).ranking.scheme = text(v); },
       .show = [](const QuarryOptions& o) { return search(o).ranking.scheme; }},
      {.name = "bm25",
       .kind = kList,
       .help = "BM25 parameters (default k1=1.5,b=0.6), e.g. k1=1.2,b=0.75",
       .value_name = "PARAMETERS",
       .http = "bm25",
       .set =
           [](QuarryOptions& o, const OptionValue& v) {
             // Nothing given is nothing to check against the scheme.
             if (text(v).empty()) return;
             o.bm25_given = true;
             parse_ranking_parameters(text(v), &search(o).ranking);
           }},
      {.name = "title-weight",
       .kind = kNumber,
       .help = "Extra weight of query words found in titles",
       .value_name = "WEIGHT",
       .http = "title_weight",
       .http_most = 1e6,
       .set = [](QuarryOptions& o,
                 const OptionValue& v) { search(o).parser.title_weight = number(v); },
       .show = [](const QuarryOptions& o) { return number_text(search(o).parser.title_weight); }},
      {.name = "feedback",
       .kind = kList,
       .help = "Pseudo-relevance feedback: auto (for queries of 8 plain words or more), on, "
               "off, and parameters docs=N,terms=N,weight=W,power=P,min_words=N",
       .values = names_of(kFeedbackModeNames),
       .value_name = "MODE",
       .http = "feedback",
       .set = [](QuarryOptions& o,
                 const OptionValue& v) { parse_feedback(text(v), &search(o).feedback); },
       .show =
           [](const QuarryOptions& o) {
             return std::string(name_of(kFeedbackModeNames, search(o).feedback.mode));
           }},
      {.name = "like",
       .kind = kText,
       .help = "Find articles like the one of this ID (not itself); a QUERY narrows them",
       .value_name = "ID",
       .http = "like",
       .set = [](QuarryOptions& o, const OptionValue& v) { search(o).like.id = text(v); }},
  };
  for (SearchOption& row : serve_option_rows()) table.push_back(std::move(row));
  return table;
}

}  // namespace

std::string option_value::number_text(double value) {
  std::ostringstream text;
  text << value;
  return text.str();
}

QuarryOptions::QuarryOptions() : db_paths{default_index_path()} {
  // The programs show each story once unless told otherwise; the library
  // leaves the choice to its caller.
  session.search.collapse.by = Collapse::kStory;
  session.search.time_limit = kSearchTimeLimit;
}

std::string SearchOption::short_flag() const {
  return short_name ? std::string{'-', short_name} : std::string();
}

const std::vector<SearchOption>& search_option_table() {
  static const std::vector<SearchOption> kTable = make_table();
  return kTable;
}

const SearchOption* option_of_parameter(std::string_view parameter) {
  for (const SearchOption& option : search_option_table()) {
    if (!option.http.empty() && option.http == parameter) return &option;
  }
  return nullptr;
}

const SearchOption* option_of_prompt_command(std::string_view command) {
  for (const SearchOption& option : search_option_table()) {
    if (!option.prompt.empty() && option.prompt == command) return &option;
  }
  return nullptr;
}

const SearchOption* option_named(std::string_view name, Command command) {
  for (const SearchOption& option : search_option_table()) {
    if (option.name == name && option.belongs_to(command)) return &option;
  }
  return nullptr;
}

bool takes_plain_words(const QuarryOptions& options) {
  return search(options).parse == ParseMode::kPlain;
}

bool searches_like(const QuarryOptions& options) { return !search(options).like.id.empty(); }

std::string default_of(const SearchOption& option) {
  static const QuarryOptions kDefaults;
  return option.show ? option.show(kDefaults) : std::string();
}

std::string value_name_of(const SearchOption& option) {
  if (!option.value_name.empty()) return std::string(option.value_name);
  switch (option.kind) {
    case ValueKind::kFlag:
      return "";
    case ValueKind::kCount:
      return "N";
    case ValueKind::kNumber:
      return "NUMBER";
    case ValueKind::kChoice: {
      std::string names;
      for (std::string_view value : option.values) {
        names += (names.empty() ? "" : "|") + std::string(value);
      }
      return names;
    }
    case ValueKind::kList:
      return "LIST";
    case ValueKind::kText:
      return "TEXT";
    case ValueKind::kPath:
    case ValueKind::kPaths:
      return "PATH";
  }
  return "";
}

}  // namespace quarry
