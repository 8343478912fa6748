// Reading a request's target and parameters: decoding, checking, and the
// search options they map to, as quarry's command-line options do.
#include "app/common/http_query.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "tests/table_case.h"

namespace quarry {
namespace {

TEST(PercentDecode, DecodesEscapesAndPlus) {
  const testing::SettingCase<bool> cases[] = {
      {"", true, ""},
      {"penalty", true, "penalty"},
      {"penalty+Herrera", true, "penalty Herrera"},
      {"penalty+Herrera", false, "penalty+Herrera"},
      {"a%20b%2Bc", true, "a b+c"},
      {"%2f%2F", false, "//"},
      {"caf%C3%A9", true, "café"},
      {"%E2%80%99", true, "’"},
      {"%F0%9F%98%80", true, "😀"},
      {"%22dressing%20room%22", true, "\"dressing room\""},
  };
  for (const auto& [text, plus_is_space, decoded] : cases) {
    EXPECT_EQ(percent_decode(text, "q", plus_is_space), decoded) << text;
  }
}

TEST(PercentDecode, RefusesWhatIsNotTextWith400) {
  struct Case {
    std::string text;
    std::string message;
  };
  const Case cases[] = {
      {"%", "q has a malformed %-escape"},      {"a%2", "q has a malformed %-escape"},
      {"%G0", "q has a malformed %-escape"},    {"%00", "q holds a NUL character"},
      {"%FF", "q is not valid UTF-8"},          {"%C3", "q is not valid UTF-8"},  // cut short
      {"%C0%AF", "q is not valid UTF-8"},                                         // overlong '/'
      {"%E0%80%AF", "q is not valid UTF-8"},                                      // overlong '/'
      {"%ED%A0%80", "q is not valid UTF-8"},                                      // a surrogate
      {"%F4%90%80%80", "q is not valid UTF-8"},                                   // past U+10FFFF
      {"%80", "q is not valid UTF-8"},       // a lone continuation byte
      {"\xC3\x28", "q is not valid UTF-8"},  // raw, not escaped
  };
  for (const Case& c : cases) {
    try {
      percent_decode(c.text, "q", true);
      ADD_FAILURE() << c.text << " was accepted";
    } catch (const HttpError& error) {
      EXPECT_EQ(error.status(), 400);
      EXPECT_EQ(std::string(error.what()), c.message) << c.text;
    }
  }
}

TEST(ParseTarget, SplitsThePathFromItsParameters) {
  const HttpTarget target = parse_target("/api/articles/a%2Fb?q=x+y&&n=5&flag&=v");
  EXPECT_EQ(target.path, "/api/articles/a%2Fb");
  const std::vector<std::pair<std::string, std::string>> expected{
      {"q", "x y"}, {"n", "5"}, {"flag", ""}, {"", "v"}};
  EXPECT_EQ(target.parameters, expected);
  EXPECT_EQ(parse_target("/").path, "/");
  EXPECT_TRUE(parse_target("/?").parameters.empty());
}

SearchRequest search(const std::string& query_string) {
  return parse_search_request(parse_target("/api/search?" + query_string));
}

TEST(ParseSearchRequest, MapsParametersAsQuarrysOptions) {
  const SearchRequest defaults = search("q=penalty");
  const SearchOptions cli_defaults;
  EXPECT_EQ(defaults.query, "penalty");
  EXPECT_EQ(defaults.options.limit, cli_defaults.limit);
  EXPECT_EQ(defaults.options.offset, 0u);
  EXPECT_EQ(defaults.options.sort, SortOrder::kRelevance);
  EXPECT_EQ(defaults.options.parser.match, MatchMode::kAuto);
  EXPECT_EQ(defaults.options.spelling.correct, cli_defaults.spelling.correct);
  EXPECT_EQ(defaults.options.parse, cli_defaults.parse);
  EXPECT_EQ(defaults.options.count_limit, cli_defaults.count_limit);
  EXPECT_TRUE(defaults.options.snippets.enabled);
  EXPECT_TRUE(defaults.options.facets.fields.empty());

  const SearchRequest all = search(
      "q=a&n=0&offset=10000&sort=-date&match=all&plain=1&strict=true&correct=never&explain=true"
      "&snippets=false&facets=date,source&count_limit=7&weight=bm25&bm25=k1%3D1.2&title_weight="
      "0.5");
  EXPECT_EQ(all.options.limit, 0u);
  EXPECT_EQ(all.options.offset, 10000u);
  EXPECT_EQ(all.options.sort, SortOrder::kNewestFirst);
  EXPECT_EQ(all.options.parser.match, MatchMode::kAll);
  // Plain words have no syntax to be strict about.
  EXPECT_EQ(all.options.parse, ParseMode::kPlain);
  EXPECT_EQ(search("q=a&strict=true").options.parse, ParseMode::kStrict);
  EXPECT_EQ(all.options.spelling.correct, Correction::kNever);
  EXPECT_TRUE(all.options.explain.enabled);
  EXPECT_FALSE(all.options.snippets.enabled);
  EXPECT_EQ(all.options.facets.fields,
            (std::vector<FacetField>{FacetField::kDate, FacetField::kSource}));
  EXPECT_EQ(all.options.count_limit, 7u);
  EXPECT_EQ(all.options.ranking.parameters.at("k1"), 1.2);
  EXPECT_EQ(all.options.parser.title_weight, 0.5);
  EXPECT_EQ(search("q=a&sort=date").options.sort, SortOrder::kOldestFirst);
  EXPECT_EQ(search("q=a&correct=always").options.spelling.correct, Correction::kAlways);
  EXPECT_EQ(search("q=a&n=100").options.limit, 100u);
}

TEST(ParseSearchRequest, RefusesBadParametersWith400) {
  const std::string too_long = "q=" + std::string(kMaxQueryBytes + 1, 'a');
  for (const std::string bad : {"",
                                "n=1",
                                "q=a&n=101",
                                "q=a&n=-1",
                                "q=a&n=1.5",
                                "q=a&n=",
                                "q=a&n=+1",
                                "q=a&offset=10001",
                                "q=a&offset=-1",
                                "q=a&sort=",
                                "q=a&q=b",
                                "q=a&feedback=sometimes",
                                "q=a&feedback=docs=0",
                                "q=a&Q=b",
                                "q=a&limit=1",
                                "q=a&plain=",
                                "q=a&facets=author",
                                "q=a&count_limit=0",
                                "q=a&weight=nope",
                                "q=a&weight=tfidf&bm25=k1%3D1",
                                "q=a&title_weight=-0.5",
                                "q=a&title_weight=nan",
                                too_long.c_str()}) {
    try {
      search(bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const HttpError& error) {
      EXPECT_EQ(error.status(), 400) << bad;
    }
  }
  EXPECT_EQ(search("q=" + std::string(kMaxQueryBytes, 'a')).query.size(), kMaxQueryBytes);
}

// BM25 parameters out of range would rank every match NaN and show an
// empty page; they are refused, naming the parameter and the range.
TEST(ParseSearchRequest, RefusesBm25ParametersOutOfRange) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"q=a&bm25=k1%3Dnan,b%3Dnan", "b must be a number from 0 to 1"},
      {"q=a&bm25=k1%3D1e308", "k1 must be a number from 0 to 1000"},
      {"q=a&bm25=k1%3Dinf", "k1 must be a number from 0 to 1000"},
      {"q=a&bm25=k1%3D-1", "k1 must be a number from 0 to 1000"},
      {"q=a&bm25=b%3D2", "b must be a number from 0 to 1"},
      {"q=a&weight=bm25%2B&bm25=b%3Dnan", "b must be a number from 0 to 1"},
  };
  for (const auto& [bad, message] : cases) {
    try {
      search(bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const HttpError& error) {
      EXPECT_EQ(error.status(), 400) << bad;
      const std::string what = error.what();
      EXPECT_NE(what.find("bm25"), std::string::npos) << what;
      EXPECT_NE(what.find(message), std::string::npos) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
  }
  EXPECT_EQ(search("q=a&bm25=k1%3D1000,b%3D1").options.ranking.parameters.at("k1"), 1000);
}

// A query's language, by code or name in any case, as --language takes
// it; one there is no stemmer for is refused, named.
TEST(ParseSearchRequest, LanguageIsTheQuerysOwn) {
  EXPECT_EQ(search("q=a").options.parser.language, "");
  EXPECT_EQ(search("q=a&language=fr").options.parser.language, "fr");
  EXPECT_EQ(search("q=a&language=French").options.parser.language, "French");
  EXPECT_EQ(search("q=a&language=").options.parser.language, "");
  for (const std::string bad : {"klingon", "xx", "tlh"}) {
    try {
      search("q=a&language=" + bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const HttpError& error) {
      EXPECT_EQ(error.status(), 400) << bad;
      EXPECT_EQ(std::string(error.what()),
                "parameter language: no language '" + bad +
                    "': name one by its ISO 639-1 code (fr) or its name (french)");
    }
  }
}

TEST(ParseSearchRequest, LikeAndFeedback) {
  // With like, q may be left out: the articles like the one of that id.
  const SearchRequest like = search("like=bbc-tech-064");
  EXPECT_EQ(like.options.like.id, "bbc-tech-064");
  EXPECT_EQ(like.query, "");
  const SearchRequest narrowed = search("like=a%2Fb.txt&q=oil");
  EXPECT_EQ(narrowed.options.like.id, "a/b.txt");
  EXPECT_EQ(narrowed.query, "oil");
  const SearchRequest fed = search("q=oil&feedback=on,docs%3D5");
  EXPECT_EQ(fed.options.feedback.mode, FeedbackMode::kOn);
  EXPECT_EQ(fed.options.feedback.docs, 5u);
  EXPECT_EQ(search("q=oil&feedback=off").options.feedback.mode, FeedbackMode::kOff);
  EXPECT_EQ(search("q=oil").options.feedback.mode, FeedbackMode::kAuto);
}

}  // namespace
}  // namespace quarry
