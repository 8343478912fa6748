// Which replica of a shard is tried first, once some were slow to answer.
#include "lib/search/slow_replicas.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

namespace quarry::testing {
namespace {

using detail::ShardLocation;
using detail::SlowReplicas;

std::vector<ShardLocation> replicas(std::size_t count) {
  std::vector<ShardLocation> locations;
  for (std::size_t i = 0; i < count; ++i) {
    ShardLocation location;
    location.kind = ShardLocation::Kind::kTcp;
    location.host = "127.0.0.1";
    location.port = 5000 + static_cast<unsigned>(i);
    locations.push_back(location);
  }
  return locations;
}

TEST(SlowReplicas, MarkedReplicasAreTriedLastUntilTheMarkLapses) {
  const SlowReplicas::Clock::time_point now{};
  const std::vector<ShardLocation> three = replicas(3);
  struct Case {
    std::vector<std::size_t> marked;
    std::size_t first;
    std::optional<std::size_t> skipped;
    std::vector<std::size_t> order;
  };
  const Case cases[] = {
      {{}, 0, std::nullopt, {0, 1, 2}},
      {{}, 4, std::nullopt, {1, 2, 0}},
      {{}, 1, 0, {1, 2}},
      {{0}, 0, std::nullopt, {1, 2, 0}},
      {{1}, 0, std::nullopt, {0, 2, 1}},
      {{0, 2}, 2, std::nullopt, {1, 2, 0}},
      {{1}, 2, 1, {2, 0}},
      {{0, 1, 2}, 1, std::nullopt, {1, 2, 0}},
  };
  for (const Case& test : cases) {
    SlowReplicas slow;
    for (std::size_t i : test.marked) slow.mark(three[i].name(), now);
    EXPECT_EQ(detail::replica_order(three, test.first, test.skipped, slow, now), test.order)
        << "first " << test.first << ", " << test.marked.size() << " marked";
    // Once the marks lapse, the order is the turn's alone.
    std::vector<std::size_t> in_turn;
    for (std::size_t k = 0; k < 3; ++k) {
      if ((test.first + k) % 3 != test.skipped) in_turn.push_back((test.first + k) % 3);
    }
    EXPECT_EQ(detail::replica_order(three, test.first, test.skipped, slow,
                                    now + SlowReplicas::kMarkedFor),
              in_turn);
  }
}

TEST(SlowReplicas, AReplicaThatAnswersIsNoLongerSlow) {
  const SlowReplicas::Clock::time_point now{};
  SlowReplicas slow;
  slow.mark("remote 127.0.0.1:5000", now);
  EXPECT_TRUE(slow.slow("remote 127.0.0.1:5000", now + SlowReplicas::kMarkedFor / 2));
  EXPECT_FALSE(slow.slow("remote 127.0.0.1:5001", now));
  slow.clear("remote 127.0.0.1:5000");
  EXPECT_FALSE(slow.slow("remote 127.0.0.1:5000", now));
}

}  // namespace
}  // namespace quarry::testing
