// Answers as a TREC run, for evaluation tools such as trec_eval.
#ifndef QUARRY_APP_COMMON_TREC_PRINTER_H_
#define QUARRY_APP_COMMON_TREC_PRINTER_H_

#include <ostream>
#include <string>
#include <string_view>

#include "app/common/printer.h"

namespace quarry {

// An answer is a line a hit, "qid Q0 docid rank score tag", with the
// answer's qid and `run_tag`; ids and qids are written with white space
// replaced by '_', as the format splits on it. A query error writes
// nothing, and neither do facets. Warnings (a shard left out) are left to
// the diagnostics stream; notes, on how a query was read, change nothing in
// a run and are not said.
class TrecPrinter : public AnswerPrinter {
 public:
  TrecPrinter(std::ostream& out, std::string run_tag);

  void answer(const SearchResult& result, const AnswerFields& fields) override;
  void facets(const SearchResult&) override {}
  void query_error(std::string_view, std::string_view, const AnswerFields&) override {}
  DiagnosedMessages diagnosed() const override { return {false, true}; }

 private:
  std::string run_tag_;
};

}  // namespace quarry

#endif  // QUARRY_APP_COMMON_TREC_PRINTER_H_
