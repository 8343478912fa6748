#include "app/session.h"

#include <memory>
#include <string>

#include "quarry/error.h"
#include "quarry/search/query_parser.h"

namespace quarry {
namespace {

void write_notes_and_warnings(std::ostream& diagnostics, std::string_view program,
                              const std::vector<std::string>& notes,
                              const std::vector<std::string>& warnings) {
  for (const std::string& note : notes) diagnostics << program << ": note: " << note << '\n';
  for (const std::string& warning : warnings) {
    diagnostics << program << ": warning: " << warning << '\n';
  }
}

// How Searcher::count read `query`, which it does not say: parsed again, as
// Searcher parses it, for its notes and warnings. They come from the
// query's syntax alone, so no index is needed.
ParsedQuery read_as_counted(const Searcher& searcher, std::string_view query,
                            const SearchOptions& options) {
  const QueryParser parser(searcher.analyzer(), options.parser);
  if (options.plain) return parser.parse_plain(query);
  return options.strict ? parser.parse(query) : parser.parse_or_plain(query);
}

PrinterConfig printer_config(const SessionConfig& config) {
  PrinterConfig printer;
  printer.format = config.format;
  printer.style = config.style;
  return printer;
}

}  // namespace

Answer answer_query(Searcher& searcher, std::string_view query, const SessionConfig& config,
                    std::ostream& out, std::ostream& diagnostics, std::string_view program) {
  SearchResult result;
  try {
    result = searcher.search(query, config.search);
  } catch (const QueryError& error) {
    diagnostics << program << ": " << error.what() << '\n';
    return Answer::kBadQuery;
  }
  const std::unique_ptr<AnswerPrinter> printer = make_printer(printer_config(config), out);
  // Notes are said whatever the format, for the person who typed the query.
  write_notes_and_warnings(
      diagnostics, program, result.notes,
      printer->diagnosed().warnings ? result.warnings : std::vector<std::string>{});
  printer->begin_run();
  printer->answer(result, {});
  printer->end_run();
  return Answer::kAnswered;
}

Answer answer_count(Searcher& searcher, std::string_view query, const SessionConfig& config,
                    std::ostream& out, std::ostream& diagnostics, std::string_view program) {
  std::size_t count = 0;
  try {
    count = searcher.count(query, config.search);
  } catch (const QueryError& error) {
    diagnostics << program << ": " << error.what() << '\n';
    return Answer::kBadQuery;
  }
  const ParsedQuery read = read_as_counted(searcher, query, config.search);
  write_notes_and_warnings(diagnostics, program, read.notes, read.warnings);
  const std::unique_ptr<AnswerPrinter> printer = make_printer(printer_config(config), out);
  printer->begin_run();
  printer->count(count);
  printer->end_run();
  return Answer::kAnswered;
}

}  // namespace quarry
