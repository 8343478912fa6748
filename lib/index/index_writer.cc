#include "quarry/index/index_writer.h"

#include <xapian.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <thread>
#include <unordered_set>

#include "lib/index/document_builder.h"
#include "lib/index/index_error.h"
#include "lib/index/index_lock.h"
#include "lib/index/schema.h"
#include "quarry/error.h"

namespace quarry {

struct IndexWriter::Impl {
  std::string path;
  Xapian::WritableDatabase db;
  Analyzer analyzer;
  // Compresses with the dictionary the index was built with, if any.
  detail::ArticleStore store;
  std::unordered_set<Xapian::docid> upserted;

  Impl(std::string db_path, Xapian::WritableDatabase database, Analyzer a)
      : path(std::move(db_path)),
        db(std::move(database)),
        analyzer(std::move(a)),
        store(db.get_metadata(detail::kTextDictionaryKey)) {}

  // Takes the words of a stored article out of the vocabulary, before it is
  // replaced or deleted.
  void forget_words(Xapian::docid docid) {
    detail::remove_words(db, detail::stored_article_words(analyzer, store, db, docid));
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
    const Xapian::Document doc =
        detail::make_document(impl_->analyzer, article, origin, &words, &impl_->store);
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

}  // namespace quarry
