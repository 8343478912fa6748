// Dates as a query writes them (lib/search/date_range.cc): the days each
// form covers, the forms refused, and the articles the resulting queries
// select.
#include "lib/search/date_range.h"

#include <gtest/gtest.h>
#include <xapian.h>

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "lib/index/schema.h"

namespace quarry::detail {
namespace {

struct RangeCase {
  const char* name;
  std::string text;
  std::string from;  // inclusive "YYYYMMDD"; empty: open
  std::string to;
};

void PrintTo(const RangeCase& c, std::ostream* out) { *out << c.text; }

class DateRangeForms : public ::testing::TestWithParam<RangeCase> {};

TEST_P(DateRangeForms, CoverTheirDays) {
  const RangeCase& c = GetParam();
  const std::optional<DateRange> range = parse_date_range(c.text);
  ASSERT_TRUE(range.has_value()) << c.text;
  EXPECT_EQ(range->from, c.from) << c.text;
  EXPECT_EQ(range->to, c.to) << c.text;
}

INSTANTIATE_TEST_SUITE_P(
    Table, DateRangeForms,
    ::testing::Values(RangeCase{"Year", "2017", "20170101", "20171231"},
                      RangeCase{"Month", "2017-12", "20171201", "20171231"},
                      RangeCase{"ThirtyDayMonth", "2017-11", "20171101", "20171130"},
                      RangeCase{"February", "2017-02", "20170201", "20170228"},
                      RangeCase{"LeapFebruary", "2016-02", "20160201", "20160229"},
                      RangeCase{"Day", "2017-12-10", "20171210", "20171210"},
                      RangeCase{"LeapDay", "2016-02-29", "20160229", "20160229"},
                      RangeCase{"DaysRange", "2017-12-01..2017-12-31", "20171201", "20171231"},
                      RangeCase{"MixedRange", "2016..2017-06", "20160101", "20170630"},
                      RangeCase{"OneDayRange", "2017-12-10..2017-12-10", "20171210", "20171210"},
                      RangeCase{"OpenEnd", "2017-12..", "20171201", ""},
                      RangeCase{"OpenStart", "..2017-06", "", "20170630"}),
    [](const auto& info) { return info.param.name; });

struct RefusedCase {
  const char* name;
  std::string text;
};

void PrintTo(const RefusedCase& c, std::ostream* out) { *out << c.text; }

class DateRangeRefused : public ::testing::TestWithParam<RefusedCase> {};

TEST_P(DateRangeRefused, IsNoDate) {
  EXPECT_FALSE(parse_date_range(GetParam().text).has_value()) << GetParam().text;
}

INSTANTIATE_TEST_SUITE_P(
    Table, DateRangeRefused,
    ::testing::Values(RefusedCase{"Empty", ""}, RefusedCase{"MonthThirteen", "2017-13-01"},
                      RefusedCase{"FebruaryThirtieth", "2017-02-30"},
                      RefusedCase{"NoLeapDay", "2017-02-29"}, RefusedCase{"DayZero", "2017-12-00"},
                      RefusedCase{"MonthZero", "2017-00"}, RefusedCase{"MonthAlone13", "2017-13"},
                      RefusedCase{"TwoDigitYear", "17"}, RefusedCase{"FiveDigitYear", "20170"},
                      RefusedCase{"UnpaddedMonth", "2017-1-10"},
                      RefusedCase{"Slashes", "2017/12/10"}, RefusedCase{"Letters", "december"},
                      RefusedCase{"TimeAttached", "2017-12-10T15:01"},
                      RefusedCase{"DotsAlone", ".."}, RefusedCase{"BadStart", "2017-13..2018"},
                      RefusedCase{"BadEnd", "2017..2018-02-30"},
                      RefusedCase{"Reversed", "2018..2017"},
                      RefusedCase{"ReversedDays", "2017-12-10..2017-12-09"}),
    [](const auto& info) { return info.param.name; });

TEST(DateBound, RefusesWhatARangeRefuses) {
  for (const char* text : {"", "2017-13-01", "2017-02-30", "17", "2017..2018", "..2018"}) {
    EXPECT_FALSE(parse_date_bound(text, true).has_value()) << "after:" << text;
    EXPECT_FALSE(parse_date_bound(text, false).has_value()) << "before:" << text;
  }
}

// Articles one per day around a change of month and of year, selected by
// the queries the date forms become.
class DateQueryTest : public ::testing::Test {
 protected:
  DateQueryTest() : db_(std::string(), Xapian::DB_BACKEND_INMEMORY) {
    for (const char* date : {"20161231", "20170101", "20171130", "20171201", "20171210", "20171231",
                             "20180101", "20180301"}) {
      Xapian::Document doc;
      doc.add_value(kDateSlot, date);
      doc.set_data(date);
      db_.add_document(doc);
    }
    // An article without a date matches no date query.
    db_.add_document(Xapian::Document());
  }

  std::vector<std::string> dates(const std::optional<DateRange>& range) {
    EXPECT_TRUE(range.has_value());
    if (!range) return {};
    Xapian::Enquire enquire(db_);
    enquire.set_query(date_query(*range));
    enquire.set_docid_order(Xapian::Enquire::ASCENDING);
    std::vector<std::string> found;
    const Xapian::MSet mset = enquire.get_mset(0, db_.get_doccount());
    for (auto it = mset.begin(); it != mset.end(); ++it)
      found.push_back(it.get_document().get_data());
    return found;
  }

  Xapian::WritableDatabase db_;
};

using Dates = std::vector<std::string>;

TEST_F(DateQueryTest, RangesSelectTheirDaysInclusively) {
  EXPECT_EQ(dates(parse_date_range("2017-12")), (Dates{"20171201", "20171210", "20171231"}));
  EXPECT_EQ(dates(parse_date_range("2017-12-10")), (Dates{"20171210"}));
  EXPECT_EQ(dates(parse_date_range("2017-11-30..2018-01-01")),
            (Dates{"20171130", "20171201", "20171210", "20171231", "20180101"}));
  EXPECT_EQ(dates(parse_date_range("2018..")), (Dates{"20180101", "20180301"}));
  EXPECT_EQ(dates(parse_date_range("..2017-01")), (Dates{"20161231", "20170101"}));
  EXPECT_EQ(dates(parse_date_range("2019")), Dates{});
}

// after: and before: include the date they name, whole: the day, month or
// year.
TEST_F(DateQueryTest, AfterIncludesTheWholeDate) {
  EXPECT_EQ(dates(parse_date_bound("2017-12-10", true)),
            (Dates{"20171210", "20171231", "20180101", "20180301"}));
  EXPECT_EQ(dates(parse_date_bound("2017-12", true)),
            (Dates{"20171201", "20171210", "20171231", "20180101", "20180301"}));
  EXPECT_EQ(dates(parse_date_bound("2018", true)), (Dates{"20180101", "20180301"}));
  EXPECT_EQ(dates(parse_date_bound("2018-03-01", true)), Dates{"20180301"});
  EXPECT_EQ(dates(parse_date_bound("2018-03-02", true)), Dates{});
}

TEST_F(DateQueryTest, BeforeIncludesTheWholeDate) {
  EXPECT_EQ(dates(parse_date_bound("2017-12-01", false)),
            (Dates{"20161231", "20170101", "20171130", "20171201"}));
  EXPECT_EQ(dates(parse_date_bound("2017-11", false)), (Dates{"20161231", "20170101", "20171130"}));
  EXPECT_EQ(dates(parse_date_bound("2017", false)),
            (Dates{"20161231", "20170101", "20171130", "20171201", "20171210", "20171231"}));
  EXPECT_EQ(dates(parse_date_bound("2016-12-31", false)), Dates{"20161231"});
  EXPECT_EQ(dates(parse_date_bound("2016-12-30", false)), Dates{});
}

// One day named by both bounds is that day.
TEST_F(DateQueryTest, AfterAndBeforeTheSameDayAreThatDay) {
  const DateRange from = *parse_date_bound("2017-12-10", true);
  const DateRange to = *parse_date_bound("2017-12-10", false);
  EXPECT_EQ(dates(DateRange{from.from, to.to}), Dates{"20171210"});
}

}  // namespace
}  // namespace quarry::detail
