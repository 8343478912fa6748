// Queries typed with a slip in them, through the real quarry: an operator
// left dangling is dropped, a filter that names what cannot be is refused,
// and no suggestion renames a field.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/child_process.h"
#include "tests/test_util.h"

namespace quarry::testing {
namespace {

using nlohmann::json;

class TypedQueryTest : public SharedIndexTest {
 protected:
  static void SetUpTestSuite() {
    // "and" is a word of the second article alone, and "long" of the third:
    // what a dangling AND or a field's name would find, searched as words.
    index_suite_articles({
        {"blair.txt", "Blair speaks", "Tony Blair spoke to the House today.", "2005-02-01", "", ""},
        {"brown.txt", "Brown and Smith", "Gordon Brown and John Smith met.", "2005-02-02", "", ""},
        {"long.txt", "A long day", "A long day of votes, a long night.", "2005-02-03", "", ""},
        {"lang.txt", "Blair again", "Blair spoke again.", "2005-02-04", "", ""},
    });
  }

  static RunResult quarry(const std::vector<std::string>& args, const std::string& input = "") {
    std::vector<std::string> all{"--db", db_path(), "--collapse", "none"};
    all.insert(all.end(), args.begin(), args.end());
    return run_program(QUARRY_BIN, all, input);
  }

  static json search_json(const std::string& query) {
    const RunResult result = quarry({"--format", "json", "--", query});
    EXPECT_EQ(result.exit_code, 0) << query << ": " << result.err;
    return json::parse(result.out);
  }
};

TEST_F(TypedQueryTest, ADanglingOperatorIsDroppedAndTheRestSearched) {
  const json blair = search_json("Blair");
  for (const std::string query : {"Blair AND", "AND Blair", "Blair OR", "Blair NOT"}) {
    SCOPED_TRACE(query);
    const json answer = search_json(query);
    EXPECT_EQ(answer.at("total"), blair.at("total"));
    EXPECT_EQ(answer.at("hits").size(), blair.at("hits").size());
    ASSERT_EQ(answer.at("warnings").size(), 1u) << answer.at("warnings");
    EXPECT_TRUE(answer.at("warnings")[0].get<std::string>().ends_with("; searched without it"));
  }
  const RunResult text = quarry({"Blair AND"});
  EXPECT_EQ(text.exit_code, 0);
  EXPECT_EQ(text.err,
            "quarry: warning: AND needs words on both sides (column 7); searched without it\n");
}

TEST_F(TypedQueryTest, StrictStillRefusesADanglingOperator) {
  const RunResult result = quarry({"--strict", "Blair AND"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.out, "");
}

TEST_F(TypedQueryTest, AFilterNamingWhatCannotBeIsRefused) {
  const struct {
    std::string query;
    std::string error;
  } cases[] = {
      {"lang:klingon Blair",
       "quarry: query \"lang:klingon Blair\": no language 'klingon': name one by its ISO 639-1 "
       "code (fr) or its name (french) (column 6)\n"},
      {"date:2017-13-01",
       "quarry: query \"date:2017-13-01\": a date is YYYY, YYYY-MM or YYYY-MM-DD, or a range "
       "FROM..TO (column 6)\n"},
      {"Blair before:soon",
       "quarry: query \"Blair before:soon\": a date is YYYY, YYYY-MM or YYYY-MM-DD (column 14)\n"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.query);
    const RunResult result = quarry({"--", c.query});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_EQ(result.out, "");
    EXPECT_EQ(result.err, c.error);
  }
  // In a batch, the query's line is an error and the others are answered.
  const RunResult batch = quarry({"--batch", "-", "--no-timings"}, "date:2017-13-01\nBlair\n");
  EXPECT_EQ(batch.exit_code, 2);
  const std::vector<std::string> lines = lines_of(batch.out);
  ASSERT_EQ(lines.size(), 2u) << batch.out;
  EXPECT_TRUE(json::parse(lines[0]).contains("error")) << lines[0];
  EXPECT_EQ(json::parse(lines[1]).at("total"), 2);
}

TEST_F(TypedQueryTest, NoSuggestionRenamesAField) {
  // Read as plain words (the parenthesis is never closed), "lang" is one
  // letter from "long"; it is a field's name all the same.
  const RunResult result = quarry({"--correct", "always", "(lang:en Blair"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out.find("long"), std::string::npos) << result.out;
  EXPECT_EQ(result.err.find("long"), std::string::npos) << result.err;
}

}  // namespace
}  // namespace quarry::testing
