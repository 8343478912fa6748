// An article as Quarry indexes it, and where it came from.
#ifndef QUARRY_INPUT_ARTICLE_H_
#define QUARRY_INPUT_ARTICLE_H_

#include <cstddef>
#include <string>

namespace quarry {

struct Article {
  std::string id;  // unique within the index
  std::string title;
  std::string body;
  std::string date;  // ISO 8601 ("2017-12-10" or "2017-12-10T15:01:01"), may be empty
  std::string category;
  std::string source;
  // The language the input says it is in, normalized to a stemmer's name
  // ("french" for "fr", "French" or "fr-CA"; see stemmer_language); empty
  // when it says none, and the indexer then tells it from the text.
  std::string language = {};
};

// A place in the input: a file, and for JSON Lines the 1-based line (0 when
// the whole file is meant).
struct SourceLocation {
  std::string path;
  std::size_t line = 0;

  // "path" or "path:line".
  std::string to_string() const;
};

}  // namespace quarry

#endif  // QUARRY_INPUT_ARTICLE_H_
