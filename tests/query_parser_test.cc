#include "lib/search/query_parser.h"

#include <gtest/gtest.h>
#include <xapian.h>

#include <algorithm>
#include <map>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "quarry/error.h"
#include "tests/table_case.h"
#include "tests/test_util.h"

namespace quarry::detail {
namespace {

// The query's shape in terms Xapian's API keeps from one release to the
// next, unlike Query::get_description(): "OP(sub sub …)" for each
// operator, each term as itself, "<all>" for MatchAll, "" for no query.
std::string shape(const Xapian::Query& query) {
  static const std::map<Xapian::Query::op, std::string> kNames = {
      {Xapian::Query::OP_AND, "AND"},
      {Xapian::Query::OP_OR, "OR"},
      {Xapian::Query::OP_AND_NOT, "AND_NOT"},
      {Xapian::Query::OP_XOR, "XOR"},
      {Xapian::Query::OP_AND_MAYBE, "AND_MAYBE"},
      {Xapian::Query::OP_FILTER, "FILTER"},
      {Xapian::Query::OP_NEAR, "NEAR"},
      {Xapian::Query::OP_PHRASE, "PHRASE"},
      {Xapian::Query::OP_SCALE_WEIGHT, "SCALE_WEIGHT"},
      {Xapian::Query::OP_SYNONYM, "SYNONYM"},
      {Xapian::Query::OP_WILDCARD, "WILDCARD"}};
  switch (query.get_type()) {
    case Xapian::Query::LEAF_TERM:
      return *query.get_terms_begin();
    case Xapian::Query::LEAF_MATCH_ALL:
      return "<all>";
    case Xapian::Query::LEAF_MATCH_NOTHING:
      return "";
    default:
      break;
  }
  const auto name = kNames.find(query.get_type());
  std::string out = name == kNames.end() ? "OP" + std::to_string(query.get_type()) : name->second;
  out += '(';
  for (std::size_t i = 0; i < query.get_num_subqueries(); ++i) {
    out += (i == 0 ? "" : " ") + shape(query.get_subquery(i));
  }
  return out + ')';
}

// The query's terms in the order of their places in the query.
std::vector<std::string> terms_in_order(const Xapian::Query& query) {
  return {query.get_terms_begin(), query.get_terms_end()};
}

Xapian::Query parse(std::string_view query) {
  Analyzer analyzer;
  return QueryParser(analyzer).parse(query).query;
}

struct ParseCase {
  const char* name;
  std::string query;
  std::string shape;  // as shape() writes the parsed query
};

void PrintTo(const ParseCase& c, std::ostream* out) { *out << c.query; }

class QueryParserForms : public ::testing::TestWithParam<ParseCase> {};

TEST_P(QueryParserForms, ParsesToTheAnalyzersTerms) {
  EXPECT_EQ(shape(parse(GetParam().query)), GetParam().shape) << GetParam().query;
}

const ParseCase kForms[] = {
    {"Empty", "", ""},
    {"NoWords", "!!! ...", ""},
    {"FreeWordsAnyMayMatch", "Ederson Portuguese", "OR(Zederson Zportugues)"},
    {"CaseAndAccentsFolded", "CAFÉ", "Zcafe"},
    {"CurlyApostrophe", "Guardiola’s", "Zguardiola"},
    {"HyphenatedIsPhrase", "dressing-room", "PHRASE(Zdress Zroom)"},
    {"ScoreIsPhrase", "2-1", "PHRASE(Z2 Z1)"},
    {"Currency", "£10million", "Z10million"},
    {"Phrase", "\"Dressing Room\"", "PHRASE(Zdress Zroom)"},
    {"CurlyQuotes", "“dressing room”", "PHRASE(Zdress Zroom)"},
    {"SingleWordPhraseIsItsStem", "\"penalties\"", "Zpenalti"},
    {"UnclosedQuote", "\"dressing room", "PHRASE(Zdress Zroom)"},
    {"PlusMinus", "+mourinho penalty -milk", "AND_NOT(AND_MAYBE(Zmourinho Zpenalti) Zmilk)"},
    {"And", "penalty AND Herrera", "AND(Zpenalti Zherrera)"},
    {"Or", "penalty OR Herrera", "OR(Zpenalti Zherrera)"},
    {"Not", "penalty NOT Herrera", "AND_NOT(Zpenalti Zherrera)"},
    {"AndNot", "penalty AND NOT Herrera", "AND_NOT(Zpenalti Zherrera)"},
    {"PureNot", "NOT milk", "AND_NOT(<all> Zmilk)"},
    {"LowerCaseOperatorsAreWords", "milk and water", "OR(Zmilk Zand Zwater)"},
    {"Grouping", "penalty AND (Herrera OR Ederson)", "AND(Zpenalti OR(Zherrera Zederson))"},
    {"AndBindsTighterThanOr", "a OR b AND c", "OR(Za AND(Zb Zc))"},
    {"EmptySideIsIgnored", "!!! AND milk", "Zmilk"},
    {"CjkIsAPhraseOfIdeographs", "曼联", "PHRASE(Z曼 Z联)"},
    // Runs of signs are pasted text, not operators, as for Xapian.
    {"PlusMinusIsNoSign", "+-dvd", "Zdvd"},
    {"DoubleDashIsNoSign", "wget --http-user", "OR(Zwget PHRASE(Zhttp Zuser))"},
    {"MinusPlusIsNoSign", "milk -+water", "OR(Zmilk Zwater)"},
    {"LoneSignsAreNothing", "canal + -", "Zcanal"},
    {"UnknownFieldIsWords", "site:bbc", "PHRASE(Zsite Zbbc)"},
    {"NearGroup", "kraan NEAR (elektrisch OR electrisch)",
     "NEAR(Zkraan OR(Zelektrisch Zelectrisch))"},
    {"NearGroupOfWords", "kraan NEAR/3 (elektrisch electrisch)",
     "NEAR(Zkraan OR(Zelektrisch Zelectrisch))"},
    {"GroupAdjWord", "(mobile OR cell) ADJ phone", "PHRASE(OR(Zmobil Zcell) Zphone)"},
    {"NearGroupOfOne", "mobile NEAR (phone)", "NEAR(Zmobil Zphone)"},
    {"NearAtTheMost", "mobile NEAR/1000 phone", "NEAR(Zmobil Zphone)"},
    {"AdjAtTheLeast", "mobile ADJ/1 phone", "PHRASE(Zmobil Zphone)"},
};

INSTANTIATE_TEST_SUITE_P(Table, QueryParserForms, ::testing::ValuesIn(kForms),
                         [](const auto& info) { return info.param.name; });

TEST(QueryParser, WordsKeepTheirPlacesInTheQuery) {
  EXPECT_EQ(terms_in_order(parse("penalty AND (Herrera OR Ederson) -milk")),
            (std::vector<std::string>{"Zpenalti", "Zherrera", "Zederson", "Zmilk"}));
  EXPECT_EQ(terms_in_order(parse("\"room dressing\" 2-1")),
            (std::vector<std::string>{"Zroom", "Zdress", "Z2", "Z1"}));
}

// A phrase's words must be next to each other, in order: articles whose
// stems sit at the positions given.
class QueryParserPhraseTest : public ::testing::Test {
 protected:
  QueryParserPhraseTest() : db_(std::string(), Xapian::DB_BACKEND_INMEMORY) {
    add("in order", {{"Zdress", 1}, {"Zroom", 2}});
    add("reversed", {{"Zroom", 1}, {"Zdress", 2}});
    add("apart", {{"Zdress", 1}, {"Zthe", 2}, {"Zroom", 3}});
  }

  void add(const std::string& name, const std::vector<std::pair<std::string, unsigned>>& words) {
    Xapian::Document doc;
    for (const auto& [term, position] : words) doc.add_posting(term, position);
    doc.set_data(name);
    db_.add_document(doc);
  }

  std::vector<std::string> matches(std::string_view query) {
    Xapian::Enquire enquire(db_);
    enquire.set_query(parse(query));
    std::vector<std::string> names;
    const Xapian::MSet mset = enquire.get_mset(0, 10);
    for (auto it = mset.begin(); it != mset.end(); ++it)
      names.push_back(it.get_document().get_data());
    return names;
  }

  Xapian::WritableDatabase db_;
};

TEST_F(QueryParserPhraseTest, MatchesAdjacentWordsInOrder) {
  for (const char* query : {"\"dressing room\"", "dressing-room", "“dressing room”"}) {
    EXPECT_EQ(matches(query), std::vector<std::string>{"in order"}) << query;
  }
  EXPECT_EQ(matches("dressing room").size(), 3u);
}

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
                      ErrorCase{"ColumnsCountCharacters", "é ü AND", 5},
                      // Beside NEAR, a group holds words joined by OR, nothing else.
                      ErrorCase{"NearGroupWithAnd", "a NEAR (b AND c)", 11},
                      ErrorCase{"NearGroupWithPhrase", "a NEAR (b \"c d\")", 11},
                      ErrorCase{"NearGroupNeverClosed", "a NEAR (b OR c", 8},
                      ErrorCase{"NearGroupEndsWithOr", "a NEAR (b OR)", 13},
                      ErrorCase{"NearEmptyGroup", "a NEAR ()", 9},
                      // A distance is a whole number from 1 to 1000.
                      ErrorCase{"NearZero", "a NEAR/0 b", 3},
                      ErrorCase{"NearNegative", "a NEAR/-5 b", 3},
                      ErrorCase{"NearHuge", "a NEAR/4294967296 b", 3},
                      ErrorCase{"NearOverTheMost", "a NEAR/1001 b", 3},
                      ErrorCase{"AdjFraction", "a ADJ/1.5 b", 3}),
    [](const auto& info) { return info.param.name; });

TEST(QueryParser, DeepNestingIsAnErrorNotACrash) {
  Analyzer analyzer;
  std::string query = std::string(10000, '(') + "milk" + std::string(10000, ')');
  EXPECT_THROW(QueryParser(analyzer).parse(query), QueryError);
}

// Words w1 … w`count`, joined by `join`.
std::string numbered_words(int count, const std::string& join) {
  std::string words = "w1";
  for (int i = 2; i <= count; ++i) words += join + "w" + std::to_string(i);
  return words;
}

// Past 1,024 words a query is refused however it is read: searched as
// plain words instead, it lost its operators (and, cut short, its last
// words) with no more than a warning.
TEST(QueryParser, MoreWordsThanTheMostAreRefusedInEveryMode) {
  Analyzer analyzer;
  const QueryParser parser(analyzer);
  const struct {
    ParseMode mode;
    std::string join;  // operators are no words; read as plain words, they are
  } kCases[] = {{ParseMode::kStrict, " AND "},
                {ParseMode::kQueryOrPlain, " AND "},
                {ParseMode::kQueryOrPlain, " "},
                {ParseMode::kPlain, " "}};
  for (const auto& c : kCases) {
    SCOPED_TRACE(::testing::PrintToString(c.join) + " mode " +
                 std::to_string(static_cast<int>(c.mode)));
    const std::string at_limit = numbered_words(1024, c.join);
    EXPECT_TRUE(parser.parse(at_limit, c.mode).warnings.empty());
    const std::string past_limit = numbered_words(1100, c.join);
    try {
      parser.parse(past_limit, c.mode);
      FAIL() << "parsed";
    } catch (const QueryError& error) {
      EXPECT_EQ(error.reason(), "more than 1024 words, the most a query may hold");
      EXPECT_EQ(error.column(), past_limit.find("w1025") + 1);
      EXPECT_EQ(error.query(), past_limit);
    }
  }
  // A phrase is one word of the query, whatever it holds.
  EXPECT_NO_THROW(parser.parse("\"" + numbered_words(2000, " ") + "\" AND x"));
}

struct ForgivingCase {
  const char* name;
  std::string query;
  std::string shape;    // as shape() writes the parsed query
  std::string warning;  // the first warning, "" for none
};

void PrintTo(const ForgivingCase& c, std::ostream* out) { *out << c.query; }

class QueryParserForgiving : public ::testing::TestWithParam<ForgivingCase> {};

// What people type into a search box is searched: as the query language
// reads it, or else as plain words, with a warning saying why.
TEST_P(QueryParserForgiving, SearchesPlainWordsWhenTheQueryCannotBeParsed) {
  Analyzer analyzer;
  const ParsedQuery parsed = QueryParser(analyzer).parse_or_plain(GetParam().query);
  EXPECT_EQ(shape(parsed.query), GetParam().shape);
  if (GetParam().warning.empty()) {
    EXPECT_TRUE(parsed.warnings.empty()) << parsed.warnings[0];
  } else {
    ASSERT_EQ(parsed.warnings.size(), 1u);
    EXPECT_EQ(parsed.warnings[0], GetParam().warning);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Table, QueryParserForgiving,
    ::testing::Values(
        ForgivingCase{"WellFormed", "penalty AND Herrera", "AND(Zpenalti Zherrera)", ""},
        ForgivingCase{"NeverClosed", "windows update (windows se", "OR(Zwindow Zupdat Zwindow Zse)",
                      "'(' is never closed (column 16); searched as plain words"},
        ForgivingCase{"EmptyParentheses", "mkdir() failed", "OR(Zmkdir Zfail)",
                      "empty parentheses (column 6); searched as plain words"},
        ForgivingCase{"Smiley", "java :) icon", "OR(Zjava Zicon)",
                      "unmatched ')' (column 7); searched as plain words"},
        // An operator with no words on a side is dropped, the rest read as written.
        ForgivingCase{"DanglingOperator", "Mourinho AND", "Zmourinho",
                      "AND needs words on both sides (column 10); searched without it"},
        ForgivingCase{"LeadingOperator", "OR \"dressing room\" -milk",
                      "AND_NOT(PHRASE(Zdress Zroom) Zmilk)",
                      "OR needs words on both sides (column 1); searched without it"},
        ForgivingCase{"DanglingNot", "penalty Herrera NOT", "OR(Zpenalti Zherrera)",
                      "NOT needs words after it (column 17); searched without it"},
        ForgivingCase{"DanglingNear", "Mourinho NEAR", "Zmourinho",
                      "NEAR needs words on both sides (column 10); searched without it"},
        ForgivingCase{"NearZero", "Mourinho NEAR/0 milk", "OR(Zmourinho Znear Z0 Zmilk)",
                      "NEAR/0: the distance must be a whole number from 1 to 1000 (column 10); "
                      "searched as plain words"},
        ForgivingCase{"NearNegative", "Mourinho NEAR/-5 milk", "OR(Zmourinho Znear Z5 Zmilk)",
                      "NEAR/-5: the distance must be a whole number from 1 to 1000 (column 10); "
                      "searched as plain words"},
        ForgivingCase{"NearHuge", "Mourinho NEAR/4294967296 milk",
                      "OR(Zmourinho Znear Z4294967296 Zmilk)",
                      "NEAR/4294967296: the distance must be a whole number from 1 to 1000 "
                      "(column 10); searched as plain words"},
        // Only the fallback's warning: the fields it warned of are gone.
        ForgivingCase{"FieldsAreWordsToo", "site:x (a", "OR(Zsite Zx Za)",
                      "'(' is never closed (column 8); searched as plain words"}),
    [](const auto& info) { return info.param.name; });

TEST(QueryParser, DeepNestingFallsBackToWords) {
  Analyzer analyzer;
  const std::string query = std::string(10000, '(') + "milk" + std::string(10000, ')');
  const ParsedQuery parsed = QueryParser(analyzer).parse_or_plain(query);
  EXPECT_EQ(shape(parsed.query), "Zmilk");
  EXPECT_EQ(parsed.warnings.size(), 1u);
}

TEST(QueryParser, EachDanglingOperatorIsDroppedWithItsOwnWarning) {
  Analyzer analyzer;
  const ParsedQuery parsed = QueryParser(analyzer).parse_or_plain("AND Blair OR");
  EXPECT_EQ(shape(parsed.query), "Zblair");
  EXPECT_EQ(parsed.warnings, (std::vector<std::string>{
                                 "AND needs words on both sides (column 1); searched without it",
                                 "OR needs words on both sides (column 11); searched without it"}));
  // With AND NOT, both words go: AND first, then the NOT it left.
  EXPECT_EQ(shape(QueryParser(analyzer).parse_or_plain("Blair AND NOT").query), "Zblair");
}

TEST(QueryParser, ManyDanglingOperatorsAreNoSlipButPlainWords) {
  Analyzer analyzer;
  const ParsedQuery parsed = QueryParser(analyzer).parse_or_plain("AND OR XOR AND OR Blair");
  EXPECT_EQ(parsed.warnings.size(), 1u);
  EXPECT_TRUE(parsed.warnings[0].ends_with("searched as plain words")) << parsed.warnings[0];
}

TEST(QueryParser, StrictRefusesADanglingOperator) {
  Analyzer analyzer;
  EXPECT_THROW(QueryParser(analyzer).parse("Blair AND"), QueryError);
}

// A filter naming what cannot be is refused however the query is read:
// searched as words it would find what was not asked for.
TEST(QueryParser, ImpossibleFilterValuesAreRefused) {
  Analyzer analyzer;
  const struct {
    std::string query;
    std::size_t column;
    std::string reason;
  } cases[] = {
      {"date:2017-13-01", 6, "a date is YYYY, YYYY-MM or YYYY-MM-DD, or a range FROM..TO"},
      {"Blair after:yesterday", 13, "a date is YYYY, YYYY-MM or YYYY-MM-DD"},
      {"lang:klingon Blair", 6,
       "no language 'klingon': name one by its ISO 639-1 code (fr) or its name (french)"},
      // Even where the rest of the query could not be read either.
      {"(Blair language:xx", 17,
       "no language 'xx': name one by its ISO 639-1 code (fr) or its name (french)"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.query);
    try {
      QueryParser(analyzer).parse_or_plain(c.query);
      ADD_FAILURE() << "searched";
    } catch (const QueryError& error) {
      EXPECT_EQ(error.column(), c.column);
      EXPECT_EQ(error.reason(), c.reason);
    }
  }
}

// A suggestion replaces free words; a field's name searched as a word is
// none of them, so that no suggestion renames a field.
TEST(QueryParser, AFieldNameSearchedAsAWordIsNoWordToCorrect) {
  Analyzer analyzer;
  for (const std::string query : {"site:bbc Blair", "(lang:fr Blair"}) {
    SCOPED_TRACE(query);
    const ParsedQuery parsed = QueryParser(analyzer).parse_or_plain(query);
    std::vector<std::string> words;
    for (const QueryWord& word : parsed.free_words) words.push_back(word.term);
    EXPECT_EQ(std::count(words.begin(), words.end(), "blair"), 1)
        << ::testing::PrintToString(words);
    EXPECT_EQ(std::count(words.begin(), words.end(), "site"), 0);
    EXPECT_EQ(std::count(words.begin(), words.end(), "lang"), 0);
  }
}

TEST(QueryParser, UnknownFieldsAreWarnedOfOnce) {
  const testing::Case<std::string, std::vector<std::string>> cases[] = {
      {"site:example.org mail", {"no field 'site'; searched as words"}},
      {"site:a site:b", {"no field 'site'; searched as words"}},
      {"site:a author:b",
       {"no field 'site'; searched as words", "no field 'author'; searched as words"}},
      {"-site:x mail", {"no field 'site'; searched as words"}},
      // Not meant as fields.
      {"http://example.org", {}},
      {"10:30", {}},
      {"c:\\windows", {}},
      {"java :-D icon", {}},
      {"note: read", {}},
      {"a:b", {}},
      {"title:derby source:Express", {}},
  };
  Analyzer analyzer;
  for (const auto& [query, warnings] : cases) {
    EXPECT_EQ(QueryParser(analyzer).parse(query).warnings, warnings) << query;
  }
}

TEST(QueryParser, FieldNamesAreReadInAnyCase) {
  const testing::TextCase cases[] = {
      {"Title:Blair", "title:Blair"},
      {"TITLE:\"prime minister\"", "title:\"prime minister\""},
      {"CATEGORY:sport", "category:sport"},
      {"Source:Reuters oil", "source:Reuters oil"},
      {"ID:a.txt", "id:a.txt"},
      {"Date:2017-12 After:2017-12-01 BEFORE:2018", "date:2017-12 after:2017-12-01 before:2018"},
  };
  Analyzer analyzer;
  for (const auto& [query, as_written] : cases) {
    const ParsedQuery parsed = QueryParser(analyzer).parse(query);
    EXPECT_EQ(shape(parsed.query), shape(parse(as_written))) << query;
    EXPECT_TRUE(parsed.warnings.empty()) << query;
  }
}

TEST(QueryParser, PlainWordsKeepTheirPlacesInTheText) {
  Analyzer analyzer;
  const std::string text = "(Edersen AND Guardiola’s";
  const ParsedQuery parsed = QueryParser(analyzer).parse_plain(text);
  ASSERT_EQ(parsed.free_words.size(), 3u);
  const std::vector<std::string> expected = {"Edersen", "AND", "Guardiola’s"};
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const QueryWord& word = parsed.free_words[i];
    EXPECT_EQ(text.substr(word.begin, word.end - word.begin), expected[i]);
  }
  EXPECT_EQ(parsed.free_words[2].term, "guardiola's");
}

TEST(QueryParser, UnclosedQuoteIsSearchedAndNoted) {
  Analyzer analyzer;
  ParsedQuery parsed = QueryParser(analyzer).parse("milk \"dressing room");
  ASSERT_EQ(parsed.notes.size(), 1u);
  EXPECT_NE(parsed.notes[0].find("unclosed quote"), std::string::npos);
}

// Phrases, NEAR and ADJ chains mark their words where they occur; words
// matched on their own are loose.
struct GroupCase {
  const char* name;
  std::string query;
  std::vector<HighlightGroup> groups;
  std::vector<std::string> loose_stems;
};

void PrintTo(const GroupCase& c, std::ostream* out) { *out << c.query; }

class QueryParserGroups : public ::testing::TestWithParam<GroupCase> {};

TEST_P(QueryParserGroups, RecordsTheGroupsOfPositiveParts) {
  Analyzer analyzer;
  const HighlightTerms terms = QueryParser(analyzer).parse(GetParam().query).highlight;
  EXPECT_EQ(terms.groups, GetParam().groups);
  EXPECT_EQ(terms.loose_stems, GetParam().loose_stems);
  // Every stem of a group is a highlight stem: a search looks up where
  // those occur.
  for (const HighlightGroup& group : terms.groups) {
    for (const std::string& stem : group.stems) {
      EXPECT_NE(std::find(terms.stems.begin(), terms.stems.end(), stem), terms.stems.end()) << stem;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Table, QueryParserGroups,
    ::testing::Values(
        GroupCase{"Words", "mobile phones", {}, {"mobil", "phone"}},
        GroupCase{"Phrase", "\"mobile phones\"", {{{"mobil", "phone"}, 2, true}}, {}},
        GroupCase{
            "PhraseOfThree", "\"the mobile phone\"", {{{"the", "mobil", "phone"}, 3, true}}, {}},
        GroupCase{"HyphenatedWord", "dressing-room", {{{"dress", "room"}, 2, true}}, {}},
        GroupCase{"OneWordPhraseIsLoose", "\"penalties\"", {}, {"penalti"}},
        GroupCase{"Near", "mobile NEAR/5 phone", {{{"mobil", "phone"}, 6, false}}, {}},
        GroupCase{"NearChain",
                  "phone NEAR/2 mobile NEAR tablet",
                  {{{"phone", "mobil", "tablet"}, 12, false}},
                  {}},
        GroupCase{"AdjDefaultWindow", "mobile ADJ phone", {{{"mobil", "phone"}, 11, true}}, {}},
        GroupCase{"NearOfOneWordIsLoose", "mobile NEAR/3 !!!", {}, {"mobil"}},
        GroupCase{"NegativePhrase", "tablet -\"mobile phone\"", {}, {"tablet"}},
        GroupCase{"NotPhrase", "tablet NOT \"mobile phone\"", {}, {"tablet"}},
        GroupCase{"NotNear", "tablet NOT mobile NEAR phone", {}, {"tablet"}},
        GroupCase{"PhraseAndItsWord",
                  "\"mobile phone\" mobile",
                  {{{"mobil", "phone"}, 2, true}},
                  {"mobil"}},
        GroupCase{"TitlePhrase", "title:\"dressing room\"", {{{"dress", "room"}, 2, true}}, {}},
        GroupCase{"TitleWordIsLoose", "title:derby", {}, {"derbi"}},
        GroupCase{"RepeatedGroupsOnce",
                  "\"mobile phone\" OR (\"mobile phone\" AND tablet)",
                  {{{"mobil", "phone"}, 2, true}},
                  {"tablet"}},
        GroupCase{
            "WildcardIsNoStem", "mobi* \"mobile phone\"", {{{"mobil", "phone"}, 2, true}}, {}},
        GroupCase{"NearGroupIsEachWay",
                  "mobile NEAR/2 (phone OR tablet)",
                  {{{"mobil", "phone"}, 3, false}, {{"mobil", "tablet"}, 3, false}},
                  {}},
        GroupCase{"ManyWaysAreLoose",
                  "(a OR b OR c) NEAR (d OR e OR f) NEAR (g OR h)",
                  {},
                  {"a", "b", "c", "d", "e", "f", "g", "h"}}),
    [](const auto& info) { return info.param.name; });

// Synonyms stored for a word match as the word does: a phrase among them is
// a group.
TEST(QueryParser, SynonymPhrasesAreGroups) {
  Analyzer analyzer;
  testing::TempDir dir;  // the in-memory backend keeps no synonyms
  Xapian::WritableDatabase db((dir / "db").string(), Xapian::DB_CREATE);
  db.add_synonym("mobile", "cell phone");
  db.add_synonym("mobile", "cellular");
  db.add_synonym("mobile phone", "handset");
  const HighlightTerms terms =
      QueryParser(analyzer, {}, &db).parse("mobile \"mobile phone\"").highlight;
  EXPECT_EQ(terms.groups, (std::vector<HighlightGroup>{{{"cell", "phone"}, 2, true},
                                                       {{"mobil", "phone"}, 2, true}}));
  EXPECT_EQ(terms.loose_stems, (std::vector<std::string>{"cellular", "handset", "mobil"}));
}

// Synonyms take what the wildcards leave of the query's budget of words;
// past it they are left out, with a note.
TEST(QueryParser, SynonymsKeepToTheQuerysBudgetOfWords) {
  Analyzer analyzer;
  testing::TempDir dir;
  Xapian::WritableDatabase db((dir / "db").string(), Xapian::DB_CREATE);
  db.add_synonym("mobile", "cellular");
  db.add_synonym("mobile", "handset");
  db.add_synonym("mobile", "portable");
  QueryParserConfig config;
  config.max_query_terms = 2;
  const ParsedQuery parsed = QueryParser(analyzer, config, &db).parse("mobile");
  EXPECT_EQ(parsed.highlight.loose_stems,
            (std::vector<std::string>{"cellular", "handset", "mobil"}));
  EXPECT_EQ(parsed.notes, std::vector<std::string>{
                              "synonyms past the 2 words a query may stand for are left out"});
  const ParsedQuery whole = QueryParser(analyzer, {}, &db).parse("mobile");
  EXPECT_EQ(whole.highlight.loose_stems.size(), 4u);
  EXPECT_TRUE(whole.notes.empty());
}

TEST(QueryParser, HighlightsOnlyPositiveWords) {
  Analyzer analyzer;
  ParsedQuery parsed = QueryParser(analyzer).parse("penalties \"Dressing Room\" -milk NOT water");
  EXPECT_EQ(parsed.highlight.stems, (std::vector<std::string>{"dress", "penalti", "room"}));
}

}  // namespace

// Outside the unnamed namespace, where GoogleTest looks for it.
void PrintTo(const HighlightGroup& group, std::ostream* out) {
  *out << (group.ordered ? "ordered" : "any order") << " within " << group.span << ":";
  for (const std::string& stem : group.stems) *out << ' ' << stem;
}

}  // namespace quarry::detail
