// Answers for programs: one JSON object an answer, on a line of its own
// (JSON Lines), as `quarry --format json`, batch runs and /api/search write
// them.
#ifndef QUARRY_APP_COMMON_JSON_PRINTER_H_
#define QUARRY_APP_COMMON_JSON_PRINTER_H_

#include <ostream>
#include <string_view>

#include "app/common/printer.h"

namespace quarry {

// An answer is answer_json's object, with the answer's qid, and its took_ms
// when `timings`; a query error query_error_json's; a count count_json's.
// The answers and counts carry their notes and warnings.
class JsonPrinter : public AnswerPrinter {
 public:
  explicit JsonPrinter(std::ostream& out, bool timings = false);

  void answer(const SearchResult& result, const AnswerFields& fields) override;
  void facets(const SearchResult& result) override;
  void query_error(std::string_view query, std::string_view message,
                   const AnswerFields& fields) override;
  void count(std::string_view query, const CountResult& count) override;
  DiagnosedMessages diagnosed() const override { return {}; }

 private:
  bool timings_;
};

}  // namespace quarry

#endif  // QUARRY_APP_COMMON_JSON_PRINTER_H_
