#include "app/common/trec_printer.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "tests/printer_samples.h"

namespace quarry {
namespace {

using testing::make_hit;
using testing::two_hits;

TEST(TrecPrinterTest, WritesALineAHit) {
  std::ostringstream out;
  TrecPrinter printer(out, "bm25-a");
  printer.begin_run();
  printer.answer(two_hits(), {"401", 2.0});
  printer.end_run();
  EXPECT_EQ(out.str(),
            "401 Q0 a.txt 1 1.234560 bm25-a\n"
            "401 Q0 b.txt 2 0.500000 bm25-a\n");
}

TEST(TrecPrinterTest, WhiteSpaceInIdsBecomesUnderscores) {
  SearchResult result;
  result.total = 1;
  result.hits.push_back(make_hit(1, "dir/a b\tc.txt", "", 2, {}));
  std::ostringstream out;
  TrecPrinter(out, "quarry").answer(result, {"q 1\r", std::nullopt});
  EXPECT_EQ(out.str(), "q_1_ Q0 dir/a_b_c.txt 1 2.000000 quarry\n");
}

TEST(TrecPrinterTest, ErrorsFacetsAndEmptyAnswersWriteNothing) {
  std::ostringstream out;
  TrecPrinter printer(out, "quarry");
  printer.answer(SearchResult{}, {"1", std::nullopt});
  printer.facets(two_hits());
  printer.query_error("penalty AND", "AND needs words on both sides", {"2", std::nullopt});
  EXPECT_EQ(out.str(), "");
  // A shard left out is said; how a query was read is not.
  EXPECT_FALSE(printer.diagnosed().notes);
  EXPECT_TRUE(printer.diagnosed().warnings);
}

}  // namespace
}  // namespace quarry
