// quarry: searches a Quarry index, for one query given as arguments or for
// each line read from standard input.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <iostream>

#include "quarry/error.h"
#include "quarry/index_location.h"
#include "quarry/session.h"

namespace {

constexpr char kProgram[] = "quarry";

constexpr char kExitCodes[] = R"(Query language:
  Ederson Portuguese      any word may match; articles with more, rarer words rank first
  "dressing room"         a phrase; dressing-room and 2-1 are phrases too
  +Mourinho -milk         must / must not match
  penalty AND (Herrera OR Ederson) NOT Silva
Exit codes:
  0  success, including no hits
  1  the index is missing or cannot be read
  2  usage error, or a query that cannot be parsed)";

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

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Search articles indexed by quarry-index. With no QUERY, answers each line read "
               "from standard input.",
               kProgram};
  std::string db_path = quarry::default_index_path();
  quarry::SessionConfig config;
  std::string format = "text";
  std::string color = "auto";
  std::vector<std::string> words;
  app.add_option("--db", db_path, "Index folder (default: $QUARRY_DB, else "
                                  "$XDG_DATA_HOME/quarry/index)")
      ->capture_default_str();
  app.add_option("-n,--limit", config.search.limit, "Hits to show")->capture_default_str();
  app.add_option("--offset", config.search.offset, "Hits to skip first")->capture_default_str();
  app.add_option("--format", format, "Output format")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  app.add_option("--color", color, "Highlight matches with colour (auto: on a terminal, "
                                   "unless NO_COLOR is set)")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  app.add_option("QUERY", words, "The query; several arguments are joined with spaces");
  app.footer(kExitCodes);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }
  config.format = format == "json" ? quarry::OutputFormat::kJson : quarry::OutputFormat::kText;
  config.style.color = use_color(color);

  try {
    quarry::Searcher searcher(db_path);
    if (!words.empty()) {
      auto answer = quarry::answer_query(searcher, join(words), config, std::cout, std::cerr,
                                         kProgram);
      return answer == quarry::Answer::kAnswered ? 0 : 2;
    }
    return quarry::answer_lines(searcher, std::cin, config, std::cout, std::cerr, kProgram) == 0
               ? 0
               : 2;
  } catch (const quarry::Error& error) {
    std::cerr << kProgram << ": " << error.what() << '\n';
    return 1;
  }
}
