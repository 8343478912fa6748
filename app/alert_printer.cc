#include "app/alert_printer.h"

namespace quarry {

void AlertPrinter::alert(const Alert& alert) { out_ << alert_json(alert) << std::endl; }

}  // namespace quarry
