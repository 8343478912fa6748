// What index_paths needs of an IndexWriter beyond its public API: it takes
// the index's lock itself, before it chooses how to write, and commits as
// it goes without linking stories until the end of the run, when the
// statistics are final and the index is read once for all of them.
#ifndef QUARRY_LIB_INDEX_INDEX_WRITER_ACCESS_H_
#define QUARRY_LIB_INDEX_INDEX_WRITER_ACCESS_H_

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "quarry/index/index_writer.h"

namespace quarry::detail {

struct IndexWriterAccess {
  // Opens the index at config.db_path (a plain path: with_plain_db_path)
  // as IndexWriter does, for a caller that holds its lock and has adopted
  // an interrupted build. Throws what IndexWriter throws.
  static IndexWriter open_locked(const IndexConfig& config);

  // Makes the articles written so far durable, leaving their stories to be
  // linked by the next commit(). Throws IndexError.
  static void checkpoint(IndexWriter& writer);

  // Forgets which articles were upserted, so that a sweep of an origin
  // that starts now deletes the articles it does not meet (delete_unseen)
  // though they were met before: a live index sweeps a folder again when it
  // may have missed changes.
  static void forget_upserted(IndexWriter& writer);

  // As IndexWriter::delete_unseen, returning the ids of the articles
  // deleted.
  static std::vector<std::string> delete_unseen(IndexWriter& writer, const std::string& origin);

  // Keeps every article's bands from one commit to the next, rather than
  // reading all their sketches again for each commit's links: for a writer
  // that commits often (see LinkControl::kept_bands). Reads them now.
  // Throws IndexError.
  static void keep_story_bands(IndexWriter& writer);
  // Runs `before` just before each commit that makes articles durable:
  // checkpoint(), commit(), the writer's own commits when it holds many
  // uncommitted changes, and the commit Xapian makes of what a writer let
  // go without commit() holds (there, what `before` throws is ignored).
  static void before_each_commit(IndexWriter& writer, std::function<void()> before);
  // How many more changes (upserts that change the index, removals) the
  // writer takes before it commits by itself, which its caller may want to
  // do first, with what belongs in the same transaction.
  static std::size_t changes_before_own_commit(const IndexWriter& writer);
  // Tells `told` how linking goes at each commit (see LinkControl).
  static void on_link_progress(IndexWriter& writer,
                               std::function<void(std::size_t linked, std::size_t total)> told);

  // Metadata of the index, kept with the next commit: of its one database,
  // or of the first shard of a shard set.
  static std::string metadata(IndexWriter& writer, const std::string& key);
  static void set_metadata(IndexWriter& writer, const std::string& key, const std::string& value);
};

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INDEX_INDEX_WRITER_ACCESS_H_
