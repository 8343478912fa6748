// The databases a Searcher reads, opened one by one so that a shard that is
// down can be named, read from another of its replicas, or left out when
// partial results are allowed.
#ifndef QUARRY_LIB_SEARCH_SHARD_GROUP_H_
#define QUARRY_LIB_SEARCH_SHARD_GROUP_H_

#include <xapian.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lib/index/stub_file.h"
#include "lib/search/folder_stamp.h"
#include "quarry/search/open_options.h"
#include "quarry/search/searcher.h"

namespace quarry::detail {

class ShardGroup {
 public:
  // Opens every shard `paths` name (see resolve_replicas), each from one of
  // its replicas: the searchers of a process start at successive ones, and
  // a replica that cannot be opened gives way to the shard's next. Throws
  // IndexNotFoundError, IndexError naming the shard none of whose replicas
  // can be opened (with options.allow_partial: only when no shard can),
  // IndexError when the shards were analyzed in different languages,
  // ConfigError for no paths.
  ShardGroup(const std::vector<std::string>& paths, const OpenOptions& options);

  // The shards holding articles, searched as one.
  Xapian::Database& articles() { return articles_; }
  const Xapian::Database& articles() const { return articles_; }
  // Where the vocabulary (spelling data) and synonyms are read, wildcards
  // expanded and words completed: the lexicons and the databases that
  // belong to no shard set, or, when no lexicon is open, every database.
  Xapian::Database& spelling() { return spelling_; }

  const std::string& language() const { return language_; }
  // What error messages call the index: the path, or the paths joined.
  const std::string& label() const { return label_; }
  // One line per shard left out.
  const std::vector<std::string>& warnings() const { return warnings_; }

  // Each shard then sees what was last committed, read from a replica not
  // marked slow (slow_replicas) when it has one that opens. A local folder
  // replaced by another (moved away and another moved in, or deleted and
  // copied anew: another folder, or another database's UUID) is opened afresh
  // rather than reopened, so that no read mixes the old files with the
  // new; while the new one cannot be opened yet, the old one is read.
  // Returns whether any shard had changed. Throws Xapian::Error, IndexError
  // when a replaced shard's language differs from the others'.
  bool reopen();

  // What tells the shards' state as last reopened from any other: each
  // one's UUID and revision. Empty when a shard is remote, whose revision
  // Xapian does not tell. Throws Xapian::Error.
  std::string revision() const;

  // After `error` escaped a read: asks each shard whether the replica it is
  // read from still answers, and reads those that do not from their next
  // replica that opens. When `error` says a replica did not answer in time,
  // it is marked slow (slow_replicas) and its shard goes to its next
  // replica without asking it again, while the other remote shards connect
  // afresh (an answer may be left unread on their connections). A shard
  // none of whose replicas answers is, with allow_partial, left out with a
  // warning; without, an IndexError naming it (and it stays, to be tried
  // again by the next read). Returns true when the read can be retried,
  // false when every shard answers (the error was not a shard's). Throws
  // IndexError when no shard is left.
  bool fail_over(const Xapian::Error& error);

  // Each shard holding articles, those left out included, and its
  // replicas: which is read, and whether each answers (those not read are
  // opened to ask).
  std::vector<ShardStats> replica_stats();

  struct Folder {
    std::string path;
    bool remote = false;
  };
  // The database holding document `did` of articles(), read alone: where
  // metadata about the article is read. Throws Xapian::InvalidArgumentError
  // for document 0.
  const Xapian::Database& holder_of(Xapian::docid did) const;

  // The value of metadata `key` in each database holding articles, in
  // order. Throws Xapian::Error.
  std::vector<std::string> article_metadata(const std::string& key) const;

  // Every database open, lexicons included: local folders, and remote ones
  // by name.
  std::vector<Folder> folders() const;
  std::size_t shard_count() const;
  // The replicas of every shard searched, lexicons included.
  std::size_t replica_count() const;
  // Whether some database is read over the network, where every read is a
  // round trip.
  bool any_remote() const;

 private:
  struct Shard {
    std::vector<ShardLocation> replicas;  // the shard's stub line, then its "#replica" lines
    std::size_t current = 0;              // the replica db reads
    const ShardLocation& location() const { return replicas[current]; }
    bool lexicon = false;  // a shard set's lexicon
    bool in_set = false;   // a shard of a shard set, whose words its lexicon holds
    Xapian::Database db;
    FolderStamp stamp;  // as it was when db was opened or last reopened
  };

  void open(const std::vector<ShardLocation>& replicas, std::size_t first, bool named_by_stub);
  // Reads `shard` from the first of its replicas, in turn from `first`
  // (those marked slow last, `skipped` not at all), that opens and is
  // analyzed as the others; false when none does, with each one's error in
  // `errors`.
  bool open_replica(Shard& shard, std::size_t first, std::vector<std::string>* errors,
                    std::optional<std::size_t> skipped = std::nullopt) const;
  // Moves each shard read from a replica marked slow to another that
  // opens. Returns whether any shard moved (the caller then combines them).
  bool leave_slow_replicas();
  enum class Renewal { kSame, kReplaced, kPending };
  // Opens `shard`'s folder afresh when another now has its path
  // (kReplaced); kPending when a new one cannot be opened yet, kSame when
  // the folder is the one open (or remote, or gone).
  static Renewal open_if_replaced(Shard& shard, const OpenOptions& options);
  void settle_language();
  void combine();

  OpenOptions options_;
  std::string label_;
  std::vector<Shard> shards_;
  // The shards left out, with allow_partial, as none of their replicas
  // answered.
  std::vector<std::vector<ShardLocation>> left_out_;
  std::vector<std::string> warnings_;
  std::string first_failure_;
  std::string language_;
  Xapian::Database articles_;
  Xapian::Database spelling_;
  // The databases of articles_, in its order.
  std::vector<const Xapian::Database*> article_databases_;
};

}  // namespace quarry::detail

#endif  // QUARRY_LIB_SEARCH_SHARD_GROUP_H_
