// The keys story linking gives articles, as the index stores them: value
// slots for the story and the duplicate group (searches collapse on them);
// and, in metadata, each group's members, by which a
// hit lists the other reports of its story.
//
// Members are listed in metadata rather than found by a boolean term on
// each article: Xapian 1.4 reads every term and position of a stored
// document before it adds a term to it, so keying a million grouped
// articles by term reread the whole position table, where rewriting their
// values reads and writes the values alone.
#ifndef QUARRY_LIB_INDEX_STORY_KEYS_H_
#define QUARRY_LIB_INDEX_STORY_KEYS_H_

#include <xapian.h>

#include <array>
#include <atomic>
#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace quarry::detail {

// An article's story key and duplicate key; empty strings for an article
// alone.
using StoryKeys = std::array<std::string, 2>;

// Which of an article's groups: its story (StoryKeys[0]) or its duplicate
// group (StoryKeys[1]).
enum class GroupKind { kStory = 0, kDuplicates = 1 };

// The metadata key listing the members of the group keyed `key`.
std::string members_key(GroupKind kind, const std::string& key);

// The ids a members list holds, in id order; and the list of `ids`.
std::vector<std::string> decode_members(const std::string& list);
std::string encode_members(std::vector<std::string> ids);

// The ids of the members of the group keyed `key`, as `db` (one database,
// or the first of several searched as one: each of a shard set lists every
// group) lists them. Throws Xapian::Error.
std::vector<std::string> group_members(const Xapian::Database& db, GroupKind kind,
                                       const std::string& key);

// A database of an index open for writing, and its path, which errors name.
struct OpenDatabase {
  std::string path;
  Xapian::WritableDatabase* db;
};

// What linking changed: the keys of each article whose keys changed, by
// document id of the databases searched as one, and the members list of
// each group to write (an empty list deletes a group that is no more).
struct StoryChanges {
  std::map<Xapian::docid, StoryKeys> keys;
  std::map<std::string, std::string> member_lists;  // metadata key → list
};

// What linking gives each article it read: its id, and the keys it was
// stored with.
struct LinkedArticle {
  const std::string* id;
  const StoryKeys* stored;
};

// What to write for `keys`, the new keys of every member of each group
// linked, in `db` (the databases searched as one): the keys that changed,
// and the members lists that changed or that name a group which is no
// more. Throws Xapian::Error.
StoryChanges story_changes(const Xapian::Database& db,
                           const std::map<Xapian::docid, StoryKeys>& keys,
                           const std::function<LinkedArticle(Xapian::docid)>& article);

// Writes `changes` into each database (the lists into every one, so that a
// hit in any shard finds its story's), and commits them; returns how many
// documents were rewritten. `*where` names the database being written, for
// the caller's error. Stops soon after *cancel turns true, committing
// nothing, and returns nullopt: for databases that are linked whole again
// (a new index's parts), as Xapian may still commit what was written.
// Throws Xapian::Error.
std::optional<std::size_t> write_story_keys(const std::vector<OpenDatabase>& databases,
                                            const StoryChanges& changes, std::string* where,
                                            const std::atomic<bool>* cancel = nullptr);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INDEX_STORY_KEYS_H_
