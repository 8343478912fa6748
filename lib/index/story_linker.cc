#include "lib/index/story_linker.h"

#include <xapian.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "lib/index/band_index.h"
#include "lib/index/candidate_ranker.h"
#include "lib/index/document_groups.h"
#include "lib/index/index_error.h"
#include "lib/index/schema.h"
#include "lib/index/signature_table.h"
#include "lib/index/story_keys.h"
#include "lib/index/story_signature.h"

namespace quarry::detail {
namespace {

// The article's rare stems searched for story candidates, the heaviest
// first, and how many of the best-ranked candidates are compared with it.
constexpr std::size_t kQueryStems = 12;
constexpr Xapian::doccount kStoryCandidates = 20;
// The members of a duplicate group that search for story candidates.
constexpr std::size_t kStorySearchesPerGroup = 8;
// Linking this many articles or more, their story candidates are ranked
// in memory (see Linker::rank_in_memory): at a million articles, a
// thousand searches took four seconds.
constexpr std::size_t kRankInMemoryFrom = 200;

// Whether an article was stored with a story or a duplicate key.
bool stored_any(const StoryKeys& keys) { return !keys[0].empty() || !keys[1].empty(); }

// Thrown inside linking when the caller cancels it, caught where it began.
struct LinkCancelled {};

class Linker {
 public:
  Linker(Xapian::Database all, const LinkControl& control)
      : signatures_(std::move(all)), control_(control) {}

  const Xapian::Database& database() const { return signatures_.database(); }

  // Reads every article's signature, and ranks story candidates in memory
  // rather than by a search per article. For linking all.
  void read_all();
  // Reads the bands of every article that shares one with `dirty`, for
  // linking them; read_all() reads every shared band.
  void read_bands_of(const std::unordered_set<Xapian::docid>& dirty);
  // Ranks story candidates in memory, as read_all() does: for many
  // articles, reading each rare stem's postings once costs less than a
  // search per article.
  void rank_in_memory() { ranker_ = std::make_unique<CandidateRanker>(signatures_); }
  // Uses the bands in `kept` (every article's, made on the first call) for
  // the articles of the index, after bringing `dirty`'s up to date.
  void use_bands(std::unique_ptr<BandIndex>& kept, const std::unordered_set<Xapian::docid>& dirty);

  // Links `dirty` and everything that falls into their groups; returns the
  // new (story key, duplicate key, story size) of each document whose keys
  // may change.
  std::map<Xapian::docid, StoryKeys> link(const std::unordered_set<Xapian::docid>& dirty);

  const Signature& signature(Xapian::docid did) { return signatures_.signature(did); }
  const std::string& id(Xapian::docid did) { return signatures_.id(did); }
  const StoryKeys& stored_keys(Xapian::docid did) { return signatures_.stored_keys(did); }

  // Throws LinkCancelled when the caller cancelled.
  void check_cancel() const;

 private:
  bool same_story(const Signature& a, const Signature& b, double least) const;
  // The least idf of a stem few enough articles hold to be one of a
  // story's names (kRareShare, kRareArticles).
  double rare_weight() const;
  std::vector<Xapian::docid> duplicates_of(Xapian::docid did);
  // The article's sketch, or null when it has none.
  const MinHash* sketch_of(Xapian::docid did);
  std::vector<Xapian::docid> story_of(Xapian::docid did);
  // The members of a group still in the index.
  std::vector<Xapian::docid> members(GroupKind kind, const std::string& key);

  // Counts an article linked: tells the caller now and then, and throws
  // LinkCancelled once it cancels.
  void step();

  SignatureTable signatures_;
  const LinkControl& control_;
  std::size_t done_ = 0;
  std::size_t total_ = 0;
  // Which articles share a band (see read_bands), in owned_bands_ or
  // kept by the caller (use_bands).
  std::unique_ptr<BandIndex> owned_bands_;
  const BandIndex* bands_ = nullptr;
  // The sketches read_bands_of() kept: comparing an article with one that
  // shares a band then reads nothing more of it.
  std::unordered_map<Xapian::docid, MinHash> band_sketches_;
  // Null unless read_all() or rank_in_memory() was called.
  std::unique_ptr<CandidateRanker> ranker_;
};

void Linker::read_all() {
  signatures_.read_all();
  owned_bands_ = std::make_unique<BandIndex>(signatures_.sketches());
  bands_ = owned_bands_.get();
  ranker_ = std::make_unique<CandidateRanker>(signatures_);
}

namespace {

// Every article's sketch, in document order.
std::vector<std::pair<Xapian::docid, MinHash>> read_sketches(const Xapian::Database& all) {
  std::vector<std::pair<Xapian::docid, MinHash>> sketches;
  MinHash sketch;
  for (auto it = all.valuestream_begin(kMinHashSlot); it != all.valuestream_end(kMinHashSlot);
       ++it) {
    if (decode_min_hash(*it, &sketch)) sketches.emplace_back(it.get_docid(), sketch);
  }
  return sketches;
}

std::vector<std::pair<Xapian::docid, const MinHash*>> pointers_to(
    const std::vector<std::pair<Xapian::docid, MinHash>>& sketches) {
  std::vector<std::pair<Xapian::docid, const MinHash*>> pointers;
  pointers.reserve(sketches.size());
  for (const auto& [did, read] : sketches) pointers.emplace_back(did, &read);
  return pointers;
}

}  // namespace

// Every sketch is read, but only the bands the articles linked hold are
// kept: sorting every band of a million articles took two seconds.
void Linker::read_bands_of(const std::unordered_set<Xapian::docid>& dirty) {
  std::unordered_set<std::uint64_t> wanted;
  for (Xapian::docid did : dirty) {
    const Signature& s = signature(did);
    if (!s.has_sketch) continue;
    for (std::uint64_t key : band_keys(s.sketch)) wanted.insert(key);
  }
  std::vector<std::pair<std::uint64_t, Xapian::docid>> bands;
  MinHash sketch;
  const Xapian::Database& db = database();
  for (auto it = db.valuestream_begin(kMinHashSlot); it != db.valuestream_end(kMinHashSlot); ++it) {
    if (!decode_min_hash(*it, &sketch)) continue;
    bool kept = false;
    for (std::uint64_t key : band_keys(sketch)) {
      if (!wanted.count(key)) continue;
      bands.emplace_back(key, it.get_docid());
      kept = true;
    }
    if (kept) band_sketches_.emplace(it.get_docid(), sketch);
  }
  owned_bands_ = std::make_unique<BandIndex>(BandIndex::of_bands(std::move(bands)));
  bands_ = owned_bands_.get();
}

void Linker::use_bands(std::unique_ptr<BandIndex>& kept,
                       const std::unordered_set<Xapian::docid>& dirty) {
  if (!kept) {
    kept =
        std::make_unique<BandIndex>(BandIndex::every_band(pointers_to(read_sketches(database()))));
  } else {
    std::vector<std::pair<Xapian::docid, const MinHash*>> changed;
    for (Xapian::docid did : dirty) {
      const Signature& s = signature(did);
      changed.emplace_back(did, s.has_sketch ? &s.sketch : nullptr);
    }
    kept->update(changed);
  }
  bands_ = kept.get();
}

void Linker::check_cancel() const {
  if (control_.cancel && control_.cancel->load(std::memory_order_relaxed)) throw LinkCancelled{};
}

void Linker::step() {
  constexpr std::size_t kEvery = 256;
  if (++done_ % kEvery != 0) return;
  check_cancel();
  if (control_.on_progress) control_.on_progress(done_, total_);
}

// Similar vectors alone would also join reports that follow one template
// (dividend notices, money market updates) but tell of different things:
// a story's reports also share words that few articles hold, its names.
double Linker::rare_weight() const {
  return std::log(1 + std::max<double>(signatures_.articles(), kIdfArticles) /
                          std::max<double>(kRareArticles, signatures_.articles() * kRareShare));
}

bool Linker::same_story(const Signature& a, const Signature& b, double least) const {
  if (a.norm == 0 || b.norm == 0) return false;
  const double rare_weight = this->rare_weight();
  double dot = 0;
  std::size_t rare = 0;
  const SignatureTable::Stems a_stems = signatures_.stems(a);
  const SignatureTable::Stems b_stems = signatures_.stems(b);
  auto x = a_stems.begin();
  auto y = b_stems.begin();
  while (x != a_stems.end() && y != b_stems.end()) {
    const LinkedStem xs = *x;
    const LinkedStem ys = *y;
    if (xs.stem < ys.stem) {
      ++x;
    } else if (ys.stem < xs.stem) {
      ++y;
    } else {
      dot += signatures_.weight(xs) * signatures_.weight(ys);
      rare += signatures_.idf(xs.stem) >= rare_weight;
      ++x;
      ++y;
    }
  }
  return rare >= kSharedRareStems && dot / (a.norm * b.norm) >= least;
}

std::vector<Xapian::docid> Linker::duplicates_of(Xapian::docid did) {
  const Signature& s = signature(did);
  if (!s.has_sketch) return {};
  const MinHash sketch = s.sketch;
  std::unordered_set<Xapian::docid> candidates;
  bands_->for_each_near(sketch, did, [&](Xapian::docid other) {
    if (other != did) candidates.insert(other);
  });
  std::vector<Xapian::docid> found;
  for (Xapian::docid other : candidates) {
    const MinHash* other_sketch = sketch_of(other);
    if (other_sketch && resemblance(sketch, *other_sketch) >= kDuplicateResemblance) {
      found.push_back(other);
    }
  }
  return found;
}

const MinHash* Linker::sketch_of(Xapian::docid did) {
  if (auto kept = band_sketches_.find(did); kept != band_sketches_.end()) return &kept->second;
  const Signature& s = signature(did);
  return s.has_sketch ? &s.sketch : nullptr;
}

std::vector<Xapian::docid> Linker::story_of(Xapian::docid did) {
  // Only an article sharing kSharedRareStems rare stems with this one can be
  // of its story, so those alone are searched: their posting lists are
  // short, where a common stem's would be read for each article linked.
  struct QueryStem {
    const std::string* name;
    double weight;
    std::uint32_t stem;
  };
  std::vector<QueryStem> query;
  const double rare = rare_weight();
  for (const LinkedStem stem : signatures_.stems(signature(did))) {
    if (signatures_.idf(stem.stem) >= rare) {
      query.push_back({&signatures_.stem_name(stem.stem), signatures_.weight(stem), stem.stem});
    }
  }
  if (query.size() < kSharedRareStems) return {};
  // In stem order first, so that stems of equal weight are chosen alike
  // whatever their numbers.
  std::sort(query.begin(), query.end(),
            [](const QueryStem& a, const QueryStem& b) { return *a.name < *b.name; });
  std::sort(query.begin(), query.end(),
            [](const QueryStem& a, const QueryStem& b) { return a.weight > b.weight; });
  if (query.size() > kQueryStems) query.resize(kQueryStems);
  // The query's best kStoryCandidates + 1 matches are its candidates (one
  // is the article itself). Linking a new index ranks them in memory as a
  // search would, from posting lists each read once, rather than search
  // for each article.
  std::vector<Xapian::docid> candidates;
  if (ranker_) {
    std::vector<std::uint32_t> numbers;
    for (const QueryStem& entry : query) numbers.push_back(entry.stem);
    candidates = ranker_->best_matches(numbers, kStoryCandidates + 1);
  } else {
    std::vector<Xapian::Query> terms;
    for (const QueryStem& entry : query) terms.emplace_back(*entry.name);
    Xapian::Enquire enquire(database());
    enquire.set_query(Xapian::Query(Xapian::Query::OP_OR, terms.begin(), terms.end()));
    const Xapian::MSet mset = enquire.get_mset(0, kStoryCandidates + 1);
    candidates.assign(mset.begin(), mset.end());
  }
  std::vector<Xapian::docid> found;
  const Signature& a = signature(did);
  for (Xapian::docid other : candidates) {
    if (other == did) continue;
    // Most candidates of a dated article are of other days: their date
    // alone is read to pass them over.
    const int day = signatures_.day(other);
    double least = kStorySimilarity;
    if (a.day != Signature::kNoDate && day != Signature::kNoDate) {
      if (std::abs(a.day - day) > kStoryDays) continue;
      least = kDatedStorySimilarity;
    }
    if (same_story(a, signature(other), least)) found.push_back(other);
  }
  return found;
}

std::vector<Xapian::docid> Linker::members(GroupKind kind, const std::string& key) {
  std::vector<Xapian::docid> found;
  for (const std::string& id : group_members(database(), kind, key)) {
    const std::string term = id_term(id);
    auto it = database().postlist_begin(term);
    if (it != database().postlist_end(term)) found.push_back(*it);
  }
  return found;
}

std::map<Xapian::docid, StoryKeys> Linker::link(const std::unordered_set<Xapian::docid>& dirty) {
  DocumentGroups stories;
  DocumentGroups duplicates;
  // Groups the dirty articles do not belong to keep their members: an
  // article linked to one of them joins the whole group.
  std::unordered_set<std::string> joined_stories;
  std::unordered_set<std::string> joined_duplicates;
  const auto join_kept = [&](Xapian::docid did) {
    if (dirty.count(did)) return;
    const std::string& story = signatures_.stored_keys(did)[0];
    if (!story.empty() && joined_stories.insert(story).second) {
      for (Xapian::docid member : members(GroupKind::kStory, story)) {
        stories.unite(did, member);
        if (!dirty.count(member)) {
          const std::string duplicate = signatures_.stored_keys(member)[1];
          if (!duplicate.empty() && joined_duplicates.insert(duplicate).second) {
            for (Xapian::docid copy : members(GroupKind::kDuplicates, duplicate)) {
              duplicates.unite(member, copy);
            }
          }
        }
      }
    }
  };
  // Each dirty article is met twice: looking for its copies, then (for a
  // few of each group of copies) for its story.
  done_ = 0;
  total_ = 2 * dirty.size();
  for (Xapian::docid did : dirty) {
    step();
    stories.find(did);
    duplicates.find(did);
    for (Xapian::docid other : duplicates_of(did)) {
      duplicates.unite(did, other);
      stories.unite(did, other);
      join_kept(other);
    }
  }
  // Copies of one text find the same story candidates: only a few of each
  // group look for them, those of the smallest ids, whatever the order of
  // indexing. Searching for every copy would read the postings of all
  // the others, for each of them.
  std::vector<Xapian::docid> searching;
  duplicates.for_each_group([&](const std::vector<Xapian::docid>& group) {
    std::vector<std::pair<const std::string*, Xapian::docid>> by_id;
    for (Xapian::docid did : group) {
      if (dirty.count(did)) by_id.emplace_back(&signatures_.id(did), did);
    }
    if (by_id.size() > kStorySearchesPerGroup) {
      std::partial_sort(by_id.begin(), by_id.begin() + kStorySearchesPerGroup, by_id.end(),
                        [](const auto& a, const auto& b) { return *a.first < *b.first; });
      by_id.resize(kStorySearchesPerGroup);
    }
    for (const auto& entry : by_id) searching.push_back(entry.second);
  });
  done_ = total_ - searching.size();
  for (Xapian::docid did : searching) {
    step();
    for (Xapian::docid other : story_of(did)) {
      stories.unite(did, other);
      join_kept(other);
    }
  }
  std::map<Xapian::docid, StoryKeys> keys;
  // A group's key is its smallest article id, whatever the order of
  // indexing or sharding.
  const auto smallest_id = [&](const std::vector<Xapian::docid>& group) {
    std::string key;
    for (Xapian::docid did : group) {
      const std::string& id = signatures_.id(did);
      if (key.empty() || id < key) key = id;
    }
    return key;
  };
  stories.for_each_group([&](const std::vector<Xapian::docid>& group) {
    const std::string key = smallest_id(group);
    for (Xapian::docid did : group) {
      if (group.size() > 1) {
        keys[did] = {key, ""};
      } else if (stored_any(signatures_.stored_keys(did))) {
        // Alone, an article has no keys: only those stored with some
        // change (most of a new index's articles are alone).
        keys[did] = {"", ""};
      }
    }
  });
  duplicates.for_each_group([&](const std::vector<Xapian::docid>& group) {
    if (group.size() < 2) return;
    const std::string key = smallest_id(group);
    for (Xapian::docid did : group) keys[did][1] = key;
  });
  return keys;
}

// Links `ids` (every article when `all`); returns what changed, and counts
// the articles linked.
StoryChanges changed_keys(Linker& linker, const std::vector<std::string>& ids, bool all,
                          std::unique_ptr<BandIndex>* kept_bands, StoryLinkCounts* counts) {
  const Xapian::Database& db = linker.database();
  std::unordered_set<Xapian::docid> dirty;
  if (all) {
    linker.read_all();
    dirty.reserve(db.get_doccount());
    for (auto it = db.postlist_begin(""); it != db.postlist_end(""); ++it) dirty.insert(*it);
  } else {
    for (const std::string& id : ids) {
      const std::string term = id_term(id);
      auto it = db.postlist_begin(term);
      if (it != db.postlist_end(term)) dirty.insert(*it);
    }
    if (dirty.empty()) {
    } else if (kept_bands) {
      linker.use_bands(*kept_bands, dirty);
    } else {
      linker.read_bands_of(dirty);
    }
    if (dirty.size() >= kRankInMemoryFrom) linker.rank_in_memory();
  }
  counts->linked = dirty.size();
  if (dirty.empty()) return {};
  linker.check_cancel();
  return story_changes(db, linker.link(dirty), [&](Xapian::docid did) {
    return LinkedArticle{&linker.id(did), &linker.stored_keys(did)};
  });
}

}  // namespace

namespace {

StoryLinkCounts link_in_place(const std::vector<OpenDatabase>& databases,
                              const std::vector<std::string>& ids, bool all,
                              const LinkControl& control) {
  StoryLinkCounts counts;
  std::string where = databases.empty() ? "" : databases.front().path;
  try {
    Xapian::Database whole;
    for (const OpenDatabase& database : databases) whole.add_database(*database.db);
    Linker linker(whole, control);
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
    Xapian::Database whole;
    for (const OpenDatabase& database : databases) whole.add_database(*database.db);
    return std::make_unique<BandIndex>(BandIndex::every_band(pointers_to(read_sketches(whole))));
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
    Linker linker(all, control);
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
