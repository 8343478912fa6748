// The articles whose stories are still to be linked, recorded in the index
// with the articles themselves, so that a run killed or interrupted between
// committing articles and linking them leaves the linking to the next run.
//
// Each commit that wrote articles adds one metadata key holding their ids
// (kUnlinkedKeyPrefix and a number), in the same transaction as the
// articles: a key per commit rather than one growing list, so that a run of
// a million articles writes each id once. The keys are deleted once the
// stories are linked and their keys committed. Ids rather than document
// numbers, as an article replaced keeps its number and one of a shard set
// is numbered by the set.
#ifndef QUARRY_LIB_INDEX_UNLINKED_ARTICLES_H_
#define QUARRY_LIB_INDEX_UNLINKED_ARTICLES_H_

#include <xapian.h>

#include <cstddef>
#include <string>
#include <vector>

namespace quarry::detail {

// Not thread-safe. Every method throws Xapian::Error.
class UnlinkedArticles {
 public:
  // Reads what earlier runs recorded in `db` and did not link.
  explicit UnlinkedArticles(const Xapian::Database& db);

  // An article added or changed, to be recorded by the next record().
  void add(const std::string& id) { ids_.push_back(id); }
  // Writes the ids added since the last record() into `db`, to be kept by
  // its next commit.
  void record(Xapian::WritableDatabase& db);
  // Every id to link: those recorded by earlier runs, then those added.
  const std::vector<std::string>& ids() const { return ids_; }
  // Deletes every key recorded from `db`, to be kept by its next commit:
  // call once the stories are linked and committed.
  void clear(Xapian::WritableDatabase& db);
  // Whether there is anything to record or clear.
  bool empty() const { return ids_.empty() && keys_.empty(); }

 private:
  std::vector<std::string> ids_;
  std::size_t recorded_ = 0;  // ids_ before this one are in keys_
  std::vector<std::string> keys_;
  unsigned long next_key_ = 0;
};

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INDEX_UNLINKED_ARTICLES_H_
