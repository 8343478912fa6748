#include "lib/search/shard_group.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <string_view>

#include "lib/index/index_error.h"
#include "lib/index/index_folder.h"
#include "lib/index/schema.h"
#include "lib/search/replica_opening.h"
#include "lib/search/slow_replicas.h"
#include "quarry/error.h"
#include "quarry/text/analyzer.h"

namespace quarry::detail {
namespace {

// Where each searcher starts among a shard's replicas: the next one for
// each searcher of a process, and somewhere else for each process, so that
// searchers share the replicas' load.
std::size_t next_first_replica() {
  static std::atomic<std::size_t> next{static_cast<std::size_t>(::getpid())};
  return next++;
}

std::string join(const std::vector<std::string>& paths) {
  std::string joined;
  for (const std::string& path : paths) joined += (joined.empty() ? "" : ", ") + path;
  return joined;
}

}  // namespace

ShardGroup::ShardGroup(const std::vector<std::string>& paths, const OpenOptions& options)
    : options_(options), label_(join(paths)) {
  if (paths.empty()) throw ConfigError("no index to search: give at least one --db");
  const std::size_t first = next_first_replica();
  for (const std::string& path : paths) {
    const bool stub = !stub_file_of(path).empty();
    for (const std::vector<ShardLocation>& replicas : resolve_replicas({path})) {
      open(replicas, first, stub);
    }
  }
  if (shards_.empty()) {
    throw IndexError(first_failure_.empty() ? "no shard to search in " + label_ : first_failure_);
  }
  settle_language();
  combine();
}

bool ShardGroup::open_replica(Shard& shard, std::size_t first, std::vector<std::string>* errors,
                              std::optional<std::size_t> skipped) const {
  errors->assign(shard.replicas.size(), "");
  const ReplicaWait wait = replica_wait(options_, shard.replicas.size());
  for (const std::size_t i : replica_order(shard.replicas, first, skipped, slow_replicas())) {
    const ShardLocation& replica = shard.replicas[i];
    try {
      Xapian::Database db = open_location(replica, wait);
      if (never_written(db)) {
        (*errors)[i] = kNeverWritten;
        continue;
      }
      // Before the shards' language is settled, settle_language checks it.
      const std::string language = db.get_metadata(kLanguageKey);
      if (!language_.empty() && !language.empty() && language != language_) {
        (*errors)[i] = "analyzed in " + language + ", not " + language_ + " as the others";
        continue;
      }
      shard.stamp = stamp_of(replica);
      shard.lexicon = !db.get_metadata(kLexiconKey).empty();
      shard.in_set = !db.get_metadata(kShardKey).empty();
      shard.db = std::move(db);
      shard.current = i;
      slow_replicas().clear(replica.name());
      return true;
    } catch (const Xapian::Error& error) {
      if (timed_out(error, replica)) slow_replicas().mark(replica.name());
      (*errors)[i] = error.get_description();
    }
  }
  return false;
}

void ShardGroup::open(const std::vector<ShardLocation>& replicas, std::size_t first,
                      bool named_by_stub) {
  Shard shard{replicas, 0, false, false, {}, {}};
  if (!named_by_stub) {
    // One folder given as it is: the messages of a single index.
    const std::string& path = replicas.front().path;
    try {
      shard.db = open_location(replicas.front(), replica_wait(options_, 1));
    } catch (const Xapian::Error& error) {
      if (std::string_view(error.get_type()) == "DatabaseNotFoundError") {
        throw IndexNotFoundError(no_index_message(path));
      }
      throw index_error("index " + path, error);
    }
    if (never_written(shard.db)) throw IndexError("index " + path + " is " + kNeverWritten);
    shard.stamp = stamp_of(replicas.front());
    shard.lexicon = !shard.db.get_metadata(kLexiconKey).empty();
    shard.in_set = !shard.db.get_metadata(kShardKey).empty();
    shards_.push_back(std::move(shard));
    return;
  }
  std::vector<std::string> errors;
  if (open_replica(shard, first, &errors)) {
    shards_.push_back(std::move(shard));
    return;
  }
  const std::string failure = shard_failure(replicas, errors);
  if (!options_.allow_partial) throw IndexError(failure);
  if (first_failure_.empty()) first_failure_ = failure;
  warnings_.push_back(failure);
  left_out_.push_back(replicas);
}

void ShardGroup::settle_language() {
  // Every shard must be analyzed as the others, or a query would find
  // different words in each.
  const Shard* first = nullptr;
  for (const Shard& shard : shards_) {
    const std::string language = stored_language(shard.db, shard.location().name());
    if (language.empty()) continue;
    check_schema(shard.db, shard.location().name());
    if (!first) {
      first = &shard;
      language_ = language;
    } else if (language != language_) {
      throw IndexError("shard " + shard.location().name() + " is analyzed in " + language +
                       ", but " + first->location().name() + " in " + language_ +
                       "; shards searched together must share a language");
    }
  }
  if (language_.empty()) language_ = kDefaultLanguage;
}

void ShardGroup::combine() {
  articles_ = Xapian::Database();
  spelling_ = Xapian::Database();
  article_databases_.clear();
  const bool any_lexicon =
      std::any_of(shards_.begin(), shards_.end(), [](const Shard& shard) { return shard.lexicon; });
  for (const Shard& shard : shards_) {
    if (!shard.lexicon) {
      articles_.add_database(shard.db);
      article_databases_.push_back(&shard.db);
    }
    // A lexicon holds the spelling data of its set's shards: counting
    // theirs as well would count each word twice.
    if (shard.lexicon || !shard.in_set || !any_lexicon) spelling_.add_database(shard.db);
  }
}

ShardGroup::Renewal ShardGroup::open_if_replaced(Shard& shard, const OpenOptions& options) {
  if (shard.location().remote()) return Renewal::kSame;
  const FolderStamp stamp = stamp_of(shard.location());
  // No folder (deleted, or between the two moves of a swap): the old
  // database is reopened, and fails, as Xapian decides.
  if (stamp == shard.stamp || stamp.folder_inode == 0) return Renewal::kSame;
  Xapian::Database fresh;
  try {
    fresh = open_location(shard.location(), replica_wait(options, shard.replicas.size()));
  } catch (const Xapian::Error&) {
    // Half copied, most likely: the old one, left as it is, serves until
    // the new one is whole.
    return Renewal::kPending;
  }
  const bool replaced = stamp.folder_device != shard.stamp.folder_device ||
                        stamp.folder_inode != shard.stamp.folder_inode ||
                        fresh.get_uuid() != shard.db.get_uuid();
  shard.stamp = stamp;
  if (!replaced) return Renewal::kSame;
  shard.db = std::move(fresh);
  shard.lexicon = !shard.db.get_metadata(kLexiconKey).empty();
  shard.in_set = !shard.db.get_metadata(kShardKey).empty();
  return Renewal::kReplaced;
}

bool ShardGroup::leave_slow_replicas() {
  bool left = false;
  for (Shard& shard : shards_) {
    const auto slow = [&](const ShardLocation& replica) {
      return slow_replicas().slow(replica.name());
    };
    if (!slow(shard.location()) ||
        std::all_of(shard.replicas.begin(), shard.replicas.end(), slow)) {
      continue;
    }
    // Another searcher waited for this replica: its next search would wait
    // as long. Read from another, unless none opens now.
    std::vector<std::string> errors;
    Shard fresh = shard;
    if (open_replica(fresh, shard.current + 1, &errors, shard.current)) {
      shard = std::move(fresh);
      left = true;
    }
  }
  return left;
}

bool ShardGroup::reopen() {
  bool replaced = leave_slow_replicas(), changed = false;
  for (Shard& shard : shards_) {
    const Renewal renewal = open_if_replaced(shard, options_);
    if (renewal == Renewal::kPending) continue;
    if (renewal == Renewal::kReplaced) {
      replaced = true;
      continue;
    }
    const std::string uuid = shard.location().remote() ? "" : shard.db.get_uuid();
    changed = shard.db.reopen() || changed;
    // Another database under the same folder, told only once reopened:
    // what was reopened may mix its files with the old one's.
    if (!shard.location().remote() && shard.db.get_uuid() != uuid) {
      shard.db = open_location(shard.location(), replica_wait(options_, shard.replicas.size()));
      shard.lexicon = !shard.db.get_metadata(kLexiconKey).empty();
      shard.in_set = !shard.db.get_metadata(kShardKey).empty();
      replaced = true;
    }
  }
  if (replaced) {
    language_.clear();
    settle_language();
    combine();
  }
  return changed || replaced;
}

std::string ShardGroup::revision() const {
  std::string revision;
  for (const Shard& shard : shards_) {
    if (shard.location().remote()) return "";
    // A folder rebuilt from scratch starts again at revision 1, with
    // another UUID.
    revision += shard.db.get_uuid() + ':' + std::to_string(shard.db.get_revision()) + ' ';
  }
  return revision;
}

bool ShardGroup::fail_over(const Xapian::Error& error) {
  std::vector<bool> failed(shards_.size(), false);
  std::vector<std::string> failures;
  bool switched = false;
  // A replica that did not answer in time is passed over without asking it
  // again, which would wait as long. The other remote shards may have been
  // sent a request whose answer was never read, which the next would take
  // for its own: they connect afresh, to the same replica first.
  const auto hung = std::find_if(shards_.begin(), shards_.end(), [&](const Shard& shard) {
    return timed_out(error, shard.location());
  });
  const bool timeout = hung != shards_.end();
  if (timeout) slow_replicas().mark(hung->location().name());
  for (std::size_t s = 0; s < shards_.size(); ++s) {
    Shard& shard = shards_[s];
    const bool hangs = timeout && &shard == &*hung;
    // The replica read until now is tried last, afresh, as a remote
    // database does not connect again by itself; one that hung, not now.
    std::size_t first = shard.current + 1;
    if (timeout && !hangs) {
      if (!shard.location().remote()) continue;
      first = shard.current;
    } else if (!timeout && still_answers(shard.db, shard.location())) {
      continue;
    }
    std::vector<std::string> errors;
    Shard fresh = shard;
    const std::optional<std::size_t> skipped =
        hangs ? std::optional<std::size_t>(shard.current) : std::nullopt;
    if (open_replica(fresh, first, &errors, skipped)) {
      shard = std::move(fresh);
      switched = true;
      continue;
    }
    if (hangs) errors[shard.current] = error.get_description();
    failed[s] = true;
    failures.push_back(shard_failure(shard.replicas, errors));
  }
  if (switched) combine();
  if (failures.empty()) return switched;
  // Without partial results, every shard stays, to be tried again by the
  // next read.
  if (!options_.allow_partial) throw IndexError(failures.front());
  std::vector<Shard> answering;
  for (std::size_t s = 0; s < shards_.size(); ++s) {
    if (failed[s]) {
      left_out_.push_back(shards_[s].replicas);
    } else {
      answering.push_back(std::move(shards_[s]));
    }
  }
  if (answering.empty()) throw IndexError(failures.front());
  shards_ = std::move(answering);
  warnings_.insert(warnings_.end(), failures.begin(), failures.end());
  combine();
  return true;
}

std::vector<ShardStats> ShardGroup::replica_stats() {
  std::vector<ShardStats> stats;
  for (Shard& shard : shards_) {
    if (shard.lexicon) continue;
    ShardStats& shard_stats = stats.emplace_back();
    const ReplicaWait wait = replica_wait(options_, shard.replicas.size());
    for (std::size_t i = 0; i < shard.replicas.size(); ++i) {
      shard_stats.replicas.push_back(
          ask_replica(shard.replicas[i], i == shard.current ? &shard.db : nullptr, wait));
    }
  }
  for (const std::vector<ShardLocation>& replicas : left_out_) {
    ShardStats& shard_stats = stats.emplace_back();
    for (const ShardLocation& replica : replicas) {
      shard_stats.replicas.push_back(
          ask_replica(replica, nullptr, replica_wait(options_, replicas.size())));
    }
  }
  return stats;
}

const Xapian::Database& ShardGroup::holder_of(Xapian::docid did) const {
  if (did == 0 || article_databases_.empty()) {
    throw Xapian::InvalidArgumentError("no document " + std::to_string(did));
  }
  // Xapian numbers the documents of several databases in turn.
  return *article_databases_[(did - 1) % article_databases_.size()];
}

std::vector<std::string> ShardGroup::article_metadata(const std::string& key) const {
  std::vector<std::string> values;
  for (const Shard& shard : shards_) {
    if (!shard.lexicon) values.push_back(shard.db.get_metadata(key));
  }
  return values;
}

std::vector<ShardGroup::Folder> ShardGroup::folders() const {
  std::vector<Folder> folders;
  for (const Shard& shard : shards_) {
    folders.push_back({shard.location().remote() ? shard.location().name() : shard.location().path,
                       shard.location().remote()});
  }
  return folders;
}

bool ShardGroup::any_remote() const {
  return std::any_of(shards_.begin(), shards_.end(),
                     [](const Shard& shard) { return shard.location().remote(); });
}

std::size_t ShardGroup::replica_count() const {
  std::size_t count = 0;
  for (const Shard& shard : shards_) count += shard.replicas.size();
  return count;
}

std::size_t ShardGroup::shard_count() const {
  std::size_t count = 0;
  for (const Shard& shard : shards_) count += shard.lexicon ? 0 : 1;
  return count;
}

}  // namespace quarry::detail
