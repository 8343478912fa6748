#include "app/session.h"

#include <string>

#include "quarry/error.h"

namespace quarry {
Answer answer_query(Searcher& searcher, std::string_view query, const SessionConfig& config,
                    std::ostream& out, std::ostream& diagnostics, std::string_view program) {
  SearchResult result;
  try {
    result = searcher.search(query, config.search);
  } catch (const QueryError& error) {
    diagnostics << program << ": " << error.what() << '\n';
    return Answer::kBadQuery;
  }
  for (const std::string& note : result.notes) diagnostics << program << ": note: " << note << '\n';
  if (config.format == OutputFormat::kText) {
    for (const std::string& warning : result.warnings) {
      diagnostics << program << ": warning: " << warning << '\n';
    }
  }
  write_result(out, result, config);
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
  out << count << '\n';
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
