#include "lib/index/story_keys.h"

#include "lib/index/schema.h"

namespace quarry::detail {
namespace {

void set_key(Xapian::Document& doc, Xapian::valueno slot, const char* prefix,
             const std::string& key) {
  const std::string old = doc.get_value(slot);
  if (!old.empty()) {
    doc.remove_term(boolean_term(prefix, old));
    doc.remove_value(slot);
  }
  if (key.empty()) return;
  doc.add_value(slot, key);
  doc.add_boolean_term(boolean_term(prefix, key));
}

}  // namespace

std::vector<Xapian::docid> members_of_changed_stories(const Xapian::Database& db) {
  std::vector<Xapian::docid> found;
  const std::string prefix = kStoryPrefix;
  for (auto term = db.allterms_begin(prefix); term != db.allterms_end(prefix); ++term) {
    const Xapian::doccount now = term.get_termfreq();
    auto first = db.postlist_begin(*term);
    const std::string size =
        db.get_document(*first, Xapian::DOC_ASSUME_VALID).get_value(kStorySizeSlot);
    if (size == std::to_string(now)) continue;
    for (auto it = db.postlist_begin(*term); it != db.postlist_end(*term); ++it) {
      found.push_back(*it);
    }
  }
  return found;
}

std::optional<std::size_t> write_story_keys(const std::vector<OpenDatabase>& databases,
                                            const std::map<Xapian::docid, StoryKeys>& keys,
                                            std::string* where, const std::atomic<bool>* cancel) {
  constexpr std::size_t kCancelEvery = 256;
  const Xapian::docid n = static_cast<Xapian::docid>(databases.size());
  std::size_t written = 0;
  for (const auto& [did, key] : keys) {
    if (cancel && ++written % kCancelEvery == 0 && cancel->load(std::memory_order_relaxed)) {
      return std::nullopt;
    }
    // Xapian numbers the documents of several databases in turn.
    const OpenDatabase& shard = databases[(did - 1) % n];
    const Xapian::docid local = (did - 1) / n + 1;
    *where = shard.path;
    // A document read from the database it is replaced in is rewritten
    // only where it changed: its terms' postings and termlist, and its
    // values, not its text or its positions.
    Xapian::Document doc = shard.db->get_document(local);
    set_key(doc, kStorySlot, kStoryPrefix, key[0]);
    set_key(doc, kDuplicateSlot, kDuplicatePrefix, key[1]);
    // Xapian refuses to remove a value that is not there.
    if (!doc.get_value(kStorySizeSlot).empty()) doc.remove_value(kStorySizeSlot);
    if (!key[2].empty()) doc.add_value(kStorySizeSlot, key[2]);
    shard.db->replace_document(local, doc);
  }
  for (const OpenDatabase& database : databases) {
    *where = database.path;
    database.db->commit();
  }
  return keys.size();
}

}  // namespace quarry::detail
