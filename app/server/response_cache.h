// Answers kept for requests asked again while the index stays as it was: a
// news desk's readers search the same things, and an answer read from
// memory costs microseconds where a search costs milliseconds.
#ifndef QUARRY_APP_SERVER_RESPONSE_CACHE_H_
#define QUARRY_APP_SERVER_RESPONSE_CACHE_H_

#include <cstddef>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "app/server/http_response.h"

namespace quarry {

// Responses by key, at most `max_bytes` of keys and bodies together; the
// least recently used go first. A key must name everything the answer
// depends on, the index's revision included (Searcher::revision), so that
// nothing is ever answered from an index that has since changed. Shared by
// the server's workers: thread-safe.
class ResponseCache {
 public:
  explicit ResponseCache(std::size_t max_bytes) : max_bytes_(max_bytes) {}

  std::optional<HttpResponse> find(const std::string& key);
  // Keeps `response` unless it alone is larger than the whole cache.
  void add(const std::string& key, const HttpResponse& response);

  // How many answers it holds, and their bytes as counted against the limit.
  std::size_t entries();
  std::size_t bytes();

 private:
  struct Entry {
    std::string key;
    HttpResponse response;
    std::size_t bytes = 0;
  };

  void evict_to(std::size_t bytes);

  std::mutex mutex_;
  const std::size_t max_bytes_;
  std::list<Entry> entries_;  // most recently used first
  std::unordered_map<std::string_view, std::list<Entry>::iterator> by_key_;
  std::size_t bytes_ = 0;
};

}  // namespace quarry

#endif  // QUARRY_APP_SERVER_RESPONSE_CACHE_H_
