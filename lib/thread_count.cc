#include "quarry/thread_count.h"

#include <algorithm>
#include <thread>

namespace quarry {

std::size_t thread_count(std::size_t requested) {
  if (requested != 0) return requested;
  return std::max(1u, std::thread::hardware_concurrency());
}

}  // namespace quarry
