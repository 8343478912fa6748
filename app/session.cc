#include "app/session.h"

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
  // JSON carries the warnings in the answer.
  write_notes_and_warnings(
      diagnostics, program, result.notes,
      config.format == OutputFormat::kText ? result.warnings : std::vector<std::string>{});
  write_result(out, result, config);
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
  out << count.total << '\n';
  return Answer::kAnswered;
}

void write_result(std::ostream& out, const SearchResult& result, const SessionConfig& config) {
  if (config.format == OutputFormat::kJson) {
    write_json(out, result);
  } else {
    write_text(out, result, config.style);
  }
}

}  // namespace quarry
