#include "app/common/printer.h"

#include "app/common/json_printer.h"
#include "app/common/text_printer.h"
#include "app/common/trec_printer.h"

namespace quarry {

void AnswerPrinter::count(std::string_view, const CountResult& count) {
  out_ << count.total << '\n';
}

std::unique_ptr<AnswerPrinter> make_printer(const PrinterConfig& config, std::ostream& out) {
  switch (config.format) {
    case OutputFormat::kJson:
      return std::make_unique<JsonPrinter>(out, config.timings);
    case OutputFormat::kTrec:
      return std::make_unique<TrecPrinter>(out, config.run_tag);
    case OutputFormat::kText:
      break;
  }
  return std::make_unique<TextPrinter>(out, config.style, config.layout);
}

}  // namespace quarry
