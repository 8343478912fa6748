#include "lib/search/slow_replicas.h"

#include <algorithm>

namespace quarry::detail {

void SlowReplicas::mark(const std::string& name, Clock::time_point now) {
  const std::lock_guard<std::mutex> lock(mutex_);
  // Lapsed marks go, so that the map holds no more than the replicas that
  // hung lately.
  std::erase_if(marked_at_, [&](const auto& entry) { return now - entry.second >= kMarkedFor; });
  marked_at_[name] = now;
}

void SlowReplicas::clear(const std::string& name) {
  const std::lock_guard<std::mutex> lock(mutex_);
  marked_at_.erase(name);
}

bool SlowReplicas::slow(const std::string& name, Clock::time_point now) const {
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto found = marked_at_.find(name);
  return found != marked_at_.end() && now - found->second < kMarkedFor;
}

SlowReplicas& slow_replicas() {
  static SlowReplicas replicas;
  return replicas;
}

std::vector<std::size_t> replica_order(const std::vector<ShardLocation>& replicas,
                                       std::size_t first, std::optional<std::size_t> skipped,
                                       const SlowReplicas& slow,
                                       SlowReplicas::Clock::time_point now) {
  std::vector<std::size_t> order;
  for (std::size_t k = 0; k < replicas.size(); ++k) {
    const std::size_t i = (first + k) % replicas.size();
    if (i != skipped) order.push_back(i);
  }
  std::stable_partition(order.begin(), order.end(),
                        [&](std::size_t i) { return !slow.slow(replicas[i].name(), now); });
  return order;
}

}  // namespace quarry::detail
