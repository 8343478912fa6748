// quarry: searches a Quarry index — one query given as arguments, an
// interactive prompt, queries piped in one per line, or a batch run — or,
// as `quarry serve`, serves it over HTTP.
#include <CLI/CLI.hpp>
#include <iostream>
#include <string>
#include <string_view>

#include "app/common/exit_status.h"
#include "app/common/option_docs.h"
#include "app/common/quarry_help.h"
#include "app/common/version_text.h"
#include "app/terminal/quarry_command.h"
#include "query/alert_command.h"
#include "query/alerts_command.h"
#include "query/dash_query.h"
#include "query/option_cli.h"
#include "query/serve_command.h"
#include "query/terminal.h"

namespace {

constexpr char kProgram[] = "quarry";

// One line, named after the program, as every other diagnostic.
std::string option_error(const CLI::App* /*app*/, const CLI::Error& error) {
  return std::string(kProgram) + ": " + error.what() + " (quarry --help lists the options)\n";
}

// Parse, then run what was asked for; returns the exit status.
int run(int argc, char** argv) {
  CLI::App app{quarry::kQuarrySummary, kProgram};
  app.failure_message(option_error);
  app.set_version_flag(
      "--version", [] { return quarry::version_text(kProgram); },
      "Print the versions of quarry, Xapian and ICU, and exit");
  quarry::QuarryOptions options;
  quarry::add_table_options(app, quarry::kSearchCommand, options);
  app.add_option("QUERY", options.query_words, quarry::kQueryHelp)->option_text("...");
  app.get_formatter()->label("Positionals", "Arguments");
  // Wide enough for "--correct never|auto|always" and two spaces.
  app.get_formatter()->column_width(32);
  app.footer(quarry::kQuarryFooter);
  CLI::App* serve = quarry::add_serve_command(app, options);
  quarry::AlertCommand alert;
  quarry::add_alert_command(app, alert);
  CLI::App* alerts = quarry::add_alerts_command(app, options);
  const quarry::Terminal terminal = quarry::this_terminal();
  try {
    app.parse(argc, argv);
    if (serve->parsed()) return quarry::run_serve(app, options, kProgram);
    if (alert.alert->parsed()) return quarry::run_alert(app, alert, std::cout);
    if (alerts->parsed()) return quarry::run_alerts_command(app, options.alerts, kProgram);
    quarry::resolve_command_line(options, terminal.input);
    return quarry::run_quarry(options, terminal, std::cin, std::cout, std::cerr, kProgram);
  } catch (const CLI::ParseError& error) {
    if (app.exit(error) == 0) return int{quarry::kExitSuccess};
    quarry::explain_dash_query(argc, argv, kProgram, std::cerr);
    return int{quarry::kExitUsage};
  }
}

}  // namespace

int main(int argc, char** argv) {
  // What the build installs beside the program (`quarry --generate KIND`),
  // written from the option table; left out of the help, which it documents.
  if (argc == 3 && std::string_view(argv[1]) == "--generate") {
    return quarry::write_document(argv[2], std::cout, std::cerr, kProgram);
  }
  return quarry::run_reporting_errors(kProgram, std::cerr, quarry::InputErrorIs::kFailure,
                                      [&] { return run(argc, argv); });
}
