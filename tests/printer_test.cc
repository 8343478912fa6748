#include "app/common/printer.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "app/common/json_printer.h"
#include "app/common/text_printer.h"
#include "app/common/trec_printer.h"
#include "tests/printer_samples.h"

namespace quarry {
namespace {

using testing::two_hits;

// What a printer writes for an answer and a count.
std::string run_of(AnswerPrinter& printer, std::ostringstream& out) {
  printer.begin_run();
  printer.answer(two_hits(), {"7", 1.5});
  printer.count(1234);
  printer.end_run();
  return out.str();
}

TEST(PrinterTest, MakePrinterPicksThePrinterOfTheFormat) {
  PrinterConfig text;
  text.style.color = true;
  PrinterConfig json;
  json.format = OutputFormat::kJson;
  json.timings = true;
  PrinterConfig trec;
  trec.format = OutputFormat::kTrec;
  trec.run_tag = "run-a";
  std::ostringstream text_out, json_out, trec_out;
  TextPrinter text_printer(text_out, text.style);
  JsonPrinter json_printer(json_out, true);
  TrecPrinter trec_printer(trec_out, "run-a");
  const struct {
    PrinterConfig config;
    std::string expected;
  } cases[] = {
      {text, run_of(text_printer, text_out)},
      {json, run_of(json_printer, json_out)},
      {trec, run_of(trec_printer, trec_out)},
  };
  for (const auto& c : cases) {
    std::ostringstream out;
    const std::unique_ptr<AnswerPrinter> printer = make_printer(c.config, out);
    EXPECT_EQ(run_of(*printer, out), c.expected);
  }
}

TEST(PrinterTest, ACountIsTheNumberAloneInEveryFormat) {
  for (const OutputFormat format :
       {OutputFormat::kText, OutputFormat::kJson, OutputFormat::kTrec}) {
    PrinterConfig config;
    config.format = format;
    std::ostringstream out;
    make_printer(config, out)->count(1234);
    EXPECT_EQ(out.str(), "1234\n");
  }
}

}  // namespace
}  // namespace quarry
