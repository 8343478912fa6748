// The keys story linking gives articles, as the index stores them: a value
// slot and a boolean term for the story and the duplicate group, and the
// story's size, by which a later run sees that a story lost or changed an
// article.
#ifndef QUARRY_LIB_INDEX_STORY_KEYS_H_
#define QUARRY_LIB_INDEX_STORY_KEYS_H_

#include <xapian.h>

#include <array>
#include <atomic>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace quarry::detail {

// An article's story key, duplicate key and story size; empty strings for
// an article alone.
using StoryKeys = std::array<std::string, 3>;

// The members of stories whose size changed since they were linked: an
// article of theirs was deleted or replaced. Throws Xapian::Error.
std::vector<Xapian::docid> members_of_changed_stories(const Xapian::Database& db);

// A database of an index open for writing, and its path, which errors name.
struct OpenDatabase {
  std::string path;
  Xapian::WritableDatabase* db;
};

// Writes `keys`, by document id of `databases` searched as one, into each
// database, and commits them; returns how many documents were rewritten.
// `*where` names the database being written, for the caller's error. Stops
// soon after *cancel turns true, committing nothing, and returns nullopt:
// for databases that are linked whole again (a new index's parts), as
// Xapian may still commit what was written. Throws Xapian::Error.
std::optional<std::size_t> write_story_keys(const std::vector<OpenDatabase>& databases,
                                            const std::map<Xapian::docid, StoryKeys>& keys,
                                            std::string* where,
                                            const std::atomic<bool>* cancel = nullptr);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INDEX_STORY_KEYS_H_
