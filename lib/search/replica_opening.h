// Opening one copy of a shard, asking whether it still answers, and saying
// why none of a shard's copies could be searched: what ShardGroup does
// with each replica, apart from how it chooses among them.
#ifndef QUARRY_LIB_SEARCH_REPLICA_OPENING_H_
#define QUARRY_LIB_SEARCH_REPLICA_OPENING_H_

#include <xapian.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lib/index/stub_file.h"
#include "quarry/search/open_options.h"
#include "quarry/search/searcher.h"

namespace quarry::detail {

// Why a replica is not searched when never_written says so.
inline constexpr char kNeverWritten[] =
    "an empty Xapian database, as a replica is until its first copy arrives";

// How long a remote replica is waited for, in seconds: to accept a
// connection, and for each answer on the connection (Xapian's timeouts,
// fixed when it is opened); 0 waits for ever.
struct ReplicaWait {
  double connect_timeout = 0;
  double timeout = 0;
};

// The shortest wait replica_wait gives, however many replicas share the
// time limit: an answer on a network takes a few milliseconds, but a match
// on a large shard may take a few hundred.
inline constexpr double kLeastReplicaWait = 0.5;

// The wait of a replica of a shard of `replicas` copies: options' timeouts,
// each at most options.time_limit divided among the copies (and at least
// kLeastReplicaWait) when searches have a time limit, so that a search
// that meets a hung copy still answers within its limit, from the next.
ReplicaWait replica_wait(const OpenOptions& options, std::size_t replicas);

// The database at `location`, a folder or a remote server waited for as
// `wait` says. Throws Xapian::Error.
Xapian::Database open_location(const ShardLocation& location, const ReplicaWait& wait);

// Whether `error` says that the remote replica at `location` did not
// answer within its wait. Its connection must not be used again: each use
// waits as long, and an answer arriving late would be taken for the next.
bool timed_out(const Xapian::Error& error, const ShardLocation& location);

// "shard remote 127.0.0.1:5001 is unreachable: …", "shard /srv/i/shard-1
// cannot be opened: …"; for a shard with replicas, "shard remote A or
// remote B is unreachable: remote A: …; remote B: …".
std::string shard_failure(const std::vector<ShardLocation>& replicas,
                          const std::vector<std::string>& errors);

// The revision the replica `db` holds, which Xapian tells of a local
// database only.
std::optional<std::uint64_t> revision_of(const Xapian::Database& db, const ShardLocation& location);

// Whether `db`, read from `location`, answers: a remote one is asked over
// its connection, and marked slow (slow_replicas) when it does not answer
// in time. Its error is not kept, as the caller tries the shard's replicas
// afresh.
bool still_answers(Xapian::Database& db, const ShardLocation& location);

// What Searcher::stats says of the replica at `location`: asked over `open`
// when searches read it (else nullptr), else opened to ask, unless it was
// marked slow lately, which would keep the stats waiting as long.
ReplicaStats ask_replica(const ShardLocation& location, Xapian::Database* open,
                         const ReplicaWait& wait);

// Whether `db` is a database nobody has written to: no article and no
// metadata. xapian-replicate leaves one in a replica's folder until the
// first copy has arrived whole; Quarry never makes one, so searching it
// would pass a whole shard over in silence.
bool never_written(const Xapian::Database& db);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_SEARCH_REPLICA_OPENING_H_
