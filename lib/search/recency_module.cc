#include "lib/search/recency_module.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <optional>
#include <string>

#include "lib/index/schema.h"
#include "quarry/search/recency.h"

namespace quarry::detail {
namespace {

int digits_at(std::string_view text, std::size_t at, std::size_t count) {
  int value = 0;
  if (at + count > text.size()) return 0;
  std::from_chars(text.data() + at, text.data() + at + count, value);
  return value;
}

// "1987-10-20T00:00:00Z": an instant in seconds since 1970 as ISO 8601.
std::string iso_instant(std::int64_t seconds) {
  const std::chrono::sys_seconds instant{std::chrono::seconds{seconds}};
  const auto day = std::chrono::floor<std::chrono::days>(instant);
  const std::chrono::year_month_day date{day};
  const std::chrono::hh_mm_ss time{instant - day};
  char text[32];
  std::snprintf(text, sizeof text, "%04d-%02u-%02uT%02d:%02d:%02dZ", static_cast<int>(date.year()),
                static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()),
                static_cast<int>(time.hours().count()), static_cast<int>(time.minutes().count()),
                static_cast<int>(time.seconds().count()));
  return text;
}

class Decay final : public Rescorer {
 public:
  Decay(double half_life, std::int64_t as_of) : half_life_(half_life), as_of_(as_of) {}

  double factor(const Xapian::Document& document) const override {
    const std::optional<std::int64_t> dated =
        instant_of_values(document.get_value(kDateSlot), document.get_value(kTimeSlot));
    // No age counts more than an undated article's: past it, the decay
    // would soon reach zero (a week's half-life over a 1987 archive is
    // 2^-2000), wiping out relevance and ranking by age alone. At it,
    // articles equally old by that measure rank by relevance.
    const double oldest = kUndatedHalfLives * half_life_;
    const double age = dated ? std::min(static_cast<double>(as_of_ - *dated), oldest) : oldest;
    return recency_factor(age, half_life_);
  }

 private:
  double half_life_;
  std::int64_t as_of_;
};

std::int64_t now() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

class RecencyModule final : public SearchModule {
 public:
  void rank(const SearchContext& context, Ranking* ranking) override {
    decay_.reset();
    if (!wanted(context.options) || !any_dated(context)) return;
    const RecencyOptions& recency = context.options.recency;
    clock_ = recency.as_of.value_or(default_clock(context, ranking->parsed.query));
    decay_.emplace(recency.half_life, clock_);
    ranking->rescorer = &*decay_;
  }

  void count(const SearchContext& context, const Matches& /*matches*/,
             SearchResult* result) override {
    if (context.options.recency.half_life <= 0) return;
    if (context.options.sort != SortOrder::kRelevance) {
      result->notes.push_back(
          "recency weighs the ranking by relevance only: hits sorted by date are not reweighed");
    } else if (!any_dated(context)) {
      result->notes.push_back(
          "no article in the index has a date: ranked by relevance alone, without recency");
    } else if (decay_ && context.options.explain.enabled) {
      result->notes.push_back("recency counts ages from " + iso_instant(clock_) +
                              (context.options.recency.as_of ? " (as of)"
                               : clock_ < now() ? ", the end of the newest matching article's day"
                                                : " (now)"));
    }
  }

  void fill_hit(const SearchContext& context, const StoredHit& stored, Hit* hit) override {
    if (!decay_ || !context.options.explain.enabled) return;
    const double factor = decay_->factor(
        context.shards.articles().get_document(stored.did, Xapian::DOC_ASSUME_VALID));
    hit->explanation.push_back({"×recency", factor});
  }

 private:
  static bool wanted(const SearchOptions& options) {
    return options.recency.half_life > 0 && options.sort == SortOrder::kRelevance;
  }
  static bool any_dated(const SearchContext& context) {
    return context.shards.articles().get_value_freq(kDateSlot) > 0;
  }

  // Now, or when the newest article the query matches is older, the end
  // of that article's day: ages are counted from the news the query finds,
  // so that a week's half-life means the same over 1987's wire copy as
  // over today's, and its scores stay those of relevance, not of a
  // vanishing fraction of it. The newest match is the first of the
  // matches sorted by date, without weighing them.
  static std::int64_t default_clock(const SearchContext& context, const Xapian::Query& query) {
    const std::int64_t present = now();
    Xapian::Enquire newest(context.shards.articles());
    newest.set_query(query);
    newest.set_weighting_scheme(Xapian::BoolWeight());
    newest.set_sort_by_value(kDateSlot, true);
    const Xapian::MSet first = newest.get_mset(0, 1);
    if (first.empty()) return present;
    const std::optional<std::int64_t> dated =
        instant_of_values(first.begin().get_document().get_value(kDateSlot), "");
    return dated ? std::min(present, *dated + kSecondsADay) : present;
  }

  static constexpr std::int64_t kSecondsADay = 86400;

  // The decay of the search under way, if it has one, and the instant it
  // counts ages from.
  std::optional<Decay> decay_;
  std::int64_t clock_ = 0;
};

}  // namespace

std::optional<std::int64_t> instant_of_values(std::string_view date, std::string_view time) {
  if (date.size() != 8) return std::nullopt;
  const std::chrono::year_month_day day{
      std::chrono::year{digits_at(date, 0, 4)},
      std::chrono::month(static_cast<unsigned>(digits_at(date, 4, 2))),
      std::chrono::day(static_cast<unsigned>(digits_at(date, 6, 2)))};
  if (!day.ok()) return std::nullopt;
  std::int64_t seconds =
      std::chrono::sys_days(day).time_since_epoch().count() * std::int64_t{86400};
  // A time taken to UTC before the day written starts is marked "-" and
  // written a day on (sortable_time).
  const bool before = !time.empty() && time[0] == '-';
  if (before) time.remove_prefix(1);
  if (time.size() >= 4) {
    seconds += digits_at(time, 0, 2) * 3600 + digits_at(time, 2, 2) * 60 + digits_at(time, 4, 2);
    if (before) seconds -= 86400;
  }
  return seconds;
}

std::unique_ptr<SearchModule> make_recency_module() { return std::make_unique<RecencyModule>(); }

}  // namespace quarry::detail
