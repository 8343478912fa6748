#include <algorithm>
#include <string>

#include "app/common/option_rows.h"
#include "quarry/error.h"
#include "quarry/search/ranking.h"

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

using option_value::number;
using option_value::number_text;
using option_value::text;

}  // namespace

std::vector<SearchOption> order_option_rows() {
  using enum ValueKind;
  return {
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
       .prompt_usage = ":recency 7d, or :recency off",
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
       .prompt_usage = ":as-of 2024-05-01, or :as-of alone for now",
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
  };
}

std::vector<SearchOption> ranking_option_rows() {
  using enum ValueKind;
  return {
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
       // Far past any weight that ranks well.
       .largest = 1e6,
       .http = "title_weight",
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
}

}  // namespace quarry
