#include "lib/index/parallel_build.h"

#include <signal.h>
#include <unistd.h>
#include <xapian.h>
#include <xxhash.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <exception>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "lib/index/document_builder.h"
#include "lib/index/index_error.h"
#include "lib/index/index_lock.h"
#include "lib/index/index_placement.h"
#include "lib/index/schema.h"
#include "lib/index/story_linker.h"
#include "quarry/error.h"
#include "quarry/text/analyzer.h"

namespace quarry::detail {
namespace {

namespace fs = std::filesystem;

constexpr char kBuildingMarker[] = ".building-";
// Each writer's database in the private folder: "part-K".
constexpr char kPartPrefix[] = "part-";
// Articles waiting per writer: enough to keep writers busy, few enough to
// keep memory flat.
constexpr std::size_t kQueueLimit = 256;
// Articles a writer adds to its part between commits, at most.
constexpr std::size_t kPartBatch = 1000;
// The first articles, which train the dictionary the stored text of those
// that follow is compressed with: about a megabyte of news, past which a
// dictionary compresses little better.
constexpr std::size_t kTrainingArticles = 1000;

fs::path private_folder(const std::string& db_path) {
  return db_path + kBuildingMarker + std::to_string(getpid());
}

fs::path part_path(const fs::path& folder, std::size_t index) {
  return folder / (kPartPrefix + std::to_string(index));
}

std::vector<fs::path> parts_in(const fs::path& folder) {
  std::vector<fs::path> parts;
  std::error_code ignored;
  for (const auto& entry : fs::directory_iterator(folder, ignored)) {
    if (entry.path().filename().string().starts_with(kPartPrefix)) parts.push_back(entry.path());
  }
  std::sort(parts.begin(), parts.end());
  return parts;
}

// Counts the words of every article of `db` into `words`: the vocabulary of
// a build whose writers' counts were lost (a build that was killed), read
// back from the stored articles.
void count_stored_words(const Xapian::Database& db, WordTable& words) {
  ArticleStore store(db.get_metadata(kTextDictionaryKey));
  for (auto it = db.postlist_begin(""); it != db.postlist_end(""); ++it) {
    words.next_article();
    for (const std::string& word : stored_article_words(words.analyzers(), store, db, *it)) {
      words.count(word);
    }
  }
}

// Written once for the whole index rather than article by article.
void write_vocabulary(const WordTable& words, Xapian::WritableDatabase& db) {
  words.for_each_word(
      [&](const std::string& word, Xapian::doccount articles) { db.add_spelling(word, articles); });
}

// Writes the vocabulary into the first of the parts, in one commit, before
// the stories are linked: the table of words is then freed rather than held
// beside every article's signature, and the merge compacts the vocabulary
// with the rest. A part holding it holds all of it.
void write_vocabulary_into(const std::vector<fs::path>& parts, const WordTable& words) {
  if (parts.empty()) return;
  try {
    Xapian::WritableDatabase part(parts.front().string(), Xapian::DB_OPEN | Xapian::DB_NO_SYNC);
    write_vocabulary(words, part);
    part.commit();
  } catch (const Xapian::Error& error) {
    throw index_error("index " + parts.front().string(), error);
  }
}

// Links the stories of `parts`, then compacts them into one database at
// `db_path` with the vocabulary the first part holds (see
// write_vocabulary_into; read back from the stored articles when it holds
// none), through a folder beside it and a rename, so that the index
// appears whole or not at all. Linking before the merge lets the merge write the keys into dense
// tables, where keys written after it would leave the merged tables
// fragmented and larger. The parts of an interrupted build (`resumed`) are
// merged unlinked, and the index marked to be linked whole by the run
// completing it (kLinkWholeKey): linked apart, the articles it adds would
// find their stories by search, not as a build run through finds them.
// Tells `on_step` as linking and merging begin. Returns false, merging
// nothing, when linking was cancelled: the parts stay for the next run.
bool merge_into_place(const std::vector<fs::path>& parts, const fs::path& work,
                      const std::string& db_path, bool resumed, const StepObserver& on_step,
                      const LinkControl& control) {
  const fs::path merged = work / "merged";
  if (parts.empty()) throw IndexError("no parts to merge in " + work.string());
  std::error_code ignored;
  fs::remove_all(merged, ignored);  // what a merge killed midway left
  std::vector<std::string> part_paths;
  for (const fs::path& part : parts) part_paths.push_back(part.string());
  on_step(IndexStep::kLinkingStories);
  if (!resumed && link_new_stories(part_paths, control).cancelled) return false;
  on_step(IndexStep::kMerging);
  try {
    Xapian::Database all;
    for (const fs::path& part : parts) all.add_database(Xapian::Database(part.string()));
    all.compact(merged.string());
    Xapian::WritableDatabase db(merged.string(), Xapian::DB_OPEN);
    if (resumed) db.set_metadata(kLinkWholeKey, "1");
    if (all.spellings_begin() == all.spellings_end()) {
      WordTable read_back(all.get_metadata(kLanguageKey));
      count_stored_words(all, read_back);
      write_vocabulary(read_back, db);
    }
    db.commit();
  } catch (const Xapian::Error& error) {
    throw index_error("merging the new index " + db_path, error);
  }
  if (const std::error_code error = place_database(merged, db_path)) {
    throw IndexError("cannot move the new index into " + db_path + ": " + error.message());
  }
  fs::remove_all(work, ignored);
  return true;
}

// A writer's failure as the library reports it: add() rethrows it to the
// reader's thread, which lets only quarry::Error out (a full disk, say).
std::exception_ptr as_index_error(std::exception_ptr failure, const std::string& db_path) {
  try {
    std::rethrow_exception(failure);
  } catch (const Xapian::Error& error) {
    return std::make_exception_ptr(index_error("index " + db_path, error));
  } catch (...) {
    return failure;
  }
}

}  // namespace

struct ParallelBuild::Impl {
  struct Job {
    Article article;
    std::string origin;
  };
  struct Writer {
    std::deque<Job> queue;
    std::condition_variable ready;
    std::condition_variable room;
    std::thread thread;
    std::unique_ptr<WordTable> words;  // of this writer's part, made by its thread
  };

  std::string db_path;
  std::string language;
  std::size_t commit_every;
  LanguageCounts languages;  // summed as the writers finish
  fs::path folder;
  // Copies of the first articles, until they train the dictionary. Those
  // articles are stored without one, so that none waits for the training.
  std::vector<Article> sample;
  bool trained = false;
  // Null until trained; written by the reading thread, read by the writers.
  std::shared_ptr<const std::string> dictionary;
  std::mutex mutex;
  std::vector<std::unique_ptr<Writer>> writers;
  bool closing = false;
  std::exception_ptr failure;

  void run(std::size_t index);
  void queue(Job job);
  void stop();
};

void ParallelBuild::Impl::run(std::size_t index) {
  Writer& writer = *writers[index];
  try {
    writer.words = std::make_unique<WordTable>(language);
    // Syncing is left to the merge: a part is private until published, and
    // a commit survives the process being killed, which is what resuming
    // needs.
    Xapian::WritableDatabase db(part_path(folder, index).string(),
                                Xapian::DB_CREATE | Xapian::DB_NO_SYNC);
    db.set_metadata(kLanguageKey, language);
    db.set_metadata(kSchemaKey, std::to_string(kSchemaVersion));
    // Xapian buffers a batch's postings in maps that slow down as they
    // grow; committing small batches is cheaper than one big flush.
    const std::size_t batch = std::min(commit_every, kPartBatch);
    std::size_t pending = 0;
    std::unique_ptr<ArticleStore> store;
    std::shared_ptr<const std::string> store_dictionary;
    for (;;) {
      std::unique_lock lock(mutex);
      writer.ready.wait(lock, [&] { return closing || failure || !writer.queue.empty(); });
      if (writer.queue.empty() || failure) break;
      Job job = std::move(writer.queue.front());
      writer.queue.pop_front();
      const std::shared_ptr<const std::string> latest = dictionary;
      lock.unlock();
      writer.room.notify_one();

      if (!store || latest != store_dictionary) {
        store_dictionary = latest;
        store = std::make_unique<ArticleStore>(latest ? *latest : std::string());
        if (latest && !latest->empty()) db.set_metadata(kTextDictionaryKey, *latest);
      }
      // A new id: no need to look for an old one. Identifying the language
      // here spreads its cost over the writers.
      LanguageAnalyzers& analyzers = writer.words->analyzers();
      const Analyzer& analyzer = analyzers.of(analyzers.language_of(job.article));
      Xapian::Document doc =
          make_document(analyzer, job.article, job.origin, *writer.words, *store);
      doc.add_value(kFingerprintSlot, fingerprint(job.article, language));
      db.add_document(doc);
      if (++pending >= batch) {
        db.commit();
        pending = 0;
      }
    }
    db.commit();
  } catch (...) {
    std::lock_guard lock(mutex);
    if (!failure) failure = as_index_error(std::current_exception(), db_path);
    for (auto& other : writers) other->room.notify_all();
  }
}

void ParallelBuild::Impl::stop() {
  {
    std::lock_guard lock(mutex);
    closing = true;
  }
  for (auto& writer : writers) writer->ready.notify_all();
  for (auto& writer : writers) {
    if (writer->thread.joinable()) writer->thread.join();
  }
}

ParallelBuild::ParallelBuild(const std::string& db_path, const std::string& language,
                             std::size_t writers, std::size_t commit_every)
    : impl_(std::make_unique<Impl>()) {
  impl_->db_path = db_path;
  impl_->language = language;
  impl_->commit_every = commit_every;
  impl_->folder = private_folder(db_path);
  std::error_code error;
  fs::create_directories(impl_->folder, error);
  if (error) throw IndexError("cannot create " + impl_->folder.string() + ": " + error.message());
  for (std::size_t i = 0; i < std::max<std::size_t>(writers, 1); ++i) {
    impl_->writers.push_back(std::make_unique<Impl::Writer>());
  }
  for (std::size_t i = 0; i < impl_->writers.size(); ++i) {
    impl_->writers[i]->thread = std::thread([this, i] { impl_->run(i); });
  }
}

ParallelBuild::~ParallelBuild() { impl_->stop(); }

void ParallelBuild::Impl::queue(Job job) {
  const std::size_t part =
      XXH3_64bits(job.article.id.data(), job.article.id.size()) % writers.size();
  Writer& writer = *writers[part];
  std::unique_lock lock(mutex);
  writer.room.wait(lock, [&] { return failure || writer.queue.size() < kQueueLimit; });
  if (failure) std::rethrow_exception(failure);
  writer.queue.push_back(std::move(job));
  lock.unlock();
  writer.ready.notify_one();
}

void ParallelBuild::add(Article article, const std::string& origin) {
  if (!impl_->trained) {
    impl_->sample.push_back(article);
    if (impl_->sample.size() >= kTrainingArticles) {
      auto trained = std::make_shared<const std::string>(train_text_dictionary(impl_->sample));
      impl_->sample = {};
      impl_->trained = true;
      std::lock_guard lock(impl_->mutex);
      impl_->dictionary = std::move(trained);
    }
  }
  impl_->queue({std::move(article), origin});
}

LanguageCounts ParallelBuild::language_counts() const { return impl_->languages; }

bool ParallelBuild::publish(const StepObserver& on_step, const LinkControl& control) {
  on_step(IndexStep::kFinishingParts);
  impl_->stop();
  // Already a quarry::Error when it was a Xapian one (see as_index_error).
  if (impl_->failure) std::rethrow_exception(impl_->failure);
  // Each word's count is the sum of the parts' counts: an id lives in one
  // part only.
  impl_->languages = {};
  for (const auto& writer : impl_->writers) {
    if (writer->words) add_counts(impl_->languages, writer->words->analyzers().counts());
  }
  WordTable& vocabulary = *impl_->writers[0]->words;
  for (std::size_t i = 1; i < impl_->writers.size(); ++i) {
    vocabulary.absorb(std::move(*impl_->writers[i]->words));
  }
  const std::vector<fs::path> parts = parts_in(impl_->folder);
  write_vocabulary_into(parts, vocabulary);
  for (const auto& writer : impl_->writers) writer->words.reset();
  return merge_into_place(parts, impl_->folder, impl_->db_path, false, on_step, control);
}

bool index_absent(const std::string& db_path) {
  std::error_code error;
  if (!fs::exists(db_path, error)) return true;
  if (!fs::is_directory(db_path, error)) return false;
  for (fs::directory_iterator it(db_path, error), end; !error && it != end; it.increment(error)) {
    if (!is_lock_file(it->path().filename().string())) return false;
  }
  return !error;
}

bool adopt_interrupted_build(const std::string& db_path, const std::atomic<bool>* cancel) {
  const fs::path target(db_path);
  const std::string prefix = target.filename().string() + kBuildingMarker;
  std::error_code ignored;
  const fs::path parent = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  std::vector<fs::path> folders;
  for (const auto& entry : fs::directory_iterator(parent, ignored)) folders.push_back(entry.path());
  for (const fs::path& folder : folders) {
    const std::string name = folder.filename().string();
    if (!name.starts_with(prefix)) continue;
    const pid_t pid = static_cast<pid_t>(std::atol(name.c_str() + prefix.size()));
    const bool still_running = pid > 0 && pid != getpid() && (kill(pid, 0) == 0 || errno == EPERM);
    if (still_running) continue;
    if (index_absent(db_path)) {
      try {
        if (!merge_into_place(parts_in(folder), folder, db_path, true, [](IndexStep) {},
                              {cancel, {}})) {
          return false;
        }
        continue;
      } catch (const IndexError&) {
        // A part that never committed cannot be merged: start afresh.
      }
    }
    fs::remove_all(folder, ignored);
  }
  return true;
}

}  // namespace quarry::detail
