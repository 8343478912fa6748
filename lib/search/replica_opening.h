// Opening one copy of a shard, asking whether it still answers, and saying
// why none of a shard's copies could be searched: what ShardGroup does
// with each replica, apart from how it chooses among them.
#ifndef QUARRY_LIB_SEARCH_REPLICA_OPENING_H_
#define QUARRY_LIB_SEARCH_REPLICA_OPENING_H_

#include <xapian.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lib/index/stub_file.h"
#include "quarry/search/open_options.h"

namespace quarry::detail {

// Why a replica is not searched when never_written says so.
inline constexpr char kNeverWritten[] =
    "an empty Xapian database, as a replica is until its first copy arrives";

// The database at `location`, a folder or a remote server, with the
// timeouts of `options`. Throws Xapian::Error.
Xapian::Database open_location(const ShardLocation& location, const OpenOptions& options);

// "shard remote 127.0.0.1:5001 is unreachable: …", "shard /srv/i/shard-1
// cannot be opened: …"; for a shard with replicas, "shard remote A or
// remote B is unreachable: remote A: …; remote B: …".
std::string shard_failure(const std::vector<ShardLocation>& replicas,
                          const std::vector<std::string>& errors);

// The revision the replica `db` holds, which Xapian tells of a local
// database only.
std::optional<std::uint64_t> revision_of(const Xapian::Database& db, const ShardLocation& location);

// Whether `db` answers: a remote one is asked over its connection. Its
// error is not kept, as the caller tries the shard's replicas afresh.
bool still_answers(Xapian::Database& db);

// Whether `db` is a database nobody has written to: no article and no
// metadata. xapian-replicate leaves one in a replica's folder until the
// first copy has arrived whole; Quarry never makes one, so searching it
// would pass a whole shard over in silence.
bool never_written(const Xapian::Database& db);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_SEARCH_REPLICA_OPENING_H_
