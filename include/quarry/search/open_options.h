// How a Searcher opens its databases.
#ifndef QUARRY_SEARCH_OPEN_OPTIONS_H_
#define QUARRY_SEARCH_OPEN_OPTIONS_H_

namespace quarry {

struct OpenOptions {
  // Seconds to wait for a remote shard to accept a connection, and for any
  // one exchange with it afterwards; 0 waits for ever.
  double connect_timeout = 10;
  double timeout = 10;
  // Search the shards that answer when some do not, warning about the
  // others (SearchResult::warnings), instead of failing.
  bool allow_partial = false;
};

}  // namespace quarry

#endif  // QUARRY_SEARCH_OPEN_OPTIONS_H_
