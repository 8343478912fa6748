// Search results the printers' tests write, built by hand: no index needed.
#ifndef QUARRY_TESTS_PRINTER_SAMPLES_H_
#define QUARRY_TESTS_PRINTER_SAMPLES_H_

#include <string>
#include <utility>
#include <vector>

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

// Gives `hit` where it comes from and what it is; "" leaves a field unset.
inline void describe(Hit& hit, std::string date, std::string source, std::string category,
                     std::string language) {
  hit.date = std::move(date);
  hit.source = std::move(source);
  hit.category = std::move(category);
  hit.language = std::move(language);
}

// Answers of one hit, a.txt, with bytes that are not UTF-8 in its title or
// in the query, each with a name that says which.
struct InvalidUtf8Sample {
  std::string name;
  SearchResult result;
};

inline std::vector<InvalidUtf8Sample> invalid_utf8_samples() {
  const struct {
    std::string name;
    std::string title;
    std::string query;
  } cases[] = {
      {"stray byte in title", "Caf\xff talk", "talk"},
      {"truncated sequence in title", "Caf\xc3", "talk"},
      {"surrogate in title", "\xed\xa0\x80 talk", "talk"},
      {"invalid query", "Café", "caf\xe9"},
  };
  std::vector<InvalidUtf8Sample> samples;
  for (const auto& c : cases) {
    SearchResult result;
    result.query = c.query;
    result.total = 1;
    result.hits.push_back(make_hit(1, "a.txt", c.title, 1, {"some talk", {{5, 9}}}));
    samples.push_back({c.name, std::move(result)});
  }
  return samples;
}

}  // namespace quarry::testing

#endif  // QUARRY_TESTS_PRINTER_SAMPLES_H_
