// How a Searcher opens its databases.
#ifndef QUARRY_SEARCH_OPEN_OPTIONS_H_
#define QUARRY_SEARCH_OPEN_OPTIONS_H_

namespace quarry {

struct OpenOptions {
  // Seconds to wait for a remote shard to accept a connection, and for any
  // one exchange with it afterwards; 0 waits for ever.
  double connect_timeout = 10;
  double timeout = 10;
  // Seconds a search may take (SearchOptions::time_limit), when searches
  // have a limit; 0: none. A remote replica is then waited for at most
  // its share of it, the limit divided among its shard's copies (at least
  // half a second): one that does not answer within its share is passed
  // over for the shard's next, and tried after the others by every
  // searcher of the process for a minute.
  double time_limit = 0;
  // Search the shards that answer when some do not, warning about the
  // others (SearchResult::warnings), instead of failing.
  bool allow_partial = false;
};

}  // namespace quarry

#endif  // QUARRY_SEARCH_OPEN_OPTIONS_H_
