// quarry: searches a Quarry index — one query given as arguments, an
// interactive prompt, queries piped in one per line, or a batch run.
#include <sys/ioctl.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string_view>

#include "app/batch.h"
#include "app/index_location.h"
#include "app/prompt.h"
#include "app/terminal_prompt.h"
#include "app/version_text.h"
#include "quarry/error.h"
#include "quarry/search/facet.h"
#include "quarry/search/feedback.h"
#include "quarry/search/ranking.h"
#include "query/serve_command.h"
#include "query/whole_number.h"

namespace {

using quarry::whole_number;

constexpr char kProgram[] = "quarry";

constexpr char kFooter[] = R"(Query language:
  Ederson Portuguese          any word may match; more and rarer words rank first
  "dressing room"             a phrase; dressing-room and 2-1 are phrases too
  +Mourinho -milk             must / must not match
  penalty AND (Herrera OR Ederson) NOT Silva     also XOR
  Mourinho NEAR/5 milk        within 5 words, any order (ADJ: in order)
  kraan NEAR (elektrisch OR electrisch)          either word near the other
  Manches*                    words that start so
  title:derby  source:"Press Association"  category:sport  id:001.txt
  date:2017-12-10  date:2017-12-01..2017-12-31  after:2017-12-01  before:2018
A query that cannot be parsed is searched as plain words, with a warning
saying why (--strict: exit 2 instead). A query that starts with '-' goes after '--':
  quarry -- -milk Mourinho
With no QUERY, quarry opens a prompt on a terminal (:help lists its commands).
Otherwise it answers each line of standard input as --batch - does, one answer
per line as it is read: text headed "Query N: ..." (N: the line's number, or
the qid of a 'qid<TAB>query' line), or with --format json, JSON Lines. -i reads
the prompt's queries and commands from standard input instead.
Shards: --db may be given several times, and may name a Xapian stub file (or a
folder holding one, as quarry-index --shards writes) with lines such as
  auto shard-0                a local database, relative to the stub file
  remote 10.0.0.2:5001        a database served by xapian-tcpsrv
All are searched as one index.
Exit codes:
  0  success, including no hits (with --allow-partial, from the shards that answered)
  1  the index is missing or cannot be read, a shard is unreachable
     (without --allow-partial), or the --batch file cannot be read
  2  usage error, --like an ID the index does not hold, or with --strict a
     query (or of several, some query) that cannot be parsed
quarry serve serves the index over HTTP (quarry serve --help); quarry -- serve
searches for the word.)";

struct Options {
  std::vector<std::string> db_paths{quarry::default_index_path()};
  quarry::OpenOptions open;
  quarry::SessionConfig session;
  std::string format;   // empty: text, or JSON Lines with --batch
  std::string run_tag;  // empty: "quarry"
  std::string color = "auto";
  std::vector<std::string> words;
  bool interactive = false;
  std::string batch_file;
  std::size_t threads = 0;
  bool no_snippets = false;
  bool no_timings = false;
  std::string match = "any";
  std::string sort = "relevance";
  std::string bm25;
  std::string facets;
  std::string correct = "auto";
  std::string collapse = "story";
  std::string feedback = "auto";
  bool count = false;
  bool strict = false;
  bool plain = false;
};

// A run tag is the last field of a TREC line, which is split on white space.
const CLI::Validator kRunTag(
    [](const std::string& text) -> std::string {
      if (text.empty() || text.find_first_of(" \t\r\n") != std::string::npos) {
        return "a run tag is one word, with no spaces";
      }
      return "";
    },
    "NAME");

// One line, named after the program, as every other diagnostic.
std::string option_error(const CLI::App* /*app*/, const CLI::Error& error) {
  return std::string(kProgram) + ": " + error.what() + " (quarry --help lists the options)\n";
}

bool use_color(const std::string& mode) {
  if (mode == "always") return true;
  if (mode == "never") return false;
  const char* no_color = std::getenv("NO_COLOR");
  return isatty(STDOUT_FILENO) && !(no_color && *no_color);
}

std::string join(const std::vector<std::string>& words) {
  std::string query;
  for (const std::string& word : words) query += (query.empty() ? "" : " ") + word;
  return query;
}

// The size of the terminal standard output is, or 0 by 0 when it is none.
winsize terminal_size() {
  winsize size{};
  if (!isatty(STDOUT_FILENO)) return size;
  if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) != 0 || size.ws_row == 0 || size.ws_col == 0) {
    size.ws_row = 24;
    size.ws_col = 80;
  }
  return size;
}

// Where the queries come from and how they are answered.
enum class Mode {
  kQuery,         // QUERY given
  kCount,         // --count QUERY
  kBatch,         // --batch FILE
  kPrompt,        // the prompt, on a terminal
  kPromptScript,  // -i with standard input not a terminal: the prompt's lines
  kLines,         // standard input not a terminal: a line, an answer
};

Mode mode_of(const Options& options) {
  if (!options.batch_file.empty()) return Mode::kBatch;
  if (options.count) return Mode::kCount;
  if (!options.words.empty() || !options.session.search.like.id.empty()) return Mode::kQuery;
  if (isatty(STDIN_FILENO)) return Mode::kPrompt;
  return options.interactive ? Mode::kPromptScript : Mode::kLines;
}

quarry::BatchConfig batch_config(const Options& options) {
  quarry::BatchConfig config;
  config.db_paths = options.db_paths;
  config.open = options.open;
  config.search = options.session.search;
  config.format = options.format == "trec"   ? quarry::OutputFormat::kTrec
                  : options.format == "text" ? quarry::OutputFormat::kText
                                             : quarry::OutputFormat::kJson;
  // A TREC run has no room for snippets: skip the work.
  config.search.snippets.enabled =
      !options.no_snippets && config.format != quarry::OutputFormat::kTrec;
  config.threads = options.threads;
  config.timings = !options.no_timings;
  if (!options.run_tag.empty()) config.run_tag = options.run_tag;
  config.style = options.session.style;
  return config;
}

int run_batch(const Options& options) {
  std::ifstream file;
  if (options.batch_file != "-") {
    // A folder opens as a file would, and then reads as empty.
    std::error_code ignored;
    if (std::filesystem::is_directory(options.batch_file, ignored))
      errno = EISDIR;
    else
      file.open(options.batch_file);
    if (!file.is_open()) {
      throw quarry::InputError("cannot read " + options.batch_file + ": " + std::strerror(errno));
    }
  }
  std::istream& in = options.batch_file == "-" ? std::cin : file;
  const quarry::BatchReport report =
      quarry::run_batch(batch_config(options), in, std::cout, std::cerr, kProgram);
  return report.failed == 0 ? 0 : 2;
}

// Settles what the options mean together; throws CLI::ValidationError.
void resolve(Options& options) {
  quarry::SearchOptions& search = options.session.search;
  search.snippets.enabled = !options.no_snippets;
  search.parser.match = options.match == "all" ? quarry::MatchMode::kAll : quarry::MatchMode::kAny;
  search.sort = quarry::sort_named(options.sort).value_or(quarry::SortOrder::kRelevance);
  search.spelling.correct = options.correct == "never"    ? quarry::Correction::kNever
                            : options.correct == "always" ? quarry::Correction::kAlways
                                                          : quarry::Correction::kAuto;
  if (!options.bm25.empty()) {
    if (search.ranking.scheme != "bm25" && search.ranking.scheme != "bm25+") {
      throw CLI::ValidationError("--bm25 goes with --weight bm25 or bm25+");
    }
    try {
      quarry::parse_ranking_parameters(options.bm25, &search.ranking);
    } catch (const quarry::ConfigError& error) {
      throw CLI::ValidationError("--bm25", error.what());
    }
  }
  try {
    quarry::check_ranking(search.ranking);
  } catch (const quarry::ConfigError& error) {
    throw CLI::ValidationError("--weight", error.what());
  }
  try {
    if (!options.feedback.empty()) quarry::parse_feedback(options.feedback, &search.feedback);
  } catch (const quarry::ConfigError& error) {
    throw CLI::ValidationError("--feedback", error.what());
  }
  const Mode mode = mode_of(options);
  if (options.format.empty()) options.format = mode == Mode::kBatch ? "json" : "text";
  if (options.format == "trec" && mode != Mode::kBatch && mode != Mode::kLines) {
    throw CLI::ValidationError("--format trec needs --batch, or queries on standard input");
  }
  if (!options.run_tag.empty() && options.format != "trec") {
    throw CLI::ValidationError("--run-tag goes with --format trec");
  }
  search.parse = options.plain    ? quarry::ParseMode::kPlain
                 : options.strict ? quarry::ParseMode::kStrict
                                  : quarry::ParseMode::kQueryOrPlain;
  search.collapse.by = quarry::collapse_named(options.collapse).value_or(quarry::Collapse::kStory);
  // Evaluation judges every article ranked: TREC and plain-words runs
  // never collapse.
  if (options.format == "trec" || options.plain) search.collapse.by = quarry::Collapse::kNone;
  try {
    search.facets.fields = quarry::parse_facet_fields(options.facets);
  } catch (const quarry::ConfigError& error) {
    throw CLI::ValidationError("--facets", error.what());
  }
  if (options.count && (options.words.empty() || !options.batch_file.empty())) {
    throw CLI::ValidationError("--count needs a QUERY (and no --batch)");
  }
  if (options.interactive && !options.batch_file.empty()) {
    throw CLI::ValidationError("-i and --batch do not go together");
  }
  // A QUERY beside --batch or -i would be dropped without a word.
  if (!options.words.empty() && !options.batch_file.empty() && !options.count) {
    throw CLI::ValidationError("--batch reads its queries from " + options.batch_file +
                               ": QUERY '" + join(options.words) + "' would be ignored");
  }
  if (!options.words.empty() && options.interactive) {
    throw CLI::ValidationError("-i opens the prompt: QUERY '" + join(options.words) +
                               "' would be ignored");
  }
}

int run(Options& options) {
  resolve(options);
  const Mode mode = mode_of(options);
  options.session.format =
      options.format == "json" ? quarry::OutputFormat::kJson : quarry::OutputFormat::kText;
  options.session.style.color = use_color(options.color);
  const winsize terminal = terminal_size();
  options.session.style.width = terminal.ws_col;
  if (mode == Mode::kBatch) return run_batch(options);

  quarry::Searcher searcher(options.db_paths, options.open);
  switch (mode) {
    case Mode::kCount:
    case Mode::kQuery: {
      const auto answer = mode == Mode::kCount ? quarry::answer_count : quarry::answer_query;
      return answer(searcher, join(options.words), options.session, std::cout, std::cerr,
                    kProgram) == quarry::Answer::kAnswered
                 ? 0
                 : 2;
    }
    case Mode::kLines: {
      const quarry::BatchReport report = quarry::answer_each_line(
          searcher, batch_config(options), std::cin, std::cout, std::cerr, kProgram);
      return report.failed == 0 ? 0 : 2;
    }
    case Mode::kPromptScript:
      return quarry::answer_lines(searcher, std::cin, options.session, std::cout, std::cerr,
                                  kProgram) == 0
                 ? 0
                 : 2;
    case Mode::kPrompt:
    case Mode::kBatch:
      break;
  }
  quarry::PromptConfig config;
  config.session = options.session;
  config.decorations = true;
  const char* pager = std::getenv("PAGER");
  config.pager = pager && *pager ? pager : "less -R";
  config.screen_rows = terminal.ws_row;
  config.screen_columns = terminal.ws_col;
  quarry::PromptSession session(searcher, config, std::cout, std::cerr, kProgram);
  quarry::run_terminal_prompt(session, quarry::default_history_file());
  return 0;
}

// After an option error: a query that starts with '-' (-site:x) reads as
// options, so show the command with the '--' that makes it a query.
void explain_dash_query(int argc, char** argv) {
  std::string command = kProgram;
  bool found = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--") return;
    const bool number = arg.size() > 2 && (arg[1] == 'n' || arg[1] == 'j') &&
                        arg.find_first_not_of("0123456789", 2) == std::string_view::npos;
    if (!found && arg.size() > 2 && arg[0] == '-' && arg[1] != '-' && !number) {
      command += " --";
      found = true;
    }
    const bool quote =
        arg.empty() || arg.find_first_of(" \t\"'$*?&|;<>()") != std::string_view::npos;
    command += quote ? " '" + std::string(arg) + "'" : " " + std::string(arg);
  }
  if (found) {
    std::cerr << kProgram << ": a query that starts with '-' goes after '--': " << command << '\n';
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Search articles indexed by quarry-index.", kProgram};
  app.failure_message(option_error);
  app.set_version_flag(
      "--version", [] { return quarry::version_text(kProgram); },
      "Print the versions of quarry, Xapian and ICU, and exit");
  Options options;
  app.add_option("--db", options.db_paths,
                 "Index folder, or Xapian stub file naming shards; several are searched as one "
                 "(default: $QUARRY_DB, else $XDG_DATA_HOME/quarry/index)")
      // One path per --db, so that the query may follow it.
      ->allow_extra_args(false);
  app.add_flag("--allow-partial", options.open.allow_partial,
               "When some shards do not answer, search the others and warn");
  app.add_option("--connect-timeout", options.open.connect_timeout,
                 "Seconds to wait for a remote shard to accept a connection (0: for ever)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  app.add_option("--timeout", options.open.timeout,
                 "Seconds to wait for any one answer from a remote shard (0: for ever)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  app.add_option("-n,--limit", options.session.search.limit, "Hits per query")
      ->capture_default_str()
      ->check(whole_number(0));
  app.add_option("--offset", options.session.search.offset, "Hits to skip first")
      ->capture_default_str()
      ->check(whole_number(0));
  app.add_option("--format", options.format,
                 "Output: text (default), json (default with --batch: JSON Lines), or trec (a "
                 "TREC run, with --batch or queries on standard input)")
      ->check(CLI::IsMember({"text", "json", "trec"}));
  app.add_option("--run-tag", options.run_tag,
                 "The name a TREC run gives itself, in its last column (default: quarry)")
      ->check(kRunTag);
  app.add_option("--color", options.color,
                 "Highlight matches (auto: on a terminal, unless NO_COLOR is set)")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  app.add_flag("-i,--interactive", options.interactive,
               "Open the prompt; with standard input not a terminal, answer its lines as the "
               "prompt would, commands included");
  app.add_option("--batch", options.batch_file,
                 "Answer one query per line of FILE ('-': standard input) on -j threads, as "
                 "JSON Lines, a TREC run or text (--format); a line 'qid<TAB>query' names its "
                 "query");
  app.add_option("-j,--threads", options.threads,
                 "Threads answering a batch (default: the cores available)")
      ->check(whole_number(0));
  app.add_flag("--no-snippets", options.no_snippets, "Leave snippets out (faster)");
  app.add_flag("--no-timings", options.no_timings,
               "Leave took_ms out of JSON Lines (--batch, queries piped in), so that runs "
               "compare byte for byte");
  app.add_option("--match", options.match, "Free words: any may match, or all must")
      ->check(CLI::IsMember({"any", "all"}))
      ->capture_default_str();
  app.add_option("--sort", options.sort, "Order: relevance, date (oldest first), -date")
      ->check(CLI::IsMember({"relevance", "date", "-date"}))
      ->capture_default_str();
  app.add_option("--collapse", options.collapse,
                 "Show each story once (story), each group of near-duplicates once "
                 "(duplicates), or every article (none); --format trec and --plain: none")
      ->check(CLI::IsMember({"story", "duplicates", "none"}))
      ->capture_default_str();
  app.add_flag("--count", options.count,
               "Print only how many articles match QUERY, counted exactly");
  app.add_option("--count-limit", options.session.search.count_limit,
                 "Count matches exactly up to N; past it, say N+ (\"total_relation\": \"gte\")")
      ->capture_default_str()
      ->check(whole_number(1));
  app.add_option("--facets", options.facets,
                 "Count all matches by these fields: source,category,date (dates by month, "
                 "or by year over long spans)");
  app.add_option("--correct", options.correct,
                 "Search the spelling suggestion instead of the query: never, auto (when the "
                 "query finds nothing and the suggestion finds something), or always")
      ->check(CLI::IsMember({"never", "auto", "always"}))
      ->capture_default_str();
  app.add_flag("--strict", options.strict,
               "Refuse a query that cannot be parsed (exit 2) instead of searching its words");
  app.add_flag("--plain", options.plain,
               "Take queries as plain words, with no syntax (natural-language queries)");
  app.add_flag("--explain", options.session.search.explain.enabled,
               "Show what each query term added to each hit's score");
  app.add_option("--weight", options.session.search.ranking.scheme,
                 "Ranking scheme: " + quarry::ranking_schemes())
      ->capture_default_str();
  app.add_option("--bm25", options.bm25,
                 "BM25 parameters (default k1=1.5,b=0.6), e.g. k1=1.2,b=0.75");
  app.add_option("--title-weight", options.session.search.parser.title_weight,
                 "Extra weight of query words found in titles")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  app.add_option("--feedback", options.feedback,
                 "Pseudo-relevance feedback: auto (for queries of 8 plain words or more), on, "
                 "off, and parameters docs=N,terms=N,weight=W,power=P,min_words=N")
      ->capture_default_str();
  app.add_option("--like", options.session.search.like.id,
                 "Find articles like the one of this ID (not itself); a QUERY narrows them");
  app.add_option("QUERY", options.words, "The query; several arguments are joined with spaces");
  app.footer(kFooter);
  quarry::ServerConfig serve_config;
  CLI::App* serve = quarry::add_serve_command(app, serve_config);
  try {
    app.parse(argc, argv);
    if (serve->parsed()) return quarry::run_serve(app, serve_config, kProgram);
    return run(options);
  } catch (const CLI::ParseError& error) {
    if (app.exit(error) == 0) return 0;
    explain_dash_query(argc, argv);
    return 2;
  } catch (const quarry::ConfigError& error) {
    std::cerr << kProgram << ": " << error.what() << '\n';
    return 2;
  } catch (const quarry::Error& error) {
    std::cerr << kProgram << ": " << error.what() << '\n';
    return 1;
  }
}
