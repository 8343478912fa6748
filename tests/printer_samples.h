// Search results the printers' tests write, built by hand: no index needed.
#ifndef QUARRY_TESTS_PRINTER_SAMPLES_H_
#define QUARRY_TESTS_PRINTER_SAMPLES_H_

#include <string>
#include <utility>

#include "quarry/search/searcher.h"

namespace quarry::testing {

inline Hit make_hit(std::size_t rank, std::string id, std::string title, double score,
                    Snippet snippet) {
  Hit hit;
  hit.rank = rank;
  hit.id = std::move(id);
  hit.title = std::move(title);
  hit.score = score;
  hit.snippet = std::move(snippet);
  return hit;
}

// Two hits of "mourinho", the second with an accent and an emoji before
// its highlights.
inline SearchResult two_hits() {
  SearchResult result;
  result.query = "mourinho";
  result.total = 2;
  result.hits.push_back(make_hit(1, "a.txt", "Mourinho leaves", 1.23456,
                                 {"\u2026said Mourinho today\u2026", {{6, 14}}}));
  result.hits.push_back(
      make_hit(2, "b.txt", "Café talk", 0.5, {"le café de 😀 Mourinho", {{3, 7}, {13, 21}}}));
  return result;
}

}  // namespace quarry::testing

#endif  // QUARRY_TESTS_PRINTER_SAMPLES_H_
