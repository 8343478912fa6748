#include "lib/search/recency_module.h"

#include <charconv>
#include <chrono>
#include <optional>

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

class Decay final : public Rescorer {
 public:
  Decay(double half_life, std::int64_t as_of) : half_life_(half_life), as_of_(as_of) {}

  double factor(const Xapian::Document& document) const override {
    const std::optional<std::int64_t> dated =
        instant_of_values(document.get_value(kDateSlot), document.get_value(kTimeSlot));
    if (!dated) return recency_factor(kUndatedHalfLives * half_life_, half_life_);
    return recency_factor(static_cast<double>(as_of_ - *dated), half_life_);
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
    decay_.emplace(recency.half_life, recency.as_of.value_or(now()));
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

  // The decay of the search under way, if it has one.
  std::optional<Decay> decay_;
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
