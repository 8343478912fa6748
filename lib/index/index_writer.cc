#include "quarry/index/index_writer.h"

#include <xapian.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "lib/index/document_builder.h"
#include "lib/index/index_error.h"
#include "lib/index/index_lock.h"
#include "lib/index/parallel_build.h"
#include "lib/index/schema.h"
#include "lib/index/shard_set.h"
#include "lib/input/input_size.h"
#include "quarry/error.h"
#include "quarry/thread_count.h"

namespace quarry {

struct IndexWriter::Impl {
  std::string path;
  Xapian::WritableDatabase db;
  Analyzer analyzer;
  std::unordered_set<Xapian::docid> upserted;

  Impl(std::string db_path, Xapian::WritableDatabase database, Analyzer a)
      : path(std::move(db_path)), db(std::move(database)), analyzer(std::move(a)) {}

  // Takes the words of a stored article out of the vocabulary, before it is
  // replaced or deleted.
  void forget_words(Xapian::docid docid) {
    detail::remove_words(db, detail::stored_article_words(analyzer, db, docid));
  }
};

namespace {

// Opens (creating if need be) the database and settles which language it is
// analyzed in.
Xapian::WritableDatabase open_writable(const IndexConfig& config, std::string* language) {
  std::error_code ignored;
  std::filesystem::create_directories(std::filesystem::path(config.db_path).parent_path(), ignored);
  Xapian::WritableDatabase db;
  const auto deadline = std::chrono::steady_clock::now() + config.lock_wait;
  for (;;) {
    try {
      db = Xapian::WritableDatabase(config.db_path, Xapian::DB_CREATE_OR_OPEN);
      break;
    } catch (const Xapian::DatabaseLockError& error) {
      // Xapian 1.4 also reports a lock file it cannot create (a read-only
      // folder, too many open files) as a lock error; only its message
      // tells another writer apart.
      if (error.get_msg().find("already locked") == std::string::npos) {
        throw detail::index_error("index " + config.db_path, error);
      }
      if (std::chrono::steady_clock::now() >= deadline) {
        throw IndexLockedError(detail::locked_message(config.db_path));
      }
      std::this_thread::sleep_for(detail::kLockPollInterval);
    } catch (const Xapian::Error& error) {
      throw detail::index_error("index " + config.db_path, error);
    }
  }
  const std::string stored = db.get_metadata(detail::kLanguageKey);
  if (stored.empty()) {
    if (db.get_doccount() != 0) {
      throw IndexError(config.db_path + " is a Xapian database that Quarry did not build");
    }
    *language = detail::new_index_language(config.language);
  } else if (!config.language.empty() && config.language != stored) {
    throw ConfigError("index " + config.db_path + " is analyzed in " + stored + ", not " +
                      config.language + "; build a new index to change the language");
  } else {
    *language = stored;
  }
  detail::check_schema(db, config.db_path);
  return db;
}

}  // namespace

IndexWriter::IndexWriter(const IndexConfig& config) {
  // An unknown language must fail before the index folder is created.
  if (!config.language.empty()) check_language(config.language);
  std::string language;
  Xapian::WritableDatabase db = open_writable(config, &language);
  Analyzer analyzer(AnalyzerConfig{language});
  try {
    if (db.get_metadata(detail::kLanguageKey).empty()) {
      db.set_metadata(detail::kLanguageKey, language);
      db.set_metadata(detail::kSchemaKey, std::to_string(detail::kSchemaVersion));
    }
  } catch (const Xapian::Error& error) {
    throw detail::index_error("index " + config.db_path, error);
  }
  impl_ = std::make_unique<Impl>(config.db_path, std::move(db), std::move(analyzer));
}

IndexWriter::~IndexWriter() = default;

Upsert IndexWriter::upsert(const Article& article, const std::string& origin) {
  const std::string id_term = detail::id_term(article.id);
  const std::string print = detail::fingerprint(article, impl_->analyzer.config().language);
  const std::string origin_term = detail::boolean_term(detail::kOriginPrefix, origin);
  try {
    Xapian::PostingIterator existing = impl_->db.postlist_begin(id_term);
    const bool exists = existing != impl_->db.postlist_end(id_term);
    if (exists) {
      Xapian::Document doc = impl_->db.get_document(*existing);
      Xapian::TermIterator has_origin = doc.termlist_begin();
      has_origin.skip_to(origin_term);
      if (doc.get_value(detail::kFingerprintSlot) == print && has_origin != doc.termlist_end() &&
          *has_origin == origin_term) {
        impl_->upserted.insert(*existing);
        return Upsert::kUnchanged;
      }
    }
    if (exists) impl_->forget_words(*existing);
    std::vector<std::string> words;
    const Xapian::Document doc = detail::make_document(impl_->analyzer, article, origin, &words);
    detail::add_words(impl_->db, words);
    Xapian::docid docid = impl_->db.replace_document(id_term, doc);
    impl_->upserted.insert(docid);
    return exists ? Upsert::kUpdated : Upsert::kAdded;
  } catch (const Xapian::Error& error) {
    throw detail::index_error("index " + impl_->path, error);
  }
}

std::size_t IndexWriter::delete_unseen(const std::string& origin) {
  const std::string origin_term = detail::boolean_term(detail::kOriginPrefix, origin);
  std::vector<Xapian::docid> gone;
  try {
    for (auto it = impl_->db.postlist_begin(origin_term); it != impl_->db.postlist_end(origin_term);
         ++it) {
      if (!impl_->upserted.count(*it)) gone.push_back(*it);
    }
    for (Xapian::docid docid : gone) {
      impl_->forget_words(docid);
      impl_->db.delete_document(docid);
    }
  } catch (const Xapian::Error& error) {
    throw detail::index_error("index " + impl_->path, error);
  }
  return gone.size();
}

std::size_t IndexWriter::replace_synonyms(const std::vector<std::vector<std::string>>& groups) {
  std::size_t stored = 0;
  try {
    std::vector<std::string> old_keys;
    for (auto key = impl_->db.synonym_keys_begin(); key != impl_->db.synonym_keys_end(); ++key) {
      old_keys.push_back(*key);
    }
    for (const std::string& key : old_keys) impl_->db.clear_synonyms(key);
    for (const std::vector<std::string>& group : groups) {
      // Members are stored as the analyzer reads them, words joined by one
      // space, so that the query parser finds them by the same key.
      std::vector<std::string> members;
      for (const std::string& member : group) {
        std::string key;
        for (const Token& token : impl_->analyzer.tokenize(member)) {
          key += (key.empty() ? "" : " ") + token.term;
        }
        if (!key.empty() && std::find(members.begin(), members.end(), key) == members.end()) {
          members.push_back(key);
        }
      }
      if (members.size() < 2) continue;
      for (const std::string& key : members) {
        for (const std::string& other : members) {
          if (other != key) impl_->db.add_synonym(key, other);
        }
      }
      ++stored;
    }
  } catch (const Xapian::Error& error) {
    throw detail::index_error("index " + impl_->path, error);
  }
  return stored;
}

void IndexWriter::commit() {
  try {
    impl_->db.commit();
  } catch (const Xapian::Error& error) {
    throw detail::index_error("index " + impl_->path, error);
  }
}

const Analyzer& IndexWriter::analyzer() const { return impl_->analyzer; }

namespace {

// Where the articles a reader finds go: the index itself, or the writers of
// a parallel build.
class Destination {
 public:
  virtual ~Destination() = default;
  virtual Upsert put(Article&& article, const std::string& origin, bool repeated) = 0;
  // Makes what was put durable when the destination commits as it goes.
  virtual void checkpoint() {}
};

// An index updated in place, article by article: one database
// (IndexWriter) or a shard set (detail::ShardSetWriter).
template <typename Writer>
class WriterDestination : public Destination {
 public:
  explicit WriterDestination(Writer& writer) : writer_(writer) {}
  Upsert put(Article&& article, const std::string& origin, bool) override {
    return writer_.upsert(article, origin);
  }
  void checkpoint() override { writer_.commit(); }

 private:
  Writer& writer_;
};

class BuildDestination : public Destination {
 public:
  explicit BuildDestination(detail::ParallelBuild& build) : build_(build) {}
  Upsert put(Article&& article, const std::string& origin, bool repeated) override {
    build_.add(std::move(article), origin, repeated);
    return repeated ? Upsert::kUpdated : Upsert::kAdded;
  }

 private:
  detail::ParallelBuild& build_;
};

// Feeds what one path's reader finds into the destination, keeping the
// tallies.
class IndexingSink : public ArticleSink {
 public:
  IndexingSink(Destination& destination, const IndexConfig& config, IndexReport& report,
               IndexObserver* observer)
      : destination_(destination), config_(config), report_(report), observer_(observer) {}

  void set_origin(std::string origin) { origin_ = std::move(origin); }

  void on_article(Article&& article, const SourceLocation& where) override {
    report_.bytes_read += article.id.size() + article.title.size() + article.body.size() +
                          article.date.size() + article.category.size() + article.source.size();
    auto [seen, inserted] = first_seen_.try_emplace(article.id, where);
    if (!inserted) {
      on_problem({where,
                  "duplicate id '" + article.id + "' (also at " + seen->second.to_string() +
                      "): this one is kept",
                  false});
      seen->second = where;
    }
    switch (destination_.put(std::move(article), origin_, !inserted)) {
      case Upsert::kAdded:
        ++report_.added;
        ++pending_;
        break;
      case Upsert::kUpdated:
        ++report_.updated;
        ++pending_;
        break;
      case Upsert::kUnchanged:
        ++report_.unchanged;
        break;
    }
    if (pending_ >= config_.commit_every) {
      destination_.checkpoint();
      pending_ = 0;
    }
    if (observer_ && report_.seen() % kProgressEvery == 0) observer_->on_progress(report_);
  }

  void on_problem(const ReadProblem& problem) override {
    ++(problem.skipped ? report_.skipped : report_.repaired);
    if (observer_) observer_->on_problem(problem);
  }

  bool should_stop() const override {
    return config_.cancel && config_.cancel->load(std::memory_order_relaxed);
  }

 private:
  static constexpr std::size_t kProgressEvery = 1000;

  Destination& destination_;
  const IndexConfig& config_;
  IndexReport& report_;
  IndexObserver* observer_;
  std::string origin_;
  std::size_t pending_ = 0;
  std::unordered_map<std::string, SourceLocation> first_seen_;
};

// Reads every path into the sink; `after_origin` runs after each complete
// pass over one. Returns false when cancelled.
template <typename AfterOrigin>
bool read_paths(const std::vector<std::string>& paths, IndexingSink& sink,
                AfterOrigin after_origin) {
  for (const std::string& path : paths) {
    std::error_code error;
    std::filesystem::path origin = std::filesystem::weakly_canonical(path, error);
    if (error || !std::filesystem::exists(origin)) {
      sink.on_problem({{path, 0}, "no such file or folder", true});
      continue;
    }
    sink.set_origin(origin.string());
    try {
      read_articles(path, sink);
    } catch (const InputError& input_error) {
      sink.on_problem({{path, 0}, input_error.what(), true});
      continue;
    }
    if (sink.should_stop()) return false;
    after_origin(origin.string());
  }
  return true;
}

// Reads `paths` into an existing index through `writer`, replacing its
// synonyms when a list was given. Leaves the final commit to the caller.
template <typename Writer>
void update_in_place(Writer& writer, const IndexConfig& config,
                     const std::vector<std::string>& paths,
                     const std::vector<std::vector<std::string>>& synonyms, IndexReport& report,
                     IndexObserver* observer) {
  if (!config.synonyms_file.empty()) report.synonym_groups = writer.replace_synonyms(synonyms);
  WriterDestination<Writer> destination(writer);
  IndexingSink sink(destination, config, report, observer);
  // Only a complete pass over an origin knows which of its articles are
  // gone; an interrupted one deletes nothing.
  report.cancelled = !read_paths(paths, sink, [&](const std::string& origin) {
    report.deleted += writer.delete_unseen(origin);
  });
}

// "index/" and "index" are one index: the lock and a new index's parts sit
// beside it, named after it.
IndexConfig with_plain_db_path(IndexConfig config) {
  std::filesystem::path path = std::filesystem::path(config.db_path).lexically_normal();
  if (!path.has_filename() && path.has_relative_path()) path = path.parent_path();
  config.db_path = path.string();
  return config;
}

}  // namespace

std::vector<std::vector<std::string>> read_synonyms(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError("cannot read synonym list " + path);
  std::vector<std::vector<std::string>> groups;
  std::string line;
  while (std::getline(in, line)) {
    if (auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    std::vector<std::string> group;
    std::size_t start = 0;
    while (start <= line.size()) {
      std::size_t comma = line.find(',', start);
      if (comma == std::string::npos) comma = line.size();
      group.push_back(line.substr(start, comma - start));
      start = comma + 1;
    }
    groups.push_back(std::move(group));
  }
  return groups;
}

IndexReport index_paths(const IndexConfig& given, const std::vector<std::string>& paths,
                        IndexObserver* observer) {
  const IndexConfig config = with_plain_db_path(given);
  const auto start = std::chrono::steady_clock::now();
  // Read before the index is touched, so that a bad file changes nothing.
  std::vector<std::vector<std::string>> synonyms;
  if (!config.synonyms_file.empty()) synonyms = read_synonyms(config.synonyms_file);
  IndexReport report;
  // An unknown language must fail before anything is created.
  if (!config.language.empty()) check_language(config.language);
  const detail::IndexLock lock(config.db_path, config.lock_wait, config.cancel);
  report.input_bytes = detail::estimated_input_bytes(paths);

  // A shard set is updated in place, shard by shard; it is never built
  // beside, nor merged into one database.
  const bool sharded = config.shards != 0 || detail::is_shard_set(config.db_path);
  if (!sharded) detail::adopt_interrupted_build(config.db_path);
  if (sharded) {
    detail::ShardSetWriter writer(config);
    update_in_place(writer, config, paths, synonyms, report, observer);
    writer.finish();
  } else if (detail::index_absent(config.db_path)) {
    // A new index: every core writes a part, merged when all is read. Only
    // a complete merge creates the index; a killed build is adopted above
    // by the next run, which then adds what is missing.
    detail::ParallelBuild build(config.db_path, detail::new_index_language(config.language),
                                thread_count(config.threads), config.commit_every);
    BuildDestination destination(build);
    IndexingSink sink(destination, config, report, observer);
    report.cancelled = !read_paths(paths, sink, [](const std::string&) {});
    build.publish();
    if (!synonyms.empty()) {
      IndexWriter writer(config);
      report.synonym_groups = writer.replace_synonyms(synonyms);
      writer.commit();
    }
  } else {
    IndexWriter writer(config);
    update_in_place(writer, config, paths, synonyms, report, observer);
    writer.commit();
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (observer) observer->on_progress(report);
  return report;
}

}  // namespace quarry
