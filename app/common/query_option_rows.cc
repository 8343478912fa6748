#include <algorithm>
#include <sstream>
#include <string>

#include "app/common/option_rows.h"
#include "quarry/text/analyzer.h"
#include "quarry/text/language_identifier.h"

namespace quarry {
namespace {

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
std::string language_refusal(std::string_view language) {
  if (language.empty() || !stemmer_language(language).empty()) return "";
  return "no language '" + std::string(language) +
         "': name one by its ISO 639-1 code (fr) or its name (french)";
}

using option_value::flag;
using option_value::text;

}  // namespace

std::vector<SearchOption> matching_option_rows() {
  using enum ValueKind;
  return {
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
       .prompt_usage = ":language fr, or :language alone for every language",
       .prompt_confirm =
           [](const QuarryOptions& o) {
             const std::string& language = search(o).parser.language;
             return (language.empty() ? std::string("searches in every language")
                                      : "searches in " + stemmer_language(language) + " only") +
                    ", from the next query";
           },
       .check = language_refusal,
       .set = [](QuarryOptions& o, const OptionValue& v) { search(o).parser.language = text(v); }},
  };
}

std::vector<SearchOption> query_option_rows() {
  using enum ValueKind;
  return {
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
  };
}

}  // namespace quarry
