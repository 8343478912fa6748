#include "app/server/response_cache.h"

namespace quarry {
namespace {

// What an entry holds beyond its key and body: headers, the list and map
// nodes; an estimate, so that many small answers are not thought free.
constexpr std::size_t kEntryOverhead = 256;

std::size_t size_of(const std::string& key, const HttpResponse& response) {
  std::size_t bytes = kEntryOverhead + key.size() + response.body.size();
  for (const auto& [name, value] : response.headers) bytes += name.size() + value.size();
  return bytes;
}

}  // namespace

std::optional<HttpResponse> ResponseCache::find(const std::string& key) {
  std::lock_guard lock(mutex_);
  const auto found = by_key_.find(key);
  if (found == by_key_.end()) return std::nullopt;
  entries_.splice(entries_.begin(), entries_, found->second);
  return found->second->response;
}

void ResponseCache::add(const std::string& key, const HttpResponse& response) {
  const std::size_t bytes = size_of(key, response);
  if (bytes > max_bytes_) return;
  std::lock_guard lock(mutex_);
  // Another worker may have answered the same request meanwhile.
  if (by_key_.count(key) != 0) return;
  evict_to(max_bytes_ - bytes);
  entries_.push_front({key, response, bytes});
  by_key_.emplace(entries_.front().key, entries_.begin());
  bytes_ += bytes;
}

void ResponseCache::evict_to(std::size_t bytes) {
  while (bytes_ > bytes && !entries_.empty()) {
    const Entry& oldest = entries_.back();
    bytes_ -= oldest.bytes;
    by_key_.erase(oldest.key);
    entries_.pop_back();
  }
}

std::size_t ResponseCache::entries() {
  std::lock_guard lock(mutex_);
  return entries_.size();
}

std::size_t ResponseCache::bytes() {
  std::lock_guard lock(mutex_);
  return bytes_;
}

}  // namespace quarry
