// Saved searches that alert: each new or changed article is matched against
// every saved search, and each match is an alert. Matching many searches
// against a few new articles tests only the searches an article can match:
// each search is indexed by terms of which a matching article must hold one
// (the way Lucene's Monitor indexes its queries), and only those whose
// terms the new articles hold are run, on those articles alone.
#ifndef QUARRY_SEARCH_SAVED_SEARCH_H_
#define QUARRY_SEARCH_SAVED_SEARCH_H_

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "quarry/search/search_options.h"
#include "quarry/search/searcher.h"

namespace quarry {

// A search kept to be matched against articles as they arrive. Of its
// options, those that say which articles match apply (how the query is
// read, its language); ranking, pages, spelling corrections and feedback
// do not: an alert is a filter.
struct SavedSearch {
  std::string name;
  std::string query;
  SearchOptions options;
};

// One article a saved search matched.
struct SavedSearchMatch {
  std::string search;  // the saved search's name
  std::string id;
  std::string title;
  std::string date;      // ISO 8601, or empty
  std::string snippet;   // its best passage for the search, one line
  std::string language;  // its code, as hits show it ("fr")
};

// How much of the work matching spared.
struct MatchWork {
  std::size_t searches = 0;    // saved searches held
  std::size_t articles = 0;    // articles matched against them
  std::size_t candidates = 0;  // searches run, as one of the articles held one of their terms
  std::size_t matches = 0;
};

// Matches saved searches against articles of the index `searcher` reads.
// Not thread-safe; the searcher must outlive it and is used by no one else
// while it matches.
class SavedSearchMatcher {
 public:
  explicit SavedSearchMatcher(Searcher& searcher);
  ~SavedSearchMatcher();
  SavedSearchMatcher(SavedSearchMatcher&&) noexcept;
  SavedSearchMatcher& operator=(SavedSearchMatcher&&) noexcept;

  // Replaces the searches matched. Each is read now, against the index as
  // last committed, and read again when the index comes to hold another
  // language; one with a wildcard is read again at each match(), as new
  // articles bring new words. Throws QueryError naming the search whose
  // query cannot be read, IndexError.
  void set_searches(std::vector<SavedSearch> searches);

  // The matches among the articles with these ids, as last committed
  // (ids the index does not hold are passed over), by search in the order
  // set, then by article in the order given. Throws IndexError.
  std::vector<SavedSearchMatch> match(const std::vector<std::string>& ids);

  // What the last match() did.
  const MatchWork& last_work() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace quarry

#endif  // QUARRY_SEARCH_SAVED_SEARCH_H_
