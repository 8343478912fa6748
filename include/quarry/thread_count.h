// How many threads the engine and its front ends run when asked for "as
// many as there are cores" (0), so that indexing and batch searching agree.
#ifndef QUARRY_THREAD_COUNT_H_
#define QUARRY_THREAD_COUNT_H_

#include <cstddef>

namespace quarry {

// `requested`, or when it is 0 the cores this machine has; at least 1 even
// where the standard library cannot tell.
std::size_t thread_count(std::size_t requested);

}  // namespace quarry

#endif  // QUARRY_THREAD_COUNT_H_
