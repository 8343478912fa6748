// Replicas that kept a search waiting past their share of its time, as
// every searcher of the process has met them. For a while after, a shard is
// read from its other replicas first, so that a hung replica costs one
// search its wait rather than every search that would have read it.
#ifndef QUARRY_LIB_SEARCH_SLOW_REPLICAS_H_
#define QUARRY_LIB_SEARCH_SLOW_REPLICAS_H_

#include <chrono>
#include <cstddef>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "lib/index/stub_file.h"

namespace quarry::detail {

// Thread-safe: the searchers of a server's workers share one.
class SlowReplicas {
 public:
  using Clock = std::chrono::steady_clock;
  // How long a replica that kept a search waiting is tried after the
  // others: long enough that a server's searches go elsewhere while it
  // hangs, short enough that one back at work soon takes its share again.
  // After it, the next searcher to open its shard, or to fail over, tries
  // the replica in its turn, and marks it again if it still hangs.
  static constexpr std::chrono::seconds kMarkedFor{60};

  // The replica named `name` (ShardLocation::name) did not answer in time.
  void mark(const std::string& name, Clock::time_point now = Clock::now());
  // It answered.
  void clear(const std::string& name);
  // Whether it was marked within kMarkedFor before `now`.
  bool slow(const std::string& name, Clock::time_point now = Clock::now()) const;

 private:
  mutable std::mutex mutex_;
  std::map<std::string, Clock::time_point> marked_at_;
};

// The process's, which every ShardGroup reads and marks.
SlowReplicas& slow_replicas();

// The indexes of `replicas` in the order a shard tries them: in turn from
// `first` (modulo their number), those `slow` marks last, `skipped` left
// out.
std::vector<std::size_t> replica_order(
    const std::vector<ShardLocation>& replicas, std::size_t first,
    std::optional<std::size_t> skipped, const SlowReplicas& slow,
    SlowReplicas::Clock::time_point now = SlowReplicas::Clock::now());

}  // namespace quarry::detail

#endif  // QUARRY_LIB_SEARCH_SLOW_REPLICAS_H_
