#include "quarry/search/query_parser.h"

#include <gtest/gtest.h>

#include "quarry/error.h"

namespace quarry {
namespace {

std::string describe(std::string_view query) {
  Analyzer analyzer;
  return QueryParser(analyzer).parse(query).query.get_description();
}

struct ParseCase {
  const char* name;
  std::string query;
  std::string description;  // Xapian's rendering of the parsed query
};

class QueryParserForms : public ::testing::TestWithParam<ParseCase> {};

TEST_P(QueryParserForms, ParsesToTheAnalyzersTerms) {
  EXPECT_EQ(describe(GetParam().query), GetParam().description) << GetParam().query;
}

INSTANTIATE_TEST_SUITE_P(
    Table, QueryParserForms,
    ::testing::Values(
        ParseCase{"Empty", "", "Query()"}, ParseCase{"NoWords", "!!! ...", "Query()"},
        ParseCase{"FreeWordsAnyMayMatch", "Ederson Portuguese",
                  "Query((Zederson@1 OR Zportugues@2))"},
        ParseCase{"CaseAndAccentsFolded", "CAFÉ", "Query(Zcafe@1)"},
        ParseCase{"CurlyApostrophe", "Guardiola’s", "Query(Zguardiola@1)"},
        ParseCase{"HyphenatedIsPhrase", "dressing-room", "Query((Zdress@1 PHRASE 2 Zroom@2))"},
        ParseCase{"ScoreIsPhrase", "2-1", "Query((Z2@1 PHRASE 2 Z1@2))"},
        ParseCase{"Currency", "£10million", "Query(Z10million@1)"},
        ParseCase{"Phrase", "\"Dressing Room\"", "Query((Zdress@1 PHRASE 2 Zroom@2))"},
        ParseCase{"CurlyQuotes", "“dressing room”", "Query((Zdress@1 PHRASE 2 Zroom@2))"},
        ParseCase{"SingleWordPhraseIsItsStem", "\"penalties\"", "Query(Zpenalti@1)"},
        ParseCase{"UnclosedQuote", "\"dressing room", "Query((Zdress@1 PHRASE 2 Zroom@2))"},
        ParseCase{"PlusMinus", "+mourinho penalty -milk",
                  "Query(((Zmourinho@1 AND_MAYBE Zpenalti@2) AND_NOT Zmilk@3))"},
        ParseCase{"And", "penalty AND Herrera", "Query((Zpenalti@1 AND Zherrera@2))"},
        ParseCase{"Or", "penalty OR Herrera", "Query((Zpenalti@1 OR Zherrera@2))"},
        ParseCase{"Not", "penalty NOT Herrera", "Query((Zpenalti@1 AND_NOT Zherrera@2))"},
        ParseCase{"AndNot", "penalty AND NOT Herrera", "Query((Zpenalti@1 AND_NOT Zherrera@2))"},
        ParseCase{"PureNot", "NOT milk", "Query((<alldocuments> AND_NOT Zmilk@1))"},
        ParseCase{"LowerCaseOperatorsAreWords", "milk and water",
                  "Query((Zmilk@1 OR Zand@2 OR Zwater@3))"},
        ParseCase{"Grouping", "penalty AND (Herrera OR Ederson)",
                  "Query((Zpenalti@1 AND (Zherrera@2 OR Zederson@3)))"},
        ParseCase{"AndBindsTighterThanOr", "a OR b AND c", "Query((Za@1 OR (Zb@2 AND Zc@3)))"},
        ParseCase{"EmptySideIsIgnored", "!!! AND milk", "Query(Zmilk@1)"},
        ParseCase{"CjkIsAPhraseOfIdeographs", "曼联", "Query((Z曼@1 PHRASE 2 Z联@2))"}),
    [](const auto& info) { return info.param.name; });

struct ErrorCase {
  const char* name;
  std::string query;
  std::size_t column;
};

class QueryParserErrors : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(QueryParserErrors, PointsAtTheProblem) {
  Analyzer analyzer;
  try {
    QueryParser(analyzer).parse(GetParam().query);
    FAIL() << "parsed: " << GetParam().query;
  } catch (const QueryError& error) {
    EXPECT_EQ(error.column(), GetParam().column) << error.what();
    EXPECT_EQ(error.query(), GetParam().query);
    EXPECT_EQ(std::string(error.what()).find('\n'), std::string::npos);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Table, QueryParserErrors,
    ::testing::Values(ErrorCase{"AndAlone", "AND", 1}, ErrorCase{"TrailingAnd", "Mourinho AND", 10},
                      ErrorCase{"LeadingOr", "OR milk", 1}, ErrorCase{"TrailingNot", "milk NOT", 6},
                      ErrorCase{"UnclosedParen", "(penalty OR", 10},
                      ErrorCase{"NeverClosed", "(penalty", 1},
                      ErrorCase{"UnmatchedClose", "penalty)", 8}, ErrorCase{"EmptyParens", "()", 1},
                      ErrorCase{"ColumnsCountCharacters", "é ü AND", 5}),
    [](const auto& info) { return info.param.name; });

TEST(QueryParser, DeepNestingIsAnErrorNotACrash) {
  Analyzer analyzer;
  std::string query = std::string(10000, '(') + "milk" + std::string(10000, ')');
  EXPECT_THROW(QueryParser(analyzer).parse(query), QueryError);
}

TEST(QueryParser, UnclosedQuoteIsSearchedAndNoted) {
  Analyzer analyzer;
  ParsedQuery parsed = QueryParser(analyzer).parse("milk \"dressing room");
  ASSERT_EQ(parsed.notes.size(), 1u);
  EXPECT_NE(parsed.notes[0].find("unclosed quote"), std::string::npos);
}

TEST(QueryParser, HighlightsOnlyPositiveWords) {
  Analyzer analyzer;
  ParsedQuery parsed = QueryParser(analyzer).parse("penalties \"Dressing Room\" -milk NOT water");
  EXPECT_EQ(parsed.highlight.stems, (std::vector<std::string>{"dress", "penalti", "room"}));
}

}  // namespace
}  // namespace quarry
