#include "lib/search/shard_group.h"

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <string_view>

#include "lib/index/index_error.h"
#include "lib/index/index_folder.h"
#include "lib/index/schema.h"
#include "quarry/error.h"
#include "quarry/text/analyzer.h"

namespace quarry::detail {
namespace {

useconds_t milliseconds(double seconds) {
  return static_cast<useconds_t>(std::llround(seconds * 1000));
}

Xapian::Database open_location(const ShardLocation& location, const OpenOptions& options) {
  switch (location.kind) {
    case ShardLocation::Kind::kLocal:
      return Xapian::Database(location.path);
    case ShardLocation::Kind::kTcp:
      return Xapian::Remote::open(location.host, location.port, milliseconds(options.timeout),
                                  milliseconds(options.connect_timeout));
    case ShardLocation::Kind::kProgram:
      return Xapian::Remote::open(location.path, location.args, milliseconds(options.timeout));
  }
  throw IndexError("shard " + location.name() + ": unknown kind");
}

std::uint64_t change_time(const struct stat& status) {
  return static_cast<std::uint64_t>(status.st_ctim.tv_sec) * 1000000000u +
         static_cast<std::uint64_t>(status.st_ctim.tv_nsec);
}

// "shard remote 127.0.0.1:5001 is unreachable: …", "shard /srv/i/shard-1
// cannot be opened: …".
std::string shard_failure(const ShardLocation& location, const Xapian::Error& error) {
  return "shard " + location.name() +
         (location.remote() ? " is unreachable: " : " cannot be opened: ") +
         error.get_description();
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
  for (const std::string& path : paths) {
    const bool stub = !stub_file_of(path).empty();
    for (const ShardLocation& location : resolve_shards({path})) open(location, stub);
  }
  if (shards_.empty()) {
    throw IndexError(first_failure_.empty() ? "no shard to search in " + label_ : first_failure_);
  }
  settle_language();
  combine();
}

ShardGroup::FolderStamp ShardGroup::stamp_of(const ShardLocation& location) {
  FolderStamp stamp;
  if (location.remote()) return stamp;
  struct stat status {};
  if (::stat(location.path.c_str(), &status) != 0) return stamp;
  stamp.folder_device = status.st_dev;
  stamp.folder_inode = status.st_ino;
  // A commit renames a new version file into the folder, which changes
  // the folder's change time too; a folder deleted and copied anew may
  // get the same inode number back, but not the same change time.
  stamp.folder_change = change_time(status);
  // Glass's version file; other backends are told by the folder alone.
  if (::stat((location.path + "/iamglass").c_str(), &status) == 0) {
    stamp.version_inode = status.st_ino;
    stamp.version_change = change_time(status);
  }
  return stamp;
}

void ShardGroup::open(const ShardLocation& location, bool named_by_stub) {
  Shard shard{location, false, false, {}, stamp_of(location)};
  try {
    shard.db = open_location(location, options_);
    shard.lexicon = !shard.db.get_metadata(kLexiconKey).empty();
    shard.in_set = !shard.db.get_metadata(kShardKey).empty();
  } catch (const Xapian::Error& error) {
    if (!named_by_stub) {
      // One folder given as it is: the messages of a single index.
      if (std::string_view(error.get_type()) == "DatabaseNotFoundError") {
        throw IndexNotFoundError(no_index_message(location.path));
      }
      throw index_error("index " + location.path, error);
    }
    const std::string failure = shard_failure(location, error);
    if (!options_.allow_partial) throw IndexError(failure);
    if (first_failure_.empty()) first_failure_ = failure;
    warnings_.push_back(failure);
    return;
  }
  shards_.push_back(std::move(shard));
}

void ShardGroup::settle_language() {
  // Every shard must be analyzed as the others, or a query would find
  // different words in each.
  const Shard* first = nullptr;
  for (const Shard& shard : shards_) {
    const std::string language = shard.db.get_metadata(kLanguageKey);
    if (language.empty()) {
      if (shard.db.get_doccount() != 0) {
        throw IndexError(shard.location.name() + " is a Xapian database that Quarry did not build");
      }
      continue;
    }
    check_schema(shard.db, shard.location.name());
    if (!first) {
      first = &shard;
      language_ = language;
    } else if (language != language_) {
      throw IndexError("shard " + shard.location.name() + " is analyzed in " + language + ", but " +
                       first->location.name() + " in " + language_ +
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
  if (shard.location.remote()) return Renewal::kSame;
  const FolderStamp stamp = stamp_of(shard.location);
  // No folder (deleted, or between the two moves of a swap): the old
  // database is reopened, and fails, as Xapian decides.
  if (stamp == shard.stamp || stamp.folder_inode == 0) return Renewal::kSame;
  Xapian::Database fresh;
  try {
    fresh = open_location(shard.location, options);
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

bool ShardGroup::reopen() {
  bool changed = false, replaced = false;
  for (Shard& shard : shards_) {
    const Renewal renewal = open_if_replaced(shard, options_);
    if (renewal == Renewal::kPending) continue;
    if (renewal == Renewal::kReplaced) {
      replaced = true;
      continue;
    }
    const std::string uuid = shard.location.remote() ? "" : shard.db.get_uuid();
    changed = shard.db.reopen() || changed;
    // Another database under the same folder, told only once reopened:
    // what was reopened may mix its files with the old one's.
    if (!shard.location.remote() && shard.db.get_uuid() != uuid) {
      shard.db = open_location(shard.location, options_);
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
    if (shard.location.remote()) return "";
    // A folder rebuilt from scratch starts again at revision 1, with
    // another UUID.
    revision += shard.db.get_uuid() + ':' + std::to_string(shard.db.get_revision()) + ' ';
  }
  return revision;
}

bool ShardGroup::drop_failed_shards() {
  std::vector<Shard> answering;
  std::vector<std::string> failures;
  for (Shard& shard : shards_) {
    try {
      shard.db.reopen();
      shard.db.keep_alive();
      answering.push_back(std::move(shard));
    } catch (const Xapian::Error& error) {
      failures.push_back(shard_failure(shard.location, error));
    }
  }
  if (failures.empty()) return false;
  if (!options_.allow_partial) throw IndexError(failures.front());
  if (answering.empty()) throw IndexError(failures.front());
  shards_ = std::move(answering);
  warnings_.insert(warnings_.end(), failures.begin(), failures.end());
  combine();
  return true;
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
    folders.push_back({shard.location.remote() ? shard.location.name() : shard.location.path,
                       shard.location.remote()});
  }
  return folders;
}

bool ShardGroup::any_remote() const {
  return std::any_of(shards_.begin(), shards_.end(),
                     [](const Shard& shard) { return shard.location.remote(); });
}

std::size_t ShardGroup::shard_count() const {
  std::size_t count = 0;
  for (const Shard& shard : shards_) count += shard.lexicon ? 0 : 1;
  return count;
}

}  // namespace quarry::detail
