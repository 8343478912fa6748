#include "app/common/trec_printer.h"

#include <cstdio>
#include <utility>

namespace quarry {
namespace {

// TREC runs are split on white space: ids and qids must hold none.
std::string without_spaces(std::string text) {
  for (char& c : text) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') c = '_';
  }
  return text;
}

}  // namespace

TrecPrinter::TrecPrinter(std::ostream& out, std::string run_tag)
    : AnswerPrinter(out), run_tag_(std::move(run_tag)) {}

void TrecPrinter::answer(const SearchResult& result, const AnswerFields& fields) {
  const std::string topic = without_spaces(fields.qid.value_or(""));
  for (const Hit& hit : result.hits) {
    // Evaluation tools rank by score: keep enough digits to keep ties rare.
    char score[64];
    std::snprintf(score, sizeof score, "%.6f", hit.score);
    out_ << topic << " Q0 " << without_spaces(hit.id) << ' ' << hit.rank << ' ' << score << ' '
         << run_tag_ << '\n';
  }
}

}  // namespace quarry
