// The search page's request and its orders: its parameters are the option
// table's rows, and each order is named in one place, which the form, the
// links, the handler and the script all read.
#include "app/server/page_request.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>

#include "app/common/search_option_table.h"
#include "app/common/search_option_values.h"
#include "app/server/page_markup.h"
#include "app/server/search_page.h"

namespace quarry {
namespace {

std::optional<PageRequest> page(const std::string& query_string) {
  return parse_page_request(parse_target("/?" + query_string));
}

// The message the page refuses `query_string` with, or empty.
std::string refusal(const std::string& query_string) {
  try {
    page(query_string);
  } catch (const Error& error) {
    return error.what();
  }
  return "";
}

// A parameter given a row of the table is the page's too, with nothing to
// add for it here: the page takes it, or refuses its value, as /api/search
// does. The page sets how many hits and which facets itself.
TEST(PageRequest, TakesEveryParameterOfTheTableButThoseItSetsItself) {
  const std::string_view set_by_page[] = {option_named("limit", kSearchCommand)->http,
                                          option_named("facets", kSearchCommand)->http};
  std::size_t rows = 0;
  for (const SearchOption& option : search_option_table()) {
    if (option.http.empty()) continue;
    ++rows;
    const std::string given = std::string(option.http) + "=x";
    const bool set = std::find(std::begin(set_by_page), std::end(set_by_page), option.http) !=
                     std::end(set_by_page);
    EXPECT_EQ(refusal("q=oil&" + given).starts_with("unknown parameter"), set) << given;
  }
  EXPECT_GT(rows, 10u);
  EXPECT_EQ(refusal("q=oil&from=grain"), "");
  EXPECT_TRUE(refusal("q=oil&limit=5").starts_with("unknown parameter limit (known: q, "));
  const std::optional<PageRequest> matched = page("q=oil&match=all&count_limit=50");
  ASSERT_TRUE(matched);
  EXPECT_EQ(matched->search.options.parser.match, MatchMode::kAll);
  EXPECT_EQ(matched->search.options.count_limit, 50u);
  EXPECT_EQ(matched->search.options.limit, kPageHits);
}

TEST(PageRequest, NoQueryAndNoLikeIsTheBareForm) {
  EXPECT_FALSE(page(""));
  EXPECT_FALSE(page("sort=recent&collapse=none"));
  EXPECT_TRUE(page("like=a.txt"));
}

// Links written before the orders were named in one place keep working.
TEST(PageRequest, NewestRelevantIsByRelevanceWeighedByAWeeksRecency) {
  const std::optional<PageRequest> recent = page("q=oil&sort=recent");
  ASSERT_TRUE(recent);
  EXPECT_EQ(recent->order, (PageOrder{SortOrder::kRelevance, true}));
  EXPECT_EQ(recent->search.options.sort, SortOrder::kRelevance);
  EXPECT_EQ(recent->search.options.recency.half_life, 7 * 86400.0);

  const std::optional<PageRequest> newest = page("q=oil&sort=-date");
  ASSERT_TRUE(newest);
  EXPECT_EQ(newest->order, (PageOrder{SortOrder::kNewestFirst, false}));
  EXPECT_EQ(newest->search.options.sort, SortOrder::kNewestFirst);
  EXPECT_EQ(newest->search.options.recency.half_life, 0);

  EXPECT_EQ(refusal("q=oil&sort=recent&recency=3d"), "parameter recency given twice");
  EXPECT_TRUE(refusal("q=oil&sort=soon").starts_with("parameter sort must be one of"));
}

// Each order the form offers is read back as itself from the links the
// page writes.
TEST(PageOrders, EachIsOfferedAndReadBackFromTheLinksThePageWrites) {
  const std::string form = render_page("Quarry", "", {}, Collapse::kStory, "", "");
  for (const auto& [order, label] : kPageOrders) {
    const std::string name(page_order_name(order));
    EXPECT_EQ(page_order_named(name), order) << name;
    EXPECT_NE(form.find("<option value=\"" + name + "\""), std::string::npos) << name;
    EXPECT_NE(form.find(">" + std::string(label) + "</option>"), std::string::npos) << label;
    const std::string link =
        page_link({.query = "oil", .sort = order.sort, .newest_relevant = order.newest_relevant});
    const std::optional<PageRequest> read = parse_page_request(parse_target(link));
    ASSERT_TRUE(read) << link;
    EXPECT_EQ(read->order, order) << link;
  }
  EXPECT_EQ(page_link({.query = "oil"}), "/?q=oil");
  EXPECT_FALSE(page_order_named("soon"));
}

// The script reads the orders from the form rather than naming them (the
// date facet aside, whose field shares a name with an order).
TEST(PageOrders, TheScriptNamesNone) {
  const std::string_view script = search_page_script();
  const std::vector<std::string_view> fields = facet_names();
  for (const auto& [order, label] : kPageOrders) {
    const std::string name(page_order_name(order));
    EXPECT_EQ(script.find("sort=" + name), std::string_view::npos) << name;
    if (std::find(fields.begin(), fields.end(), name) != fields.end()) continue;
    EXPECT_EQ(script.find("'" + name + "'"), std::string_view::npos) << name;
  }
}

}  // namespace
}  // namespace quarry
