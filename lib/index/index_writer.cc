#include "quarry/index/index_writer.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <utility>

#include "lib/index/band_index.h"
#include "lib/index/commit_room.h"
#include "lib/index/index_error.h"
#include "lib/index/index_folder.h"
#include "lib/index/index_lock.h"
#include "lib/index/index_writer_access.h"
#include "lib/index/parallel_build.h"
#include "lib/index/schema.h"
#include "lib/index/story_linker.h"
#include "lib/index/unlinked_articles.h"
#include "lib/index/writable_index.h"
#include "quarry/error.h"
#include "quarry/text/analyzer.h"

namespace quarry {

struct IndexWriter::Impl {
  // Declared first, so that it is let go last, after the databases close.
  // Null when the caller holds the lock (IndexWriterAccess::open_locked).
  std::unique_ptr<detail::IndexLock> lock;
  // Its side of the commit lock, which snapshots hold (see hold_commits).
  detail::CommitGate commit_gate;
  // A single database, or a shard set.
  std::unique_ptr<detail::WritableIndex> index;
  // The articles added or changed since stories were last linked, this
  // writer's and those an earlier one committed but did not link.
  std::unique_ptr<detail::UnlinkedArticles> unlinked;
  // Articles written since the last commit. Xapian commits by itself after
  // 10,000 changes (XAPIAN_FLUSH_THRESHOLD's default), which would make
  // articles durable without the record that they are unlinked: the writer
  // commits before it would.
  static constexpr std::size_t kMostUncommitted = 9000;
  std::size_t uncommitted = 0;
  // Stops linking, which the next commit then does (see commit()).
  const std::atomic<bool>* cancel = nullptr;
  std::function<void(std::size_t, std::size_t)> on_link_progress;
  std::function<void()> before_commit;
  // Every article's bands, kept between commits when the writer links
  // often (IndexWriterAccess::keep_story_bands); let go when an article is
  // deleted, as they cannot tell which.
  bool keep_bands = false;
  std::unique_ptr<detail::BandIndex> kept_bands;

  explicit Impl(const IndexConfig& config)
      : commit_gate(config.db_path, config.cancel), cancel(config.cancel) {
    // Opening commits too: a new shard set's parts, their marks.
    const detail::CommitLock holding = hold_commits();
    index = detail::open_writable_index(config);
    try {
      unlinked = std::make_unique<detail::UnlinkedArticles>(*front().db);
    } catch (const Xapian::Error& error) {
      throw detail::index_error("reading the index " + front().path, error);
    }
  }

  // A writer let go without commit() still has its articles committed, by
  // Xapian's destructor: they are recorded as unlinked first, and room is
  // taken for them as for any commit. Without room (a full disk) they are
  // let go instead: Xapian's destructor would end the process there (see
  // commit_room.h), and the index stays as its last commit left it.
  ~Impl() {
    const detail::CommitLock holding = hold_commits();
    try {
      index->reserve_room_for_close();
      unlinked->record(*front().db);
    } catch (const Error&) {
      for (const detail::OpenDatabase& each : databases()) detail::discard_uncommitted(*each.db);
    } catch (const Xapian::Error&) {
    }
    index.reset();
  }

  // Held around every commit, so that a snapshot copies one revision of the
  // whole index (see detail::CommitLock): a commit of a shard set is one of
  // each of its databases, and IndexWriter::commit's linking commits again.
  // A snapshot that holds them longer than detail::kSnapshotHoldLimit, or
  // while the writer is cancelled, is passed over: it copies again.
  detail::CommitLock hold_commits() { return commit_gate.enter(); }

  // The database that holds the index's metadata: a shard set's first,
  // which its commits write first, so that the articles a commit records as
  // unlinked are never lost when a later shard's commit is cut short.
  detail::OpenDatabase front() { return databases().front(); }

  void checkpoint() {
    const detail::CommitLock holding = hold_commits();
    commit_articles(false);
  }

  // Commits the articles, recording which are unlinked in the same
  // transaction; `finish` also brings a shard set's lexicon up to date,
  // which a checkpoint leaves to the end.
  void commit_articles(bool finish) {
    if (before_commit) before_commit();
    try {
      unlinked->record(*front().db);
    } catch (const Xapian::Error& error) {
      throw detail::index_error("writing the index " + front().path, error);
    }
    uncommitted = 0;
    if (finish) {
      index->finish();
    } else {
      index->commit();
    }
  }

  // The members of the stories that lost an article are linked again, as
  // the articles added: recorded as unlinked with them, so that a kill
  // before linking leaves them to the next run.
  void relink_left_stories() {
    const std::vector<std::string> left = index->take_left_stories();
    if (left.empty()) return;
    try {
      for (const std::string& key : left) {
        for (std::string& id : detail::group_members(*front().db, detail::GroupKind::kStory, key)) {
          unlinked->add(std::move(id));
        }
      }
    } catch (const Xapian::Error& error) {
      throw detail::index_error("reading the index " + front().path, error);
    }
  }

  std::vector<detail::OpenDatabase> databases() { return index->databases(); }
};

IndexWriter::IndexWriter(const IndexConfig& given) {
  const IndexConfig config = detail::with_plain_db_path(given);
  // An unknown language or a wrong folder must fail before anything is
  // created, the lock file included.
  if (!config.language.empty()) detail::check_index_language(config.language);
  detail::check_index_folder(config.db_path);
  auto lock = std::make_unique<detail::IndexLock>(config.db_path, config.lock_wait, config.cancel);
  if (!detail::is_shard_set_config(config)) detail::adopt_interrupted_build(config.db_path);
  impl_ = std::make_unique<Impl>(config);
  impl_->lock = std::move(lock);
}

IndexWriter::IndexWriter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

IndexWriter::~IndexWriter() {
  // Xapian commits what the writer holds as it closes: what is to go with
  // the articles is written first.
  if (!impl_ || !impl_->before_commit || impl_->uncommitted == 0) return;
  try {
    impl_->before_commit();
  } catch (...) {
    // A destructor must not throw; the commit after it most likely fails
    // as this did.
  }
}

IndexWriter::IndexWriter(IndexWriter&&) noexcept = default;
IndexWriter& IndexWriter::operator=(IndexWriter&&) noexcept = default;

Upsert IndexWriter::upsert(const Article& article, const std::string& origin) {
  const Upsert done = impl_->index->upsert(article, origin);
  if (done == Upsert::kUnchanged) return done;
  impl_->unlinked->add(article.id);
  impl_->relink_left_stories();
  if (++impl_->uncommitted >= Impl::kMostUncommitted) impl_->checkpoint();
  return done;
}

std::size_t IndexWriter::delete_unseen(const std::string& origin) {
  const std::size_t deleted = impl_->index->delete_unseen(origin, nullptr);
  if (deleted > 0) impl_->kept_bands.reset();
  impl_->relink_left_stories();
  return deleted;
}

bool IndexWriter::remove(const std::string& id) {
  const bool removed = impl_->index->remove(id);
  if (!removed) return false;
  impl_->kept_bands.reset();
  impl_->relink_left_stories();
  if (++impl_->uncommitted >= Impl::kMostUncommitted) impl_->checkpoint();
  return true;
}

std::size_t IndexWriter::count_unseen(const std::string& origin) {
  return impl_->index->count_unseen(origin);
}

std::size_t IndexWriter::replace_synonyms(const std::vector<std::vector<std::string>>& groups) {
  const detail::CommitLock holding = impl_->hold_commits();
  return impl_->index->replace_synonyms(groups);
}

void IndexWriter::set_note(const std::string& key, const std::string& value) {
  detail::IndexWriterAccess::set_metadata(*this, detail::kNoteKeyPrefix + key, value);
}

std::string IndexWriter::note(const std::string& key) const {
  const detail::OpenDatabase front = impl_->front();
  try {
    return front.db->get_metadata(detail::kNoteKeyPrefix + key);
  } catch (const Xapian::Error& error) {
    throw detail::index_error("reading the index " + front.path, error);
  }
}

void IndexWriter::commit() {
  const detail::CommitLock holding = impl_->hold_commits();
  impl_->commit_articles(true);
  // What to link was recorded as articles were added, replaced or deleted
  // (see relink_left_stories), by this run or one before it.
  const detail::OpenDatabase front = impl_->front();
  bool whole = false;
  try {
    whole = !front.db->get_metadata(detail::kLinkWholeKey).empty();
  } catch (const Xapian::Error& error) {
    throw detail::index_error("reading the index " + front.path, error);
  }
  const detail::LinkControl control{impl_->cancel, impl_->on_link_progress,
                                    impl_->keep_bands ? &impl_->kept_bands : nullptr};
  // Linking all does not bring the bands kept up to date.
  if (whole) impl_->kept_bands.reset();
  const detail::StoryLinkCounts linked =
      whole ? detail::link_all_stories(impl_->databases(), control)
            : detail::link_stories(impl_->databases(), impl_->unlinked->ids(), control);
  // Only once every database has committed its keys: a run killed or
  // cancelled before leaves them to the next commit.
  if (linked.cancelled || (impl_->unlinked->empty() && !whole)) return;
  try {
    impl_->unlinked->clear(*front.db);
    if (whole) front.db->set_metadata(detail::kLinkWholeKey, "");
    front.db->commit();
  } catch (const Xapian::Error& error) {
    throw detail::index_error("writing the index " + front.path, error);
  }
}

const Analyzer& IndexWriter::analyzer() const { return impl_->index->analyzer(); }

LanguageCounts IndexWriter::language_counts() const { return impl_->index->language_counts(); }

namespace detail {

IndexWriter IndexWriterAccess::open_locked(const IndexConfig& config) {
  return IndexWriter(std::make_unique<IndexWriter::Impl>(config));
}

void IndexWriterAccess::checkpoint(IndexWriter& writer) { writer.impl_->checkpoint(); }

std::vector<std::string> IndexWriterAccess::delete_unseen(IndexWriter& writer,
                                                          const std::string& origin) {
  std::vector<std::string> ids;
  IndexWriter::Impl& impl = *writer.impl_;
  impl.index->delete_unseen(origin, &ids);
  if (!ids.empty()) impl.kept_bands.reset();
  impl.relink_left_stories();
  return ids;
}

void IndexWriterAccess::keep_story_bands(IndexWriter& writer) {
  writer.impl_->keep_bands = true;
  // Read now, rather than by the first commit, which would keep its
  // articles from searches the longer.
  writer.impl_->kept_bands = every_band_of(writer.impl_->databases());
}

void IndexWriterAccess::forget_upserted(IndexWriter& writer) {
  writer.impl_->index->forget_upserted();
}

void IndexWriterAccess::before_each_commit(IndexWriter& writer, std::function<void()> before) {
  writer.impl_->before_commit = std::move(before);
}

std::size_t IndexWriterAccess::changes_before_own_commit(const IndexWriter& writer) {
  return IndexWriter::Impl::kMostUncommitted - writer.impl_->uncommitted;
}

void IndexWriterAccess::on_link_progress(
    IndexWriter& writer, std::function<void(std::size_t linked, std::size_t total)> told) {
  writer.impl_->on_link_progress = std::move(told);
}

std::string IndexWriterAccess::metadata(IndexWriter& writer, const std::string& key) {
  try {
    return writer.impl_->databases().front().db->get_metadata(key);
  } catch (const Xapian::Error& error) {
    throw index_error("reading the index", error);
  }
}

void IndexWriterAccess::set_metadata(IndexWriter& writer, const std::string& key,
                                     const std::string& value) {
  try {
    writer.impl_->databases().front().db->set_metadata(key, value);
  } catch (const Xapian::Error& error) {
    throw index_error("writing the index", error);
  }
}

}  // namespace detail
}  // namespace quarry
