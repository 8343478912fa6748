// The values of quarry's options and the syntax of its list options
// (--feedback, --bm25, --facets), as the command line, the HTTP API and the
// prompt read them.
#include "app/common/search_option_values.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "quarry/error.h"

namespace quarry {
namespace {

// Expects each value of `cases` to be named by its name and to name it,
// and the `unknown` names to name none.
template <typename Value, std::size_t N>
void expect_names_both_ways(const std::pair<std::string_view, Value> (&cases)[N],
                            std::string_view (*name_of)(Value),
                            std::optional<Value> (*named)(std::string_view),
                            std::initializer_list<std::string_view> unknown) {
  for (const auto& [name, value] : cases) {
    EXPECT_EQ(name_of(value), name);
    EXPECT_EQ(named(name), value) << name;
  }
  for (std::string_view name : unknown) EXPECT_FALSE(named(name)) << name;
}

// The names other tools pass to --sort, --collapse and the HTTP API.
TEST(SearchOptionNames, SortOrdersByTheirNamesAndBack) {
  const std::pair<std::string_view, SortOrder> cases[] = {{"relevance", SortOrder::kRelevance},
                                                          {"date", SortOrder::kOldestFirst},
                                                          {"-date", SortOrder::kNewestFirst}};
  expect_names_both_ways(cases, sort_name, sort_named, {"", "Date", "+date", "score"});
}

TEST(SearchOptionNames, CollapsesByTheirNamesAndBack) {
  const std::pair<std::string_view, Collapse> cases[] = {{"story", Collapse::kStory},
                                                         {"duplicates", Collapse::kDuplicates},
                                                         {"none", Collapse::kNone}};
  expect_names_both_ways(cases, collapse_name, collapse_named, {"", "stories", "Story", "off"});
}

TEST(ParseFeedback, ModesAndParameters) {
  struct Case {
    std::string text;
    FeedbackMode mode;
    unsigned docs, terms;
    double weight;
  };
  const FeedbackConfig defaults;
  const std::vector<Case> cases = {
      {"", FeedbackMode::kAuto, defaults.docs, defaults.terms, defaults.weight},
      {"on", FeedbackMode::kOn, defaults.docs, defaults.terms, defaults.weight},
      {"off", FeedbackMode::kOff, defaults.docs, defaults.terms, defaults.weight},
      {" auto ", FeedbackMode::kAuto, defaults.docs, defaults.terms, defaults.weight},
      {"docs=5,terms=8,weight=0.25", FeedbackMode::kAuto, 5, 8, 0.25},
      {"on, docs=3", FeedbackMode::kOn, 3, defaults.terms, defaults.weight},
      {"weight=1,off", FeedbackMode::kOff, defaults.docs, defaults.terms, 1},
  };
  for (const Case& c : cases) {
    FeedbackConfig config;
    parse_feedback(c.text, &config);
    EXPECT_EQ(config.mode, c.mode) << c.text;
    EXPECT_EQ(config.docs, c.docs) << c.text;
    EXPECT_EQ(config.terms, c.terms) << c.text;
    EXPECT_EQ(config.weight, c.weight) << c.text;
  }
  FeedbackConfig powered;
  parse_feedback("power=1.5", &powered);
  EXPECT_EQ(powered.power, 1.5);
  for (const std::string bad :
       {"yes", "docs=0", "docs=2.5", "weight=2", "weight=-1", "size=3", "terms=", "=3", "power=-1",
        "power=nan", "power=inf", "docs=nan", "docs=1e20"}) {
    FeedbackConfig config;
    EXPECT_THROW(parse_feedback(bad, &config), ConfigError) << bad;
  }
}

struct ParametersCase {
  std::string text;
  std::map<std::string, double> parameters;
};

TEST(Ranking, ParsesParameters) {
  const std::vector<ParametersCase> cases = {
      {"k1=1.2,b=0.75", {{"k1", 1.2}, {"b", 0.75}}},
      {" k1 = 2 , b = 0 ", {{"k1", 2}, {"b", 0}}},
      {"k1=1.2,", {{"k1", 1.2}}},
      {"c=1e-3", {{"c", 0.001}}},
      {"k1=1,k1=2", {{"k1", 2}}},
      {"", {}},
  };
  for (const ParametersCase& c : cases) {
    RankingConfig config;
    ASSERT_NO_THROW(parse_ranking_parameters(c.text, &config)) << c.text;
    EXPECT_EQ(config.parameters, c.parameters) << c.text;
  }
}

TEST(Ranking, MalformedParametersAreConfigErrors) {
  for (const char* text :
       {"k1", "k1=x", "=1", " =1", "k1=", "k1=1.2x", "k1==1", "k1=1.2;b=0.75", "b=0.75,k1"}) {
    RankingConfig config;
    EXPECT_THROW(parse_ranking_parameters(text, &config), ConfigError) << text;
  }
}

TEST(FacetNames, ListsParseInOrderOnce) {
  EXPECT_EQ(parse_facet_fields("date, source,date,"),
            (std::vector<FacetField>{FacetField::kDate, FacetField::kSource}));
  EXPECT_TRUE(parse_facet_fields("").empty());
  for (FacetField field :
       {FacetField::kSource, FacetField::kCategory, FacetField::kLanguage, FacetField::kDate}) {
    EXPECT_EQ(facet_field(facet_name(field)), field);
  }
  EXPECT_EQ(facet_names(),
            (std::vector<std::string_view>{"source", "category", "language", "date"}));
  EXPECT_EQ(parse_facet_fields("language"), std::vector<FacetField>{FacetField::kLanguage});
  try {
    parse_facet_fields("source,author");
    ADD_FAILURE() << "an unknown field was taken";
  } catch (const ConfigError& error) {
    EXPECT_NE(std::string(error.what()).find("'author'"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace quarry
