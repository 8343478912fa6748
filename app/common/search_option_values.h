// The values quarry's options take, each spelled once: the names of sort
// orders, ways of collapsing, output formats …, and the syntax of the
// options that take a list (--feedback, --bm25, --facets). The command
// line, the HTTP API, the prompt and the search page all read them here.
#ifndef QUARRY_APP_COMMON_SEARCH_OPTION_VALUES_H_
#define QUARRY_APP_COMMON_SEARCH_OPTION_VALUES_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/common/printer.h"
#include "quarry/search/facet.h"
#include "quarry/search/feedback.h"
#include "quarry/search/ranking.h"
#include "quarry/search/searcher.h"
#include "quarry/value_names.h"

namespace quarry {

// When matches are highlighted in colour (--color).
enum class ColorMode { kAuto, kAlways, kNever };

// The words of the options that say when: --color, --correct, --feedback.
inline constexpr std::string_view kAlways = "always";
inline constexpr std::string_view kAuto = "auto";
inline constexpr std::string_view kNever = "never";

// Each list in the order help, errors and completion show it.
inline constexpr ValueName<SortOrder> kSortNames[] = {{SortOrder::kRelevance, "relevance"},
                                                      {SortOrder::kOldestFirst, "date"},
                                                      {SortOrder::kNewestFirst, "-date"}};
inline constexpr ValueName<Collapse> kCollapseNames[] = {
    {Collapse::kStory, "story"}, {Collapse::kDuplicates, "duplicates"}, {Collapse::kNone, "none"}};
inline constexpr ValueName<Correction> kCorrectionNames[] = {
    {Correction::kNever, kNever}, {Correction::kAuto, kAuto}, {Correction::kAlways, kAlways}};
inline constexpr ValueName<MatchMode> kMatchNames[] = {
    {MatchMode::kAuto, "auto"}, {MatchMode::kAny, "any"}, {MatchMode::kAll, "all"}};
inline constexpr ValueName<FeedbackMode> kFeedbackModeNames[] = {
    {FeedbackMode::kOn, "on"}, {FeedbackMode::kOff, "off"}, {FeedbackMode::kAuto, kAuto}};
inline constexpr ValueName<OutputFormat> kFormatNames[] = {
    {OutputFormat::kText, "text"}, {OutputFormat::kJson, "json"}, {OutputFormat::kTrec, "trec"}};
inline constexpr ValueName<ColorMode> kColorNames[] = {
    {ColorMode::kAuto, kAuto}, {ColorMode::kAlways, kAlways}, {ColorMode::kNever, kNever}};

// --recency: a half-life is a positive number and one of these units
// ("7d", "12h", "1.5w"); "off" takes recency away.
struct HalfLifeUnit {
  char letter;
  double seconds;
};
inline constexpr HalfLifeUnit kHalfLifeUnits[] = {
    {'s', 1}, {'m', 60}, {'h', 3600}, {'d', 86400}, {'w', 604800}};
inline constexpr std::string_view kRecencyOff = "off";

// The half-life `text` gives, in seconds; 0 for "off". Throws ConfigError
// naming the text otherwise.
double parse_half_life(std::string_view text);
// Seconds as --recency would give them ("7d", "90m"; "off" for 0).
std::string half_life_text(double seconds);
// Seconds (more than 0) in words, in the largest unit that counts them
// whole, as they follow "every": "week" (7d), "2 weeks", "36 hours" (1.5d),
// "90 minutes".
std::string half_life_words(double seconds);
// The instant --as-of names (quarry/search/recency.h's instant_of); none
// for "now" or nothing. Throws ConfigError naming the text otherwise.
std::optional<std::int64_t> parse_as_of(std::string_view text);

// The names `quarry --sort`/`--collapse` and the HTTP API's `sort` and
// `collapse` give these values, and back; nothing for a name that is none
// of them.
std::string_view sort_name(SortOrder sort);
std::optional<SortOrder> sort_named(std::string_view name);
std::string_view collapse_name(Collapse collapse);
std::optional<Collapse> collapse_named(std::string_view name);

// The fields of a comma-separated list ("source,category,date"), in its
// order, each once. Throws ConfigError naming an unknown field.
std::vector<FacetField> parse_facet_fields(std::string_view list);

// Every facet field's name, in order: "source", "category", "language",
// "date" (kFacetNames).
std::vector<std::string_view> facet_names();

// Reads a mode ("on", "off", "auto") and parameters
// ("docs=10,terms=20,weight=0.5,power=4", also min_matches and min_words),
// in any order, into `config`: "on,docs=5". Throws ConfigError naming the
// part at fault.
void parse_feedback(std::string_view text, FeedbackConfig* config);

// Parses "k1=1.2,b=0.75" into `config->parameters`. Throws ConfigError
// naming the part at fault.
void parse_ranking_parameters(std::string_view text, RankingConfig* config);

// Whether --bm25's parameters go with `scheme`: BM25 and BM25+ alone take
// them.
bool takes_bm25_parameters(std::string_view scheme);
// Those schemes, for messages: "bm25 or bm25+".
std::string bm25_schemes();

}  // namespace quarry

#endif  // QUARRY_APP_COMMON_SEARCH_OPTION_VALUES_H_
