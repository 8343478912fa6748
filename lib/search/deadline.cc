#include "lib/search/deadline.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace quarry::detail {
namespace {

// Every document of the database, until the deadline passes: then none.
// Filtering a query by it ends the match there, as a term whose postings
// run out ends an AND. Its frequencies are the database's size, so that
// the matcher's estimates of the query are what they were without it. The
// clock is read once every few documents, so that a match past its time
// still ranks the first few it met.
class DeadlineSource final : public Xapian::PostingSource {
 public:
  explicit DeadlineSource(const Deadline& deadline) : deadline_(deadline) {}

  void init(const Xapian::Database& db) override {
    size_ = db.get_doccount();
    last_ = db.get_lastdocid();
    did_ = 0;
    ended_ = false;
    moves_ = 0;
  }
  Xapian::doccount get_termfreq_min() const override { return size_; }
  Xapian::doccount get_termfreq_est() const override { return size_; }
  Xapian::doccount get_termfreq_max() const override { return size_; }

  void next(double /*min_wt*/) override { move_to(did_ + 1); }
  void skip_to(Xapian::docid did, double /*min_wt*/) override {
    move_to(std::max<Xapian::docid>(did, did_ + (did_ == 0 ? 1 : 0)));
  }
  bool check(Xapian::docid did, double min_wt) override {
    skip_to(did, min_wt);
    return true;
  }
  bool at_end() const override { return ended_; }
  Xapian::docid get_docid() const override { return did_; }

  Xapian::PostingSource* clone() const override { return new DeadlineSource(deadline_); }
  std::string get_description() const override { return "DeadlineSource()"; }

 private:
  void move_to(Xapian::docid did) {
    did_ = did;
    ended_ = did_ > last_ || did_ == 0 || (++moves_ % kMovesPerCheck == 0 && deadline_.expired());
  }

  static constexpr unsigned kMovesPerCheck = 16;

  const Deadline& deadline_;
  Xapian::doccount size_ = 0;
  Xapian::docid last_ = 0;
  Xapian::docid did_ = 0;
  bool ended_ = false;
  unsigned moves_ = 0;
};

}  // namespace

Deadline::Deadline(double seconds) {
  if (seconds > 0 && std::isfinite(seconds)) {
    at_ = std::chrono::steady_clock::now() +
          std::chrono::duration_cast<std::chrono::steady_clock::duration>(
              std::chrono::duration<double>(seconds));
  }
}

bool Deadline::expired() const {
  if (!at_) return false;
  if (!cut_short_ && std::chrono::steady_clock::now() >= *at_) cut_short_ = true;
  return cut_short_;
}

double Deadline::seconds_left() const {
  if (!at_) return 0;
  const std::chrono::duration<double> left = *at_ - std::chrono::steady_clock::now();
  return std::max(left.count(), 0.001);
}

Xapian::Query deadline_bounded(const Xapian::Query& query, const Deadline& deadline, bool local) {
  // A query of a few words takes as long as its posting lists, a few
  // milliseconds even on a million articles, and the filter would cost it
  // a tenth of that; only a query of many terms can run for seconds.
  constexpr Xapian::termcount kFewTerms = 64;
  if (!deadline.limited() || !local || query.get_length() <= kFewTerms) return query;
  // Xapian owns the source once released.
  return Xapian::Query(Xapian::Query::OP_FILTER, query,
                       Xapian::Query((new DeadlineSource(deadline))->release()));
}

}  // namespace quarry::detail
