#include "app/common/alert_printer.h"

namespace quarry {

void AlertPrinter::alert(const Alert& alert) { out_ << alert_json(alert) << std::endl; }

void AlertEventPrinter::retry(unsigned milliseconds) {
  out_ << "retry: " << milliseconds << "\n\n";
}

void AlertEventPrinter::alert(const Alert& alert) {
  // alert_json escapes line breaks, so the object is one data line.
  out_ << "id: " << alert.cursor << "\nevent: alert\ndata: " << alert_json(alert) << "\n\n";
}

void AlertEventPrinter::comment(std::string_view text) {
  std::string line(text);
  std::erase_if(line, [](char c) { return c == '\n' || c == '\r'; });
  out_ << ": " << line << "\n\n";
}

}  // namespace quarry
