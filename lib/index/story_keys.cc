#include "lib/index/story_keys.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <unordered_set>
#include <utility>

#include "lib/index/commit_room.h"
#include "lib/index/schema.h"

namespace quarry::detail {
std::string members_key(GroupKind kind, const std::string& key) {
  return boolean_term(kind == GroupKind::kStory ? kStoryMembersPrefix : kDuplicateMembersPrefix,
                      key);
}

// Each id follows its length, seven bits a byte, least first: ids may hold
// any byte.
std::string encode_members(std::vector<std::string> ids) {
  std::sort(ids.begin(), ids.end());
  std::string list;
  for (const std::string& id : ids) {
    std::size_t size = id.size();
    while (size >= 0x80) {
      list += static_cast<char>(0x80 | (size & 0x7f));
      size >>= 7;
    }
    list += static_cast<char>(size);
    list += id;
  }
  return list;
}

std::vector<std::string> decode_members(const std::string& list) {
  std::vector<std::string> ids;
  std::size_t at = 0;
  while (at < list.size()) {
    std::size_t size = 0;
    for (int shift = 0; at < list.size() && shift < 64; shift += 7) {
      const auto byte = static_cast<unsigned char>(list[at++]);
      size |= static_cast<std::size_t>(byte & 0x7f) << shift;
      if (!(byte & 0x80)) break;
    }
    if (size > list.size() - at) break;  // cut short: what was read stands
    ids.push_back(list.substr(at, size));
    at += size;
  }
  return ids;
}

std::vector<std::string> group_members(const Xapian::Database& db, GroupKind kind,
                                       const std::string& key) {
  return decode_members(db.get_metadata(members_key(kind, key)));
}

StoryChanges story_changes(const Xapian::Database& db,
                           const std::map<Xapian::docid, StoryKeys>& keys,
                           const std::function<LinkedArticle(Xapian::docid)>& article) {
  StoryChanges changes;
  constexpr std::array kKinds = {GroupKind::kStory, GroupKind::kDuplicates};
  std::array<std::map<std::string, std::vector<std::string>>, 2> members;
  std::array<std::unordered_set<std::string>, 2> old_keys;
  for (const auto& [did, key] : keys) {
    const LinkedArticle linked = article(did);
    const StoryKeys& stored = *linked.stored;
    if (stored != key) changes.keys.emplace(did, key);
    for (GroupKind kind : kKinds) {
      const auto k = static_cast<std::size_t>(kind);
      if (!key[k].empty()) members[k][key[k]].push_back(*linked.id);
      if (!stored[k].empty() && stored[k] != key[k]) old_keys[k].insert(stored[k]);
    }
  }
  for (GroupKind kind : kKinds) {
    const auto k = static_cast<std::size_t>(kind);
    for (auto& [key, ids] : members[k]) {
      const std::string name = members_key(kind, key);
      std::string list = encode_members(std::move(ids));
      if (db.get_metadata(name) != list) changes.member_lists.emplace(name, std::move(list));
    }
    for (const std::string& key : old_keys[k]) {
      const std::string name = members_key(kind, key);
      if (!members[k].count(key) && !db.get_metadata(name).empty()) {
        changes.member_lists.emplace(name, "");
      }
    }
  }
  return changes;
}

std::optional<std::size_t> write_story_keys(const std::vector<OpenDatabase>& databases,
                                            const StoryChanges& changes, std::string* where,
                                            const std::atomic<bool>* cancel) {
  constexpr std::size_t kCancelEvery = 256;
  const Xapian::docid n = static_cast<Xapian::docid>(databases.size());
  std::size_t written = 0;
  for (const auto& [did, key] : changes.keys) {
    if (cancel && ++written % kCancelEvery == 0 && cancel->load(std::memory_order_relaxed)) {
      return std::nullopt;
    }
    // Xapian numbers the documents of several databases in turn.
    const OpenDatabase& shard = databases[(did - 1) % n];
    const Xapian::docid local = (did - 1) / n + 1;
    *where = shard.path;
    // A document read from the database it is replaced in is rewritten
    // only where it changed: here its values alone.
    Xapian::Document doc = shard.db->get_document(local);
    // An empty value removes the slot's value, as an article alone has none.
    doc.add_value(kStorySlot, key[0]);
    doc.add_value(kDuplicateSlot, key[1]);
    shard.db->replace_document(local, doc);
  }
  // Keys and member lists, some tens of bytes an article.
  constexpr std::uintmax_t kBytesPerKey = 64;
  std::uintmax_t list_bytes = 0;
  for (const auto& [name, list] : changes.member_lists) list_bytes += name.size() + list.size();
  const std::uintmax_t room = commit_room_for(kBytesPerKey * changes.keys.size() + list_bytes);
  for (const OpenDatabase& database : databases) {
    *where = database.path;
    for (const auto& [name, list] : changes.member_lists) database.db->set_metadata(name, list);
    reserve_commit_room(database.path, room);
    database.db->commit();
  }
  return changes.keys.size();
}

}  // namespace quarry::detail
