#include "app/common/json_printer.h"

#include "app/common/json_documents.h"

namespace quarry {

JsonPrinter::JsonPrinter(std::ostream& out, bool timings) : AnswerPrinter(out), timings_(timings) {}

void JsonPrinter::answer(const SearchResult& result, const AnswerFields& fields) {
  out_ << answer_json(result, fields.qid, timings_ ? fields.took_ms : std::nullopt);
}

void JsonPrinter::facets(const SearchResult& result) {
  out_ << answer_json(result, std::nullopt, std::nullopt);
}

void JsonPrinter::query_error(std::string_view query, std::string_view message,
                              const AnswerFields& fields) {
  out_ << query_error_json(fields.qid, query, message);
}

void JsonPrinter::count(std::string_view query, const CountResult& count) {
  out_ << count_json(query, count);
}

}  // namespace quarry
