#include "app/common/session.h"

#include <memory>
#include <string>

#include "quarry/error.h"

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
  CountResult count;
  try {
    count = searcher.count(query, config.search);
  } catch (const QueryError& error) {
    diagnostics << program << ": " << error.what() << '\n';
    return Answer::kBadQuery;
  }
  write_notes_and_warnings(diagnostics, program, count.notes, count.warnings);
  const std::unique_ptr<AnswerPrinter> printer = make_printer(printer_config(config), out);
  printer->begin_run();
  printer->count(query, count);
  printer->end_run();
  return Answer::kAnswered;
}

}  // namespace quarry
