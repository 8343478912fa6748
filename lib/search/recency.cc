#include "quarry/search/recency.h"

#include <cctype>
#include <chrono>
#include <cmath>
#include <string>

#include "lib/index/schema.h"
#include "lib/search/recency_module.h"

namespace quarry {

double recency_factor(double age, double half_life) {
  if (!(age > 0)) return 1;
  return std::exp2(-age / half_life);
}

namespace {

// Reads a text from its start, a piece at a time.
class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}
  bool done() const { return at_ == text_.size(); }
  bool digits(std::size_t count) {
    for (std::size_t i = 0; i < count; ++i, ++at_) {
      if (done() || !std::isdigit(static_cast<unsigned char>(text_[at_]))) return false;
    }
    return true;
  }
  bool more_digits() {
    if (!digits(1)) return false;
    while (!done() && std::isdigit(static_cast<unsigned char>(text_[at_]))) ++at_;
    return true;
  }
  bool take(char c) {
    if (done() || text_[at_] != c) return false;
    ++at_;
    return true;
  }

 private:
  std::string_view text_;
  std::size_t at_ = 0;
};

// Whether `iso` has one of the forms an article's date may take (schema.h's
// sortable_date and sortable_time), and nothing after it:
// YYYY-MM-DD, then [T ]hh:mm[:ss[.fraction]][Z|±hh[[:]mm]].
bool is_iso_instant(std::string_view iso) {
  Reader read(iso);
  if (!(read.digits(4) && read.take('-') && read.digits(2) && read.take('-') && read.digits(2))) {
    return false;
  }
  if (read.done()) return true;
  if (!(read.take('T') || read.take(' '))) return false;
  if (!(read.digits(2) && read.take(':') && read.digits(2))) return false;
  if (read.take(':')) {
    if (!read.digits(2)) return false;
    if ((read.take('.') || read.take(',')) && !read.more_digits()) return false;
  }
  if (read.done()) return true;
  if (read.take('Z')) return read.done();
  if (!(read.take('+') || read.take('-')) || !read.digits(2)) return false;
  if (read.done()) return true;
  read.take(':');
  return read.digits(2) && read.done();
}

}  // namespace

std::optional<std::int64_t> instant_of(std::string_view iso) {
  if (!is_iso_instant(iso)) return std::nullopt;
  const std::string date = detail::sortable_date(iso);
  const std::string time = detail::sortable_time(iso);
  if (date.empty() || (iso.size() > 10 && time.empty())) return std::nullopt;
  return detail::instant_of_values(date, time);
}

}  // namespace quarry
