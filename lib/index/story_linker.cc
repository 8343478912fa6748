#include "lib/index/story_linker.h"

#include <xapian.h>

#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "lib/index/article_linker.h"
#include "lib/index/band_reader.h"
#include "lib/index/index_error.h"
#include "lib/index/schema.h"

namespace quarry::detail {
namespace {

// Linking this many articles or more, their story candidates are ranked
// in memory (see LinkFinder::rank_in_memory): at a million articles, a
// thousand searches took four seconds.
constexpr std::size_t kRankInMemoryFrom = 200;

Xapian::Database searched_as_one(const std::vector<OpenDatabase>& databases) {
  Xapian::Database whole;
  for (const OpenDatabase& database : databases) whole.add_database(*database.db);
  return whole;
}

// Links `ids` (every article when `all`); returns what changed, and counts
// the articles linked.
StoryChanges changed_keys(ArticleLinker& linker, const std::vector<std::string>& ids, bool all,
                          std::unique_ptr<BandIndex>* kept_bands, StoryLinkCounts* counts) {
  LinkFinder& finder = linker.finder();
  const Xapian::Database& db = finder.database();
  std::unordered_set<Xapian::docid> dirty;
  if (all) {
    finder.read_all();
    dirty.reserve(db.get_doccount());
    for (auto it = db.postlist_begin(""); it != db.postlist_end(""); ++it) dirty.insert(*it);
  } else {
    for (const std::string& id : ids) {
      if (const std::optional<Xapian::docid> did = document_of(db, id_term(id))) dirty.insert(*did);
    }
    if (dirty.empty()) {
    } else if (kept_bands) {
      finder.use_bands(*kept_bands, dirty);
    } else {
      finder.read_bands_of(dirty);
    }
    if (dirty.size() >= kRankInMemoryFrom) finder.rank_in_memory();
  }
  counts->linked = dirty.size();
  if (dirty.empty()) return {};
  linker.check_cancel();
  return story_changes(db, linker.link(dirty), [&](Xapian::docid did) {
    return LinkedArticle{&finder.signatures().id(did), &finder.signatures().stored_keys(did)};
  });
}

StoryLinkCounts link_in_place(const std::vector<OpenDatabase>& databases,
                              const std::vector<std::string>& ids, bool all,
                              const LinkControl& control) {
  StoryLinkCounts counts;
  std::string where = databases.empty() ? "" : databases.front().path;
  try {
    ArticleLinker linker(searched_as_one(databases), control);
    const StoryChanges changed =
        changed_keys(linker, ids, all, all ? nullptr : control.kept_bands, &counts);
    if (counts.linked == 0) return counts;
    // Uncancelled: an update's keys must all be written or none.
    counts.rewritten = *write_story_keys(databases, changed, &where);
  } catch (const Xapian::Error& error) {
    // The bands kept may be half brought up to date.
    if (control.kept_bands) control.kept_bands->reset();
    throw index_error("index " + where, error);
  } catch (const LinkCancelled&) {
    counts.cancelled = true;
  }
  return counts;
}

}  // namespace

std::unique_ptr<BandIndex> every_band_of(const std::vector<OpenDatabase>& databases) {
  std::string where = databases.empty() ? "" : databases.front().path;
  try {
    return read_every_band(searched_as_one(databases));
  } catch (const Xapian::Error& error) {
    throw index_error("index " + where, error);
  }
}

StoryLinkCounts link_stories(const std::vector<OpenDatabase>& databases,
                             const std::vector<std::string>& ids, const LinkControl& control) {
  return link_in_place(databases, ids, false, control);
}

StoryLinkCounts link_all_stories(const std::vector<OpenDatabase>& databases,
                                 const LinkControl& control) {
  return link_in_place(databases, {}, true, control);
}

StoryLinkCounts link_new_stories(const std::vector<std::string>& part_paths,
                                 const LinkControl& control) {
  StoryLinkCounts counts;
  std::string where = part_paths.empty() ? "" : part_paths.front();
  try {
    Xapian::Database all;
    for (const std::string& path : part_paths) all.add_database(Xapian::Database(path));
    ArticleLinker linker(all, control);
    const StoryChanges changed = changed_keys(linker, {}, true, nullptr, &counts);
    if (counts.linked == 0) return counts;
    // The parts are private until merged, and the merge writes and syncs
    // the index anew.
    std::vector<std::unique_ptr<Xapian::WritableDatabase>> parts;
    std::vector<OpenDatabase> databases;
    for (const std::string& path : part_paths) {
      where = path;
      parts.push_back(
          std::make_unique<Xapian::WritableDatabase>(path, Xapian::DB_OPEN | Xapian::DB_NO_SYNC));
      databases.push_back({path, parts.back().get()});
    }
    // The next run adopting the parts links them whole again: writing their
    // keys may stop midway.
    const std::optional<std::size_t> written =
        write_story_keys(databases, changed, &where, control.cancel);
    counts.cancelled = !written;
    counts.rewritten = written.value_or(0);
  } catch (const Xapian::Error& error) {
    throw index_error("index " + where, error);
  } catch (const LinkCancelled&) {
    counts.cancelled = true;
  }
  return counts;
}

}  // namespace quarry::detail
