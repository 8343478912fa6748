#include "lib/index/shard_set.h"

#include <xapian.h>
#include <xxhash.h>

#include <filesystem>
#include <fstream>

#include "lib/index/commit_room.h"
#include "lib/index/index_error.h"
#include "lib/index/index_lock.h"
#include "lib/index/parallel_build.h"
#include "lib/index/schema.h"
#include "lib/index/stub_file.h"
#include "quarry/error.h"
#include "quarry/text/analyzer.h"

namespace quarry::detail {
namespace {

namespace fs = std::filesystem;

std::string lexicon_path(const std::string& folder) {
  return (fs::path(folder) / kLexiconName).string();
}

std::string shard_path(const std::string& folder, std::size_t index) {
  return (fs::path(folder) / shard_name(index)).string();
}

// The stub is written through a new file and a rename, so that a reader
// never finds half of it.
void write_stub(const std::string& folder, std::size_t shards) {
  std::error_code error;
  fs::create_directories(folder, error);
  if (error) throw IndexError("cannot create " + folder + ": " + error.message());
  const fs::path stub = fs::path(folder) / kStubFileName;
  const fs::path fresh = stub.string() + ".new";
  {
    std::ofstream out(fresh);
    out << "# A Quarry shard set (quarry-index --shards " << shards
        << "): the lexicon, then the shards.\n"
        << "auto " << kLexiconName << '\n';
    for (std::size_t i = 0; i < shards; ++i) out << "auto " << shard_name(i) << '\n';
    out.flush();
    if (!out) throw IndexError("cannot write " + fresh.string());
  }
  fs::rename(fresh, stub, error);
  if (error) throw IndexError("cannot write " + stub.string() + ": " + error.message());
}

// How many shards the stub of `folder` names, checking that it names them
// as write_stub does: other layouts are for searching only.
std::size_t stub_shard_count(const std::string& folder) {
  const std::vector<ShardLocation> listed = resolve_shards({folder});
  const std::string stub = (fs::path(folder) / kStubFileName).string();
  for (std::size_t i = 0; i < listed.size(); ++i) {
    const std::string expected = i == 0 ? lexicon_path(folder) : shard_path(folder, i - 1);
    if (listed[i].remote() || fs::path(listed[i].path) != fs::path(expected)) {
      throw IndexError("index " + folder + ": " + stub + " names " + listed[i].name() +
                       " where quarry-index expects " + expected +
                       "; update remote or hand-made shard sets where each shard lives");
    }
  }
  if (listed.size() < 2) throw IndexError("index " + folder + ": " + stub + " names no shard");
  return listed.size() - 1;
}

// Sets a metadata key that says what part of the set a database is,
// creating the database if need be; a different value already there means
// the stub no longer matches the shards.
void mark(const std::string& path, const char* key, const std::string& value) {
  try {
    Xapian::WritableDatabase db(path, Xapian::DB_CREATE_OR_OPEN);
    const std::string stored = db.get_metadata(key);
    if (stored == value) return;
    if (!stored.empty()) {
      throw IndexError("index " + path + " is marked " + key + "=" + stored + ", not " + value +
                       "; its stub file was changed after the shards were made");
    }
    db.set_metadata(key, value);
    db.commit();
  } catch (const Xapian::DatabaseLockError&) {
    throw IndexLockedError(locked_message(path));
  } catch (const Xapian::Error& error) {
    throw index_error("index " + path, error);
  }
}

// Brings the lexicon's spelling data to the sum of the shards': each word
// counts the articles holding it, in whichever shard, as in one database.
// Only differences are written.
void sync_spelling(const std::string& folder, std::size_t shards) {
  const std::string lexicon = lexicon_path(folder);
  try {
    Xapian::Database all;
    for (std::size_t i = 0; i < shards; ++i)
      all.add_database(Xapian::Database(shard_path(folder, i)));
    // Read from the last commit while changes are written beside it.
    const Xapian::Database before(lexicon);
    Xapian::WritableDatabase after(lexicon, Xapian::DB_OPEN);
    auto want = all.spellings_begin();
    auto have = before.spellings_begin();
    while (want != all.spellings_end() || have != before.spellings_end()) {
      const int order = want == all.spellings_end()      ? 1
                        : have == before.spellings_end() ? -1
                                                         : (*want).compare(*have);
      // Over several databases, a word's frequency is the sum of theirs.
      const Xapian::doccount wanted = order <= 0 ? want.get_termfreq() : 0;
      const Xapian::doccount had = order >= 0 ? have.get_termfreq() : 0;
      const std::string word = order <= 0 ? *want : *have;
      if (wanted > had) after.add_spelling(word, wanted - had);
      if (had > wanted) after.remove_spelling(word, had - wanted);
      if (order <= 0) ++want;
      if (order >= 0) ++have;
    }
    after.commit();
  } catch (const Xapian::Error& error) {
    throw index_error("index " + lexicon, error);
  }
}

IndexConfig config_for(const IndexConfig& config, std::string path) {
  IndexConfig part = config;
  part.db_path = std::move(path);
  part.synonyms_file.clear();
  part.shards = 0;
  return part;
}

}  // namespace

std::string shard_name(std::size_t index) { return "shard-" + std::to_string(index); }

std::size_t shard_of(std::string_view id, std::size_t shards) {
  return XXH3_64bits(id.data(), id.size()) % shards;
}

bool is_shard_set(const std::string& db_path) {
  std::error_code error;
  return fs::is_regular_file(fs::path(db_path) / kStubFileName, error);
}

std::vector<std::string> shard_set_parts(const std::string& folder) {
  std::vector<std::string> parts{kLexiconName};
  const std::size_t count = stub_shard_count(folder);
  for (std::size_t i = 0; i < count; ++i) parts.push_back(shard_name(i));
  return parts;
}

ShardSetWriter::ShardSetWriter(const IndexConfig& config) : config_(config) {
  const std::string& folder = config.db_path;
  std::size_t count = config.shards;
  if (is_shard_set(folder)) {
    count = stub_shard_count(folder);
    if (config.shards != 0 && config.shards != count) {
      throw ConfigError("index " + folder + " has " + std::to_string(count) + " shards, not " +
                        std::to_string(config.shards) + "; re-sharding needs a new index folder");
    }
  } else if (!index_absent(folder)) {
    throw ConfigError("index " + folder + " is one database; --shards needs a new index folder");
  } else {
    // An unknown language must fail before anything is created.
    if (!config.language.empty()) check_index_language(config.language);
    // The stub comes first: from then on every run finds the shard set,
    // and never writes a database beside it.
    write_stub(folder, count);
  }
  mark(lexicon_path(folder), kLexiconKey, std::to_string(count));
  {
    DatabaseWriter lexicon(config_for(config, lexicon_path(folder)));
    lexicon.commit();
  }
  for (std::size_t i = 0; i < count; ++i) {
    const std::string path = shard_path(folder, i);
    mark(path, kShardKey, std::to_string(i) + "/" + std::to_string(count));
    shards_.push_back(std::make_unique<DatabaseWriter>(config_for(config, path)));
  }
}

ShardSetWriter::~ShardSetWriter() = default;

Upsert ShardSetWriter::upsert(const Article& article, const std::string& origin) {
  return shards_[shard_of(article.id, shards_.size())]->upsert(article, origin);
}

bool ShardSetWriter::remove(const std::string& id) {
  return shards_[shard_of(id, shards_.size())]->remove(id);
}

void ShardSetWriter::forget_upserted() {
  for (auto& shard : shards_) shard->forget_upserted();
}

std::size_t ShardSetWriter::delete_unseen(const std::string& origin,
                                          std::vector<std::string>* ids) {
  std::size_t deleted = 0;
  for (auto& shard : shards_) deleted += shard->delete_unseen(origin, ids);
  return deleted;
}

std::vector<std::string> ShardSetWriter::take_left_stories() {
  std::vector<std::string> taken;
  for (auto& shard : shards_) {
    for (std::string& key : shard->take_left_stories()) taken.push_back(std::move(key));
  }
  return taken;
}

std::size_t ShardSetWriter::count_unseen(const std::string& origin) {
  std::size_t unseen = 0;
  for (auto& shard : shards_) unseen += shard->count_unseen(origin);
  return unseen;
}

std::size_t ShardSetWriter::replace_synonyms(const std::vector<std::vector<std::string>>& groups) {
  DatabaseWriter lexicon(config_for(config_, lexicon_path(config_.db_path)));
  const std::size_t stored = lexicon.replace_synonyms(groups);
  lexicon.commit();
  return stored;
}

void ShardSetWriter::commit() {
  for (auto& shard : shards_) shard->commit();
}

void ShardSetWriter::reserve_room_for_close() {
  for (auto& shard : shards_) reserve_commit_room(shard->path(), commit_room_for(0));
}

void ShardSetWriter::finish() {
  commit();
  sync_spelling(config_.db_path, shards_.size());
}

std::vector<OpenDatabase> ShardSetWriter::databases() {
  std::vector<OpenDatabase> found;
  for (auto& shard : shards_) found.push_back({shard->path(), &shard->database()});
  return found;
}

}  // namespace quarry::detail
