#include "lib/index/story_keys.h"

#include <algorithm>

#include "lib/index/schema.h"

namespace quarry::detail {
namespace {

void set_value(Xapian::Document& doc, Xapian::valueno slot, const std::string& value) {
  // Xapian refuses to remove a value that is not there.
  if (!doc.get_value(slot).empty()) doc.remove_value(slot);
  if (!value.empty()) doc.add_value(slot, value);
}

}  // namespace

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
    set_value(doc, kStorySlot, key[0]);
    set_value(doc, kDuplicateSlot, key[1]);
    shard.db->replace_document(local, doc);
  }
  for (const OpenDatabase& database : databases) {
    *where = database.path;
    for (const auto& [name, list] : changes.member_lists) database.db->set_metadata(name, list);
    database.db->commit();
  }
  return changes.keys.size();
}

}  // namespace quarry::detail
