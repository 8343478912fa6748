#include "lib/search/replica_opening.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>

#include "quarry/error.h"

namespace quarry::detail {
namespace {

useconds_t milliseconds(double seconds) {
  return static_cast<useconds_t>(std::llround(seconds * 1000));
}

// Tries at opening a local database while a writer commits. An attempt
// fails only when two commits land while it opens: a writer that syncs
// its commits cannot do that many times in a row, and one that does not
// (a test's) does it a third of the time under a sanitizer's slowness, so
// a few tries are not enough and each costs one open.
constexpr int kOpenAttempts = 100;

}  // namespace

Xapian::Database open_location(const ShardLocation& location, const OpenOptions& options) {
  switch (location.kind) {
    case ShardLocation::Kind::kLocal:
      // A writer that commits twice while the database is being opened
      // discards the revision being read; opening again reads the new one.
      for (int attempt = 1;; ++attempt) {
        try {
          return Xapian::Database(location.path);
        } catch (const Xapian::DatabaseModifiedError&) {
          if (attempt == kOpenAttempts) throw;
        }
      }
    case ShardLocation::Kind::kTcp:
      return Xapian::Remote::open(location.host, location.port, milliseconds(options.timeout),
                                  milliseconds(options.connect_timeout));
    case ShardLocation::Kind::kProgram:
      return Xapian::Remote::open(location.path, location.args, milliseconds(options.timeout));
  }
  throw IndexError("shard " + location.name() + ": unknown kind");
}

std::string shard_failure(const std::vector<ShardLocation>& replicas,
                          const std::vector<std::string>& errors) {
  const bool remote = std::any_of(replicas.begin(), replicas.end(),
                                  [](const ShardLocation& replica) { return replica.remote(); });
  std::string names, reasons;
  for (std::size_t i = 0; i < replicas.size(); ++i) {
    names += (i ? " or " : "") + replicas[i].name();
    reasons += (i ? "; " : "") + (replicas.size() > 1 ? replicas[i].name() + ": " : "") + errors[i];
  }
  return "shard " + names + (remote ? " is unreachable: " : " cannot be opened: ") + reasons;
}

std::optional<std::uint64_t> revision_of(const Xapian::Database& db,
                                         const ShardLocation& location) {
  if (location.remote()) return std::nullopt;
  return db.get_revision();
}

bool still_answers(Xapian::Database& db) {
  try {
    db.reopen();
    db.keep_alive();
    return true;
  } catch (const Xapian::Error&) {
    return false;
  }
}

bool never_written(const Xapian::Database& db) {
  return db.get_doccount() == 0 && db.metadata_keys_begin() == db.metadata_keys_end();
}

}  // namespace quarry::detail
