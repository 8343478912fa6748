#include "lib/index/story_linker.h"

#include <xapian.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "lib/index/band_index.h"
#include "lib/index/document_groups.h"
#include "lib/index/index_error.h"
#include "lib/index/schema.h"
#include "lib/index/story_keys.h"
#include "lib/index/story_signature.h"

namespace quarry::detail {
namespace {

// The article's rare stems searched for story candidates, the heaviest
// first, and how many of the best-ranked candidates are compared with it.
constexpr std::size_t kQueryStems = 12;
constexpr Xapian::doccount kStoryCandidates = 20;

// An article's stem as the linker numbers it (see Linker::stem_number),
// and how often the article holds it: a few bytes where a string would
// take dozens, for each stem of every article of a new index.
struct LinkedStem {
  std::uint32_t stem;
  std::uint32_t count;
};

// What linking reads of an article.
struct Signature {
  std::string id;
  int day = kNoDate;  // days since 1970
  bool has_sketch = false;
  MinHash sketch{};
  // The stems weighed (see Linker::weigh), by number, and the vector's
  // length.
  std::vector<LinkedStem> stems;
  double norm = 0;
  // The story key, duplicate key and story size it was stored with; null
  // when it has none, as most articles, and every one of a new index.
  std::unique_ptr<StoryKeys> stored;

  const StoryKeys& stored_keys() const {
    static const StoryKeys none;
    return stored ? *stored : none;
  }
  void store(std::size_t which, const std::string& value) {
    if (value.empty()) return;
    if (!stored) stored = std::make_unique<StoryKeys>();
    (*stored)[which] = value;
  }

  static constexpr int kNoDate = -1;
};

int day_of(const std::string& date) {
  if (date.size() != 8) return Signature::kNoDate;
  const std::chrono::year_month_day ymd{std::chrono::year{std::stoi(date.substr(0, 4))},
                                        std::chrono::month(std::stoul(date.substr(4, 2))),
                                        std::chrono::day(std::stoul(date.substr(6, 2)))};
  return static_cast<int>(std::chrono::sys_days(ymd).time_since_epoch().count());
}

class Linker {
 public:
  explicit Linker(const std::vector<std::string>& paths) {
    for (const std::string& path : paths) all_.add_database(Xapian::Database(path));
    articles_ = all_.get_doccount();
    for (std::uint32_t count = 0; count < tf_weight_.size(); ++count) {
      tf_weight_[count] = count == 0 ? 0.0 : 1 + std::log(static_cast<double>(count));
    }
  }

  const Xapian::Database& database() const { return all_; }

  // Reads every article's signature, and ranks story candidates in memory
  // rather than by a search per article. For linking all.
  void read_all();
  // Reads every article's sketch for the bands that near-duplicates share;
  // read_all() does this too.
  void read_bands();

  // Links `dirty` and everything that falls into their groups; returns the
  // new (story key, duplicate key, story size) of each document whose keys
  // may change.
  std::map<Xapian::docid, StoryKeys> link(const std::unordered_set<Xapian::docid>& dirty);

  const Signature& signature(Xapian::docid did);

 private:
  std::uint32_t stem_number(const std::string& stem);
  double weight(const LinkedStem& stem) const { return tf_weight_[stem.count] * idf_[stem.stem]; }
  void weigh(const std::vector<StemCount>& stems, Signature* s);
  bool same_story(const Signature& a, const Signature& b, double least) const;
  // The least idf of a stem few enough articles hold to be one of a
  // story's names (kRareShare, kRareArticles).
  double rare_weight() const;
  std::vector<Xapian::docid> duplicates_of(Xapian::docid did);
  std::vector<Xapian::docid> story_of(Xapian::docid did);
  // The articles holding `stem`, and how often, read once for every
  // article whose story searches it.
  const std::vector<std::pair<Xapian::docid, Xapian::termcount>>& holders(std::uint32_t stem);
  // The query's best `count` matches, as Xapian's BM25 ranks them.
  std::vector<Xapian::docid> best_matches(const std::vector<std::uint32_t>& query,
                                          std::size_t count);
  std::vector<Xapian::docid> members(const char* prefix, const std::string& key);

  Xapian::Database all_;
  Xapian::doccount articles_ = 0;
  std::unordered_map<Xapian::docid, Signature> signatures_;
  // Which articles share a band (see read_bands).
  std::unique_ptr<BandIndex> bands_;
  // Null unless read_all() was called: the articles holding each rare
  // stem searched, and each article's length by docid.
  std::unique_ptr<
      std::unordered_map<std::uint32_t, std::vector<std::pair<Xapian::docid, Xapian::termcount>>>>
      holders_;
  std::vector<Xapian::termcount> lengths_;
  std::vector<double> weights_;  // by docid, zero between queries
  // Each stem met, by its number, and its idf.
  std::unordered_map<std::string, std::uint32_t> stem_numbers_;
  std::vector<std::string> stems_;
  std::vector<double> idf_;
  std::vector<Xapian::doccount> df_;
  // 1 + ln(tf) for each count a signature stores (at most 255).
  std::array<double, 256> tf_weight_{};
};

const Signature& Linker::signature(Xapian::docid did) {
  auto [it, added] = signatures_.try_emplace(did);
  if (!added) return it->second;
  Signature& s = it->second;
  const Xapian::Document doc = all_.get_document(did, Xapian::DOC_ASSUME_VALID);
  s.id = id_of_hit_order_key(doc.get_value(kHitOrderSlot));
  s.day = day_of(doc.get_value(kDateSlot));
  s.has_sketch = decode_min_hash(doc.get_value(kMinHashSlot), &s.sketch);
  weigh(decode_stem_counts(doc.get_value(kStoryStemsSlot)), &s);
  s.store(0, doc.get_value(kStorySlot));
  s.store(1, doc.get_value(kDuplicateSlot));
  s.store(2, doc.get_value(kStorySizeSlot));
  return s;
}

void Linker::read_all() {
  signatures_.reserve(articles_);
  for (auto it = all_.postlist_begin(""); it != all_.postlist_end(""); ++it) {
    signatures_.try_emplace(*it);
  }
  // A value stream reads a slot's values in document order, where reading
  // each document's would look each value up in the B-tree.
  const auto each_value = [&](Xapian::valueno slot, auto use) {
    for (auto it = all_.valuestream_begin(slot); it != all_.valuestream_end(slot); ++it) {
      auto found = signatures_.find(it.get_docid());
      if (found != signatures_.end()) use(found->second, *it);
    }
  };
  each_value(kHitOrderSlot,
             [](Signature& s, const std::string& value) { s.id = id_of_hit_order_key(value); });
  each_value(kDateSlot, [](Signature& s, const std::string& value) { s.day = day_of(value); });
  each_value(kMinHashSlot, [](Signature& s, const std::string& value) {
    s.has_sketch = decode_min_hash(value, &s.sketch);
  });
  each_value(kStoryStemsSlot, [this](Signature& s, const std::string& value) {
    weigh(decode_stem_counts(value), &s);
  });
  each_value(kStorySlot, [](Signature& s, const std::string& value) { s.store(0, value); });
  each_value(kDuplicateSlot, [](Signature& s, const std::string& value) { s.store(1, value); });
  each_value(kStorySizeSlot, [](Signature& s, const std::string& value) { s.store(2, value); });
  std::vector<std::pair<Xapian::docid, const MinHash*>> sketches;
  for (const auto& [did, s] : signatures_) {
    if (s.has_sketch) sketches.emplace_back(did, &s.sketch);
  }
  bands_ = std::make_unique<BandIndex>(sketches);
  holders_ = std::make_unique<std::unordered_map<
      std::uint32_t, std::vector<std::pair<Xapian::docid, Xapian::termcount>>>>();
  lengths_.assign(all_.get_lastdocid() + 1, 0);
  weights_.assign(all_.get_lastdocid() + 1, 0.0);
  for (auto it = all_.postlist_begin(""); it != all_.postlist_end(""); ++it) {
    lengths_[*it] = it.get_doclength();
  }
}

void Linker::read_bands() {
  std::vector<std::pair<Xapian::docid, MinHash>> sketches;
  MinHash sketch;
  for (auto it = all_.valuestream_begin(kMinHashSlot); it != all_.valuestream_end(kMinHashSlot);
       ++it) {
    if (decode_min_hash(*it, &sketch)) sketches.emplace_back(it.get_docid(), sketch);
  }
  std::vector<std::pair<Xapian::docid, const MinHash*>> pointers;
  pointers.reserve(sketches.size());
  for (const auto& [did, read] : sketches) pointers.emplace_back(did, &read);
  bands_ = std::make_unique<BandIndex>(pointers);
}

std::uint32_t Linker::stem_number(const std::string& stem) {
  auto [it, added] = stem_numbers_.try_emplace(stem, static_cast<std::uint32_t>(stems_.size()));
  if (added) {
    stems_.push_back(stem);
    const Xapian::doccount df = all_.get_termfreq(stem);
    const double articles = std::max<double>(articles_, kIdfArticles);
    idf_.push_back(df == 0 ? 0.0 : std::log(1 + articles / df));
    df_.push_back(df);
  }
  return it->second;
}

// Sublinear tf (a story repeats its names, a copy its whole text) times idf.
void Linker::weigh(const std::vector<StemCount>& stems, Signature* s) {
  s->stems.clear();
  s->norm = 0;
  for (const auto& [stem, count] : stems) {
    const LinkedStem linked{stem_number(stem), count};
    const double weight = this->weight(linked);
    if (weight <= 0) continue;
    s->stems.push_back(linked);
    s->norm += weight * weight;
  }
  s->norm = std::sqrt(s->norm);
  std::sort(s->stems.begin(), s->stems.end(),
            [](const LinkedStem& a, const LinkedStem& b) { return a.stem < b.stem; });
  s->stems.shrink_to_fit();
}

// Similar vectors alone would also join reports that follow one template
// (dividend notices, money market updates) but tell of different things:
// a story's reports also share words that few articles hold, its names.
double Linker::rare_weight() const {
  return std::log(1 + std::max<double>(articles_, kIdfArticles) /
                          std::max<double>(kRareArticles, articles_ * kRareShare));
}

bool Linker::same_story(const Signature& a, const Signature& b, double least) const {
  if (a.norm == 0 || b.norm == 0) return false;
  const double rare_weight = this->rare_weight();
  double dot = 0;
  std::size_t rare = 0;
  auto x = a.stems.begin();
  auto y = b.stems.begin();
  while (x != a.stems.end() && y != b.stems.end()) {
    if (x->stem < y->stem) {
      ++x;
    } else if (y->stem < x->stem) {
      ++y;
    } else {
      dot += weight(*x) * weight(*y);
      rare += idf_[x->stem] >= rare_weight;
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
  bands_->for_each_sharing(sketch, [&](Xapian::docid other) {
    if (other != did) candidates.insert(other);
  });
  std::vector<Xapian::docid> found;
  for (Xapian::docid other : candidates) {
    const Signature& o = signature(other);
    if (o.has_sketch && resemblance(sketch, o.sketch) >= kDuplicateResemblance) {
      found.push_back(other);
    }
  }
  return found;
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
  for (const LinkedStem& stem : signature(did).stems) {
    if (idf_[stem.stem] >= rare) query.push_back({&stems_[stem.stem], weight(stem), stem.stem});
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
  if (holders_) {
    std::vector<std::uint32_t> numbers;
    for (const QueryStem& entry : query) numbers.push_back(entry.stem);
    candidates = best_matches(numbers, kStoryCandidates + 1);
  } else {
    std::vector<Xapian::Query> terms;
    for (const QueryStem& entry : query) terms.emplace_back(*entry.name);
    Xapian::Enquire enquire(all_);
    enquire.set_query(Xapian::Query(Xapian::Query::OP_OR, terms.begin(), terms.end()));
    const Xapian::MSet mset = enquire.get_mset(0, kStoryCandidates + 1);
    candidates.assign(mset.begin(), mset.end());
  }
  std::vector<Xapian::docid> found;
  const Signature& a = signature(did);
  for (Xapian::docid other : candidates) {
    if (other == did) continue;
    const Signature& b = signature(other);
    double least = kStorySimilarity;
    if (a.day != Signature::kNoDate && b.day != Signature::kNoDate) {
      if (std::abs(a.day - b.day) > kStoryDays) continue;
      least = kDatedStorySimilarity;
    }
    if (same_story(a, b, least)) found.push_back(other);
  }
  return found;
}

const std::vector<std::pair<Xapian::docid, Xapian::termcount>>& Linker::holders(
    std::uint32_t stem) {
  auto [it, added] = holders_->try_emplace(stem);
  if (added) {
    const std::string& term = stems_[stem];
    for (auto posting = all_.postlist_begin(term); posting != all_.postlist_end(term); ++posting) {
      it->second.emplace_back(*posting, posting.get_wdf());
    }
  }
  return it->second;
}

// Xapian's BM25Weight with its default parameters (k1 1, k2 0, k3 1, b 0.5,
// min_normlen 0.5), each term of the query once, best weight first and
// ties by docid, so that the candidates are those a search would give.
std::vector<Xapian::docid> Linker::best_matches(const std::vector<std::uint32_t>& query,
                                                std::size_t count) {
  constexpr double k1 = 1, b = 0.5, min_normlen = 0.5;
  const double articles = articles_;
  const double average_length = all_.get_avlength();
  const double length_factor = average_length == 0 ? 0 : 1 / average_length;
  // Each match's weight is summed in query order, in a table by docid
  // that is left zeroed again for the next query.
  std::vector<Xapian::docid> matched;
  for (std::uint32_t stem : query) {
    const double df = df_[stem];
    double odds = (articles - df + 0.5) / (df + 0.5);
    if (odds < 2) odds = odds * 0.5 + 1;
    const double term_weight = std::log(odds) * (k1 + 1);
    for (const auto& [did, wdf] : holders(stem)) {
      const double normlen = std::max(lengths_[did] * length_factor, min_normlen);
      const double wdf_double = wdf;
      const double denom = k1 * (normlen * b + (1 - b)) + wdf_double;
      if (weights_[did] == 0) matched.push_back(did);
      weights_[did] += term_weight * (wdf_double / denom);
    }
  }
  std::vector<std::pair<double, Xapian::docid>> ranked;
  ranked.reserve(matched.size());
  for (Xapian::docid did : matched) {
    ranked.emplace_back(weights_[did], did);
    weights_[did] = 0;
  }
  const auto better = [](const auto& x, const auto& y) {
    return x.first != y.first ? x.first > y.first : x.second < y.second;
  };
  if (ranked.size() > count) {
    std::partial_sort(ranked.begin(), ranked.begin() + count, ranked.end(), better);
    ranked.resize(count);
  } else {
    std::sort(ranked.begin(), ranked.end(), better);
  }
  std::vector<Xapian::docid> best;
  for (const auto& entry : ranked) best.push_back(entry.second);
  return best;
}

std::vector<Xapian::docid> Linker::members(const char* prefix, const std::string& key) {
  const std::string term = boolean_term(prefix, key);
  return {all_.postlist_begin(term), all_.postlist_end(term)};
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
    const Signature& s = signature(did);
    const std::string& story = s.stored_keys()[0];
    if (!story.empty() && joined_stories.insert(story).second) {
      for (Xapian::docid member : members(kStoryPrefix, story)) {
        stories.unite(did, member);
        if (!dirty.count(member)) {
          const std::string duplicate = signature(member).stored_keys()[1];
          if (!duplicate.empty() && joined_duplicates.insert(duplicate).second) {
            for (Xapian::docid copy : members(kDuplicatePrefix, duplicate)) {
              duplicates.unite(member, copy);
            }
          }
        }
      }
    }
  };
  for (Xapian::docid did : dirty) {
    stories.find(did);
    duplicates.find(did);
    for (Xapian::docid other : duplicates_of(did)) {
      duplicates.unite(did, other);
      stories.unite(did, other);
      join_kept(other);
    }
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
      const std::string& id = signature(did).id;
      if (key.empty() || id < key) key = id;
    }
    return key;
  };
  stories.for_each_group([&](const std::vector<Xapian::docid>& group) {
    const std::string key = smallest_id(group);
    for (Xapian::docid did : group) {
      if (group.size() > 1) {
        keys[did] = {key, "", std::to_string(group.size())};
      } else if (signature(did).stored) {
        // Alone, an article has no keys: only those stored with some
        // change (most of a new index's articles are alone).
        keys[did] = {"", "", ""};
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

// Links `dirty` (every article when `all`) and writes the keys that
// changed, each in its own database, opened with `flags`.
StoryLinkCounts link(const std::vector<std::string>& db_paths, const std::vector<std::string>& ids,
                     bool all, int flags) {
  StoryLinkCounts counts;
  std::string where = db_paths.empty() ? "" : db_paths.front();
  try {
    Linker linker(db_paths);
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
      for (Xapian::docid did : members_of_changed_stories(db)) dirty.insert(did);
      if (!dirty.empty()) linker.read_bands();
    }
    if (dirty.empty()) return counts;
    counts.linked = dirty.size();
    const auto keys = linker.link(dirty);
    // What each article was stored with was read while linking; most keep
    // theirs (an article alone in a new index has none to write).
    std::map<Xapian::docid, StoryKeys> changed;
    for (const auto& [did, key] : keys) {
      if (linker.signature(did).stored_keys() != key) changed.emplace(did, key);
    }
    counts.rewritten = write_story_keys(db_paths, flags, changed, &where);
  } catch (const Xapian::Error& error) {
    throw index_error("index " + where, error);
  }
  return counts;
}

}  // namespace

StoryLinkCounts link_stories(const std::vector<std::string>& db_paths,
                             const std::vector<std::string>& ids) {
  return link(db_paths, ids, false, 0);
}

StoryLinkCounts link_new_stories(const std::vector<std::string>& part_paths) {
  // The parts are private until merged, and the merge writes and syncs
  // the index anew.
  return link(part_paths, {}, true, Xapian::DB_NO_SYNC);
}

}  // namespace quarry::detail
