// How counts are said to people, in the text answers, the prompt and the
// search page alike.
#ifndef QUARRY_APP_COMMON_COUNT_TEXT_H_
#define QUARRY_APP_COMMON_COUNT_TEXT_H_

#include <cstddef>
#include <string>

#include "quarry/search/searcher.h"

namespace quarry {

// How many articles match, for people: "No articles match.", "1 article
// matches", "1,234 articles match", "10,000+ articles match" (past the
// count limit); with the stories when they group the matches, "3 articles
// match, 1 story", "86 articles match, 67 stories", "86 articles match,
// 80 near-duplicate groups", past the count limit "10,000+ articles match,
// about 7,900 stories".
std::string count_text(const SearchResult& result);

// Whether the matches make fewer hits than articles, each group shown
// once: then count_text says the stories too. The search says no more
// stories than articles, so that past the count limit an estimate of them
// is said only below the total's lower bound.
bool stories_group(const SearchResult& result);

// The total alone: "1,234", or "10,000+" past the count limit.
std::string total_text(const SearchResult& result);

// The stories alone, as count_text says them: "1 story", "about 80
// stories"; groups of near-duplicates as "80 near-duplicate groups".
std::string stories_text(const SearchResult& result);

// What a page of no hits after the last says: "No hits here: the page
// starts at 5,001, past the last of 169 stories."; empty when the page
// has hits, when nothing matches, or when it may just have been asked
// for no hits.
std::string past_end_text(const SearchResult& result);

// The line under a hit whose story has other reports: "+2 more reports:
// 001_…, 002_…" (ending ", …" past the ids listed); empty when it has none.
std::string more_reports_text(const Hit& hit);

// 12345 → "12,345".
std::string with_thousands(std::size_t number);

}  // namespace quarry

#endif  // QUARRY_APP_COMMON_COUNT_TEXT_H_
