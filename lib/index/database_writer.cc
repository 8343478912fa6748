#include "lib/index/database_writer.h"

#include <xapian.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <thread>
#include <unordered_set>

#include "lib/index/commit_room.h"
#include "lib/index/document_builder.h"
#include "lib/index/index_error.h"
#include "lib/index/index_lock.h"
#include "lib/index/schema.h"
#include "quarry/error.h"

namespace quarry::detail {

namespace {

// Opens (creating if need be) the database, settling which language it is
// analyzed in: a new one is marked with its language and schema.
Xapian::WritableDatabase open_writable(const IndexConfig& config) {
  // An unknown language must fail before the index folder is created.
  if (!config.language.empty()) check_index_language(config.language);
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
        throw index_error("index " + config.db_path, error);
      }
      if (std::chrono::steady_clock::now() >= deadline) {
        throw IndexLockedError(locked_message(config.db_path));
      }
      std::this_thread::sleep_for(kLockPollInterval);
    } catch (const Xapian::Error& error) {
      throw index_error("index " + config.db_path, error);
    }
  }
  try {
    const std::string stored = stored_language(db, config.db_path);
    if (stored.empty()) {
      db.set_metadata(kLanguageKey, new_index_language(config.language));
      db.set_metadata(kSchemaKey, std::to_string(kSchemaVersion));
    } else if (!config.language.empty() && config.language != stored) {
      throw ConfigError("index " + config.db_path + " was built with --language " + stored +
                        ", not " + config.language + "; build a new index to change the language");
    }
    check_schema(db, config.db_path);
  } catch (const Xapian::Error& error) {
    throw index_error("index " + config.db_path, error);
  }
  return db;
}

std::string metadata(const Xapian::WritableDatabase& db, const std::string& key,
                     const std::string& path) {
  try {
    return db.get_metadata(key);
  } catch (const Xapian::Error& error) {
    throw index_error("index " + path, error);
  }
}

}  // namespace

DatabaseWriter::DatabaseWriter(const IndexConfig& config)
    : path_(config.db_path),
      db_(open_writable(config)),
      language_(metadata(db_, kLanguageKey, path_)),
      analyzers_(language_),
      store_(metadata(db_, kTextDictionaryKey, path_)) {}

DatabaseWriter::~DatabaseWriter() = default;

void DatabaseWriter::forget(const Xapian::Document& doc) {
  remove_words(db_, stored_article_words(analyzers_, store_, db_, doc.get_docid()));
  std::string story = doc.get_value(kStorySlot);
  if (!story.empty()) left_stories_.push_back(std::move(story));
}

std::vector<std::string> DatabaseWriter::take_left_stories() {
  std::vector<std::string> taken;
  taken.swap(left_stories_);
  return taken;
}

Upsert DatabaseWriter::upsert(const Article& article, const std::string& origin) {
  const std::string term = id_term(article.id);
  const std::string print = fingerprint(article, language_);
  const std::string origin_term = boolean_term(kOriginPrefix, origin);
  try {
    const std::optional<Xapian::docid> existing = document_of(db_, term);
    const bool exists = existing.has_value();
    if (exists) {
      Xapian::Document doc = db_.get_document(*existing);
      Xapian::TermIterator has_origin = doc.termlist_begin();
      has_origin.skip_to(origin_term);
      if (doc.get_value(kFingerprintSlot) == print && has_origin != doc.termlist_end() &&
          *has_origin == origin_term) {
        upserted_.insert(*existing);
        return Upsert::kUnchanged;
      }
      forget(doc);
    }
    std::vector<std::string> words;
    const Analyzer& analyzer = analyzers_.of(analyzers_.language_of(article));
    Xapian::Document doc = make_document(analyzer, article, origin, &words, &store_);
    doc.add_value(kFingerprintSlot, print);
    add_words(db_, words);
    Xapian::docid docid = db_.replace_document(term, doc);
    upserted_.insert(docid);
    uncommitted_text_bytes_ += article.title.size() + article.body.size();
    if (!exists) return Upsert::kAdded;
    const std::string replaced = db_.get_metadata(kReplacedKey);
    std::uint64_t count = 0;
    std::from_chars(replaced.data(), replaced.data() + replaced.size(), count);
    db_.set_metadata(kReplacedKey, std::to_string(count + 1));
    return Upsert::kUpdated;
  } catch (const Xapian::Error& error) {
    throw index_error("index " + path_, error);
  }
}

bool DatabaseWriter::remove(const std::string& id) {
  const std::string term = id_term(id);
  try {
    const std::optional<Xapian::docid> existing = document_of(db_, term);
    if (!existing) return false;
    const Xapian::docid docid = *existing;
    forget(db_.get_document(docid));
    db_.delete_document(docid);
    upserted_.erase(docid);
    return true;
  } catch (const Xapian::Error& error) {
    throw index_error("index " + path_, error);
  }
}

std::size_t DatabaseWriter::delete_unseen(const std::string& origin,
                                          std::vector<std::string>* ids) {
  const std::string origin_term = boolean_term(kOriginPrefix, origin);
  std::vector<Xapian::docid> gone;
  try {
    for (auto it = db_.postlist_begin(origin_term); it != db_.postlist_end(origin_term); ++it) {
      if (!upserted_.count(*it)) gone.push_back(*it);
    }
    for (Xapian::docid docid : gone) {
      const Xapian::Document doc = db_.get_document(docid);
      if (ids) ids->push_back(id_of_hit_order_key(doc.get_value(kHitOrderSlot)));
      forget(doc);
      db_.delete_document(docid);
    }
  } catch (const Xapian::Error& error) {
    throw index_error("index " + path_, error);
  }
  return gone.size();
}

std::size_t DatabaseWriter::count_unseen(const std::string& origin) {
  const std::string origin_term = boolean_term(kOriginPrefix, origin);
  std::size_t unseen = 0;
  try {
    for (auto it = db_.postlist_begin(origin_term); it != db_.postlist_end(origin_term); ++it) {
      if (!upserted_.count(*it)) ++unseen;
    }
  } catch (const Xapian::Error& error) {
    throw index_error("index " + path_, error);
  }
  return unseen;
}

std::size_t DatabaseWriter::replace_synonyms(const std::vector<std::vector<std::string>>& groups) {
  std::size_t stored = 0;
  try {
    std::vector<std::string> old_keys;
    for (auto key = db_.synonym_keys_begin(); key != db_.synonym_keys_end(); ++key) {
      old_keys.push_back(*key);
    }
    for (const std::string& key : old_keys) db_.clear_synonyms(key);
    for (const std::vector<std::string>& group : groups) {
      // Members are stored as the analyzer reads them, words joined by one
      // space, so that the query parser finds them by the same key.
      std::vector<std::string> members;
      for (const std::string& member : group) {
        std::string key;
        for (const Token& token : analyzers_.main().tokenize(member)) {
          key += (key.empty() ? "" : " ") + token.term;
        }
        if (!key.empty() && std::find(members.begin(), members.end(), key) == members.end()) {
          members.push_back(key);
        }
      }
      if (members.size() < 2) continue;
      for (const std::string& key : members) {
        for (const std::string& other : members) {
          if (other != key) db_.add_synonym(key, other);
        }
      }
      ++stored;
    }
  } catch (const Xapian::Error& error) {
    throw index_error("index " + path_, error);
  }
  return stored;
}

void DatabaseWriter::reserve_room_for_close() {
  reserve_commit_room(path_, commit_room_for(uncommitted_text_bytes_));
}

void DatabaseWriter::commit() {
  reserve_commit_room(path_, commit_room_for(uncommitted_text_bytes_));
  try {
    db_.commit();
    uncommitted_text_bytes_ = 0;
  } catch (const Xapian::Error& error) {
    throw index_error("index " + path_, error);
  }
}

}  // namespace quarry::detail
