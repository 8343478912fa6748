#include "lib/search/replica_opening.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <string_view>

#include "lib/search/slow_replicas.h"
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

ReplicaWait replica_wait(const OpenOptions& options, std::size_t replicas) {
  ReplicaWait wait{options.connect_timeout, options.timeout};
  if (!(options.time_limit > 0) || replicas == 0) return wait;
  const double share =
      std::max(options.time_limit / static_cast<double>(replicas), kLeastReplicaWait);
  // 0 waits for ever: the share is then the only bound.
  for (double* timeout : {&wait.connect_timeout, &wait.timeout}) {
    *timeout = *timeout > 0 ? std::min(*timeout, share) : share;
  }
  return wait;
}

Xapian::Database open_location(const ShardLocation& location, const ReplicaWait& wait) {
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
      return Xapian::Remote::open(location.host, location.port, milliseconds(wait.timeout),
                                  milliseconds(wait.connect_timeout));
    case ShardLocation::Kind::kProgram:
      return Xapian::Remote::open(location.path, location.args, milliseconds(wait.timeout));
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

bool timed_out(const Xapian::Error& error, const ShardLocation& location) {
  if (!location.remote() || std::string_view(error.get_type()) != "NetworkTimeoutError") {
    return false;
  }
  // Xapian names the connection in the error's context, as
  // "remote:tcp(HOST:PORT)" or "remote:prog(PROGRAM ARGS)"; some releases
  // leave the last parenthesis out of the latter.
  const std::string named =
      location.kind == ShardLocation::Kind::kTcp
          ? "remote:tcp(" + location.host + ':' + std::to_string(location.port)
          : "remote:prog(" + location.path + ' ' + location.args;
  const std::string& context = error.get_context();
  return context == named || context == named + ')';
}

bool still_answers(Xapian::Database& db, const ShardLocation& location) {
  try {
    db.reopen();
    db.keep_alive();
    return true;
  } catch (const Xapian::Error& error) {
    if (timed_out(error, location)) slow_replicas().mark(location.name());
    return false;
  }
}

ReplicaStats ask_replica(const ShardLocation& location, Xapian::Database* open,
                         const ReplicaWait& wait) {
  ReplicaStats stats;
  stats.name = location.name();
  stats.searched = open != nullptr;
  if (!open && slow_replicas().slow(location.name())) {
    stats.error = "did not answer in time lately: searches try it after the others";
    return stats;
  }
  try {
    Xapian::Database fresh;
    if (open) {
      open->keep_alive();
    } else {
      fresh = open_location(location, wait);
    }
    const Xapian::Database& db = open ? *open : fresh;
    stats.revision = revision_of(db, location);
    stats.articles = db.get_doccount();
    stats.answers = true;
  } catch (const Xapian::Error& error) {
    if (timed_out(error, location)) slow_replicas().mark(location.name());
    stats.error = error.get_description();
  }
  return stats;
}

bool never_written(const Xapian::Database& db) {
  return db.get_doccount() == 0 && db.metadata_keys_begin() == db.metadata_keys_end();
}

}  // namespace quarry::detail
