#include "app/common/option_rules.h"

#include <cmath>

#include "app/common/option_reader.h"
#include "quarry/search/ranking.h"

namespace quarry {
namespace {

const SearchOption& search_option(std::string_view name) {
  return *option_named(name, kSearchCommand);
}

// "--bm25 goes with --weight bm25 or bm25+".
OptionError rule_error(const OptionNaming& naming, std::string_view subject,
                       const std::string& rest) {
  return OptionError(naming.subject(search_option(subject)) + " " + rest);
}

std::string join_words(const std::vector<std::string>& words) {
  std::string query;
  for (const std::string& word : words) query += (query.empty() ? "" : " ") + word;
  return query;
}

}  // namespace

const OptionNaming kCommandLineNaming = {
    FrontEnd::kCommandLine, [](const SearchOption& option) { return option.long_flag(); },
    [](const SearchOption& option) { return option.long_flag(); }};

const OptionNaming kHttpNaming = {
    FrontEnd::kHttp,
    [](const SearchOption& option) { return "parameter " + std::string(option.http); },
    [](const SearchOption& option) { return std::string(option.http); }};

const OptionNaming kPromptNaming = {
    FrontEnd::kPrompt, [](const SearchOption& option) { return std::string(option.prompt); },
    [](const SearchOption& option) { return std::string(option.prompt); }};

void set_option(const SearchOption& option, const OptionValue& value, QuarryOptions& options,
                const OptionNaming& naming) {
  try {
    option.set(options, value);
  } catch (const ConfigError& error) {
    throw OptionError(naming.subject(option) + ": " + error.what());
  }
}

void resolve_search(QuarryOptions& options, const OptionNaming& naming) {
  SearchOptions& search = options.session.search;
  if (options.bm25_given && !takes_bm25_parameters(search.ranking.scheme)) {
    throw rule_error(naming, "bm25",
                     "goes with " + naming.mention(search_option("weight")) + " " + bm25_schemes());
  }
  try {
    check_ranking(search.ranking);
  } catch (const ConfigError& error) {
    // The parameters given are at fault when there are some.
    const SearchOption& blamed = search_option(options.bm25_given ? "bm25" : "weight");
    throw OptionError(naming.subject(blamed) + ": " + error.what());
  }
  if (takes_plain_words(options)) search.collapse.by = Collapse::kNone;
}

QuarryMode mode_of(const QuarryOptions& options, bool input_is_terminal) {
  if (!options.batch_file.empty()) return QuarryMode::kBatch;
  if (options.count) return QuarryMode::kCount;
  if (!options.query_words.empty() || searches_like(options)) {
    return QuarryMode::kQuery;
  }
  if (input_is_terminal) return QuarryMode::kPrompt;
  return options.interactive ? QuarryMode::kPromptScript : QuarryMode::kLines;
}

void resolve_quarry(QuarryOptions& options, bool input_is_terminal) {
  const OptionNaming& naming = kCommandLineNaming;
  resolve_search(options, naming);
  const QuarryMode mode = mode_of(options, input_is_terminal);
  if (!options.format) {
    options.format = mode == QuarryMode::kBatch ? OutputFormat::kJson : OutputFormat::kText;
  }
  const bool trec = options.format == OutputFormat::kTrec;
  const std::string format = naming.mention(search_option("format"));
  const std::string batch = naming.mention(search_option("batch"));
  const std::string trec_format =
      format + " " + std::string(name_of(kFormatNames, OutputFormat::kTrec));
  if (trec && mode != QuarryMode::kBatch && mode != QuarryMode::kLines) {
    throw OptionError(trec_format + " needs " + batch + ", or queries on standard input");
  }
  if (!options.run_tag.empty() && !trec)
    throw rule_error(naming, "run-tag", "goes with " + trec_format);
  // Evaluation judges every article ranked: TREC runs never collapse, and
  // have no room for snippets.
  if (trec) {
    options.session.search.collapse.by = Collapse::kNone;
    options.session.search.snippets.enabled = false;
    if (!options.limit_given) options.session.search.limit = kTrecRunDepth;
  }
  const std::string count = naming.mention(search_option("count"));
  const bool query = !options.query_words.empty();
  const bool batched = !options.batch_file.empty();
  if (options.count && (!query || batched)) {
    throw OptionError(count + " needs a QUERY (and no " + batch + ")");
  }
  const std::string interactive = search_option("interactive").short_flag();
  if (options.interactive && batched) {
    throw OptionError(interactive + " and " + batch + " do not go together");
  }
  // A QUERY beside --batch or -i would be dropped without a word.
  const std::string ignored = ": QUERY '" + join_words(options.query_words) + "' would be ignored";
  if (query && batched && !options.count) {
    throw OptionError(batch + " reads its queries from " + options.batch_file + ignored);
  }
  if (query && options.interactive) throw OptionError(interactive + " opens the prompt" + ignored);
}

std::string set_by_prompt_command(const SearchOption& option, std::string_view argument,
                                  SessionConfig& session) {
  QuarryOptions options;
  options.session = session;
  try {
    set_option(option, read_option_value(option, argument, kPromptNaming), options, kPromptNaming);
  } catch (const OptionError& error) {
    throw OptionError(std::string(error.what()) + "; for example " + option.prompt_usage);
  }
  session = options.session;
  return option.prompt_confirm(options);
}

}  // namespace quarry
