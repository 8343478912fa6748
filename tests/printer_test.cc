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
  printer.count("penalty", {1234, {}, {}});
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

TEST(PrinterTest, ACountIsTheNumberAloneButInJson) {
  const struct {
    OutputFormat format;
    std::string expected;
  } cases[] = {
      {OutputFormat::kText, "1234\n"},
      {OutputFormat::kTrec, "1234\n"},
      {OutputFormat::kJson, R"({"query":"penalty \"x\"","total":1234,"total_relation":"eq"})"
                            "\n"},
  };
  for (const auto& c : cases) {
    PrinterConfig config;
    config.format = c.format;
    std::ostringstream out;
    make_printer(config, out)->count("penalty \"x\"", {1234, {}, {}});
    EXPECT_EQ(out.str(), c.expected);
  }
}

// A JSON count carries what a search of its query would say, as answers do.
TEST(PrinterTest, AJsonCountCarriesItsNotesAndWarnings) {
  std::ostringstream out;
  JsonPrinter(out).count("a b", {7, {"read as plain words"}, {"shard x is unreachable"}});
  EXPECT_EQ(out.str(),
            R"({"query":"a b","total":7,"total_relation":"eq","notes":["read as plain words"],)"
            R"("warnings":["shard x is unreachable"]})"
            "\n");
}

}  // namespace
}  // namespace quarry
