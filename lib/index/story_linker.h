// Grouping an index's articles into stories and duplicate groups, after a
// run has written them, so that searches can show each story once.
//
// Two articles are near-duplicates when their MinHash sketches estimate
// that at least kDuplicateResemblance of their shingles are shared (wire
// copy with light edits). They are of one story when the cosine of their
// tf-idf stem vectors is at least kStorySimilarity, or, when both are dated
// at most kStoryDays apart, kDatedStorySimilarity; articles dated further
// apart never are; and they must share kSharedRareStems stems that at most
// kRareShare of the articles hold (kRareArticles in a small index).
// Duplicates are of one story too. The idf is
// ln(1 + max(N, kIdfArticles) / df): a small index weighs its words as a
// larger one would, rather than zeroing the words its articles share. Groups are the connected
// pieces of these links; each group's key is its smallest article id, so keys do not depend on the
// order articles were indexed in or on how they are sharded. An article alone has no key.
//
// Linking is incremental: only the articles a run added or changed look
// for their links, and the members of stories that lost or changed an
// article (the writer records them as it replaces or deletes one) are
// linked again, among themselves and with the rest of the index.
//
// It stays near-linear in the articles whatever the size of their groups
// of copies: an article is compared with a bounded number of the articles
// sharing each of its bands (see BandIndex::for_each_near), and only a
// few copies of each duplicate group (eight) search for story candidates.
#ifndef QUARRY_LIB_INDEX_STORY_LINKER_H_
#define QUARRY_LIB_INDEX_STORY_LINKER_H_

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "lib/index/band_index.h"
#include "lib/index/story_keys.h"

namespace quarry::detail {

inline constexpr double kDuplicateResemblance = 0.5;
inline constexpr double kStorySimilarity = 0.65;
inline constexpr double kDatedStorySimilarity = 0.3;
inline constexpr int kStoryDays = 3;
inline constexpr double kIdfArticles = 1000;
inline constexpr std::size_t kSharedRareStems = 2;
inline constexpr double kRareShare = 0.002;
inline constexpr double kRareArticles = 3;

struct StoryLinkCounts {
  std::size_t linked = 0;     // articles whose links were looked for
  std::size_t rewritten = 0;  // articles whose story or duplicate key changed
  bool cancelled = false;     // stopped before writing any key
};

// What a caller asks of linking as it goes.
struct LinkControl {
  // Linking stops soon after this turns true (within a few hundred
  // articles), before it writes any key.
  const std::atomic<bool>* cancel = nullptr;
  // Told now and then with the articles linked so far and how many there
  // are to link, on the linking thread.
  std::function<void(std::size_t linked, std::size_t total)> on_progress;
  // The bands of every article, kept from one link to the next by a writer
  // that links often and deletes nothing between (a live index's), made
  // on first use (BandIndex::every_band); null: read anew at each link.
  std::unique_ptr<BandIndex>* kept_bands = nullptr;
};

// Links the articles with these ids (those added or changed since the
// last link, and the members of stories that lost one), in `databases` (one,
// or every shard of a shard set, searched as one), whose articles are
// committed, and commits the keys through them. Throws IndexError.
StoryLinkCounts link_stories(const std::vector<OpenDatabase>& databases,
                             const std::vector<std::string>& ids, const LinkControl& control = {});

// The bands of every article of `databases`, for LinkControl::kept_bands.
// Throws IndexError.
std::unique_ptr<BandIndex> every_band_of(const std::vector<OpenDatabase>& databases);

// Links every article of `databases`, as a new index's are linked (see
// link_new_stories), and commits the keys that changed. Cancelled, it
// writes nothing. Throws IndexError.
StoryLinkCounts link_all_stories(const std::vector<OpenDatabase>& databases,
                                 const LinkControl& control = {});

// Links every article of a new index's parts (see parallel_build.h),
// databases searched as one that no one else reads or writes, before they
// are merged: the merge then writes the keys into dense tables. Finds
// near-duplicates in memory rather than by reading posting lists, which
// needs every article's signature in memory (some 600 bytes each). Throws
// IndexError.
StoryLinkCounts link_new_stories(const std::vector<std::string>& part_paths,
                                 const LinkControl& control = {});

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INDEX_STORY_LINKER_H_
