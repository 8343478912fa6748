#include "quarry/session.h"

#include <sstream>
#include <string>

#include "quarry/error.h"

namespace quarry {
namespace {

bool is_blank(const std::string& line) {
  return line.find_first_not_of(" \t\r\n\f\v") == std::string::npos;
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
  for (const std::string& note : result.notes) diagnostics << program << ": note: " << note << '\n';
  if (config.format == OutputFormat::kJson) {
    write_json(out, result);
  } else {
    write_text(out, result, config.style);
  }
  return Answer::kAnswered;
}

std::size_t answer_lines(Searcher& searcher, std::istream& in, const SessionConfig& config,
                         std::ostream& out, std::ostream& diagnostics, std::string_view program) {
  std::size_t bad = 0;
  bool answered_before = false;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (is_blank(line)) continue;
    std::ostringstream answer;
    if (answer_query(searcher, line, config, answer, diagnostics, program) == Answer::kBadQuery) {
      ++bad;
      continue;
    }
    // Blank lines separate the answers of text output, as they would on a page.
    if (config.format == OutputFormat::kText && answered_before) out << '\n';
    out << std::move(answer).str();
    out.flush();
    answered_before = true;
  }
  return bad;
}

}  // namespace quarry
