#include "app/terminal/quarry_command.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "app/common/batch.h"
#include "app/common/exit_status.h"
#include "app/common/option_rules.h"
#include "app/terminal/prompt.h"
#include "app/terminal/terminal_prompt.h"
#include "quarry/error.h"

namespace quarry {
namespace {

bool use_color(ColorMode mode, const Terminal& terminal) {
  if (mode != ColorMode::kAuto) return mode == ColorMode::kAlways;
  const char* no_color = std::getenv("NO_COLOR");
  return terminal.output && !(no_color && *no_color);
}

std::string joined_query(const std::vector<std::string>& words) {
  std::string query;
  for (const std::string& word : words) query += (query.empty() ? "" : " ") + word;
  return query;
}

BatchConfig batch_config(const QuarryOptions& options, const SessionConfig& session) {
  BatchConfig config;
  config.db_paths = options.db_paths;
  config.open = options.open;
  config.open.time_limit = session.search.time_limit;
  config.search = session.search;
  config.format = options.format.value_or(OutputFormat::kJson);
  config.threads = options.threads;
  config.timings = options.timings;
  if (!options.run_tag.empty()) config.run_tag = options.run_tag;
  config.style = session.style;
  return config;
}

int status_of(const BatchReport& report) { return report.failed == 0 ? kExitSuccess : kExitUsage; }

int run_batch_file(const QuarryOptions& options, const SessionConfig& session, std::istream& in,
                   std::ostream& out, std::ostream& err, std::string_view program) {
  std::ifstream file;
  const std::string& path = options.batch_file;
  if (path != "-") {
    // A folder opens as a file would, and then reads as empty.
    std::error_code ignored;
    if (std::filesystem::is_directory(path, ignored))
      errno = EISDIR;
    else
      file.open(path);
    if (!file.is_open()) throw InputError("cannot read " + path + ": " + std::strerror(errno));
  }
  return status_of(
      run_batch(batch_config(options, session), path == "-" ? in : file, out, err, program));
}

}  // namespace

int run_quarry(const QuarryOptions& options, const Terminal& terminal, std::istream& in,
               std::ostream& out, std::ostream& err, std::string_view program) {
  const QuarryMode mode = mode_of(options, terminal.input);
  SessionConfig session = options.session;
  session.style.color = use_color(options.color, terminal);
  session.style.width = terminal.columns;
  if (mode == QuarryMode::kBatch) return run_batch_file(options, session, in, out, err, program);

  OpenOptions open = options.open;
  // A hung replica is waited for its share of the time limit, not longer.
  open.time_limit = session.search.time_limit;
  Searcher searcher(options.db_paths, open);
  switch (mode) {
    case QuarryMode::kCount:
    case QuarryMode::kQuery: {
      const auto answer = mode == QuarryMode::kCount ? answer_count : answer_query;
      const std::string query = joined_query(options.query_words);
      return answer(searcher, query, session, out, err, program) == Answer::kAnswered ? kExitSuccess
                                                                                      : kExitUsage;
    }
    case QuarryMode::kLines:
      return status_of(
          answer_each_line(searcher, batch_config(options, session), in, out, err, program));
    case QuarryMode::kPromptScript:
      return answer_lines(searcher, in, session, out, err, program) == 0 ? kExitSuccess
                                                                         : kExitUsage;
    case QuarryMode::kPrompt:
    case QuarryMode::kBatch:
      break;
  }
  PromptConfig config;
  config.session = session;
  config.decorations = true;
  const char* pager = std::getenv("PAGER");
  config.pager = pager && *pager ? pager : "less -R";
  config.screen_rows = terminal.rows;
  config.screen_columns = terminal.columns;
  for (const std::string& path : options.db_paths) {
    config.index_name += (config.index_name.empty() ? "" : ", ") + path;
  }
  PromptSession prompt(searcher, config, out, err, program);
  prompt.greet();
  run_terminal_prompt(prompt, default_history_file());
  return kExitSuccess;
}

}  // namespace quarry
