#include "quarry/index_writer.h"

#include <xapian.h>
#include <xxhash.h>

#include <chrono>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <unordered_map>
#include <unordered_set>

#include "lib/article_store.h"
#include "lib/date_range.h"
#include "lib/schema.h"
#include "lib/utf8_columns.h"
#include "quarry/error.h"

namespace quarry {
namespace {

using detail::kBodyPositionGap;

std::string fingerprint(const Article& article, const std::string& language) {
  XXH3_state_t* state = XXH3_createState();
  XXH3_128bits_reset(state);
  // Lengths first, so that moving text from one field to the next changes
  // the hash.
  for (const std::string* field : {&language, &article.id, &article.title, &article.body,
                                   &article.date, &article.category, &article.source}) {
    std::uint64_t size = field->size();
    XXH3_128bits_update(state, &size, sizeof size);
    XXH3_128bits_update(state, field->data(), field->size());
  }
  XXH128_hash_t hash = XXH3_128bits_digest(state);
  XXH3_freeState(state);
  return std::string(reinterpret_cast<const char*>(&hash), sizeof hash);
}

IndexError wrap(const std::string& path, const Xapian::Error& error) {
  return IndexError("index " + path + ": " + error.get_description());
}

}  // namespace

struct IndexWriter::Impl {
  std::string path;
  Xapian::WritableDatabase db;
  Analyzer analyzer;
  std::unordered_set<Xapian::docid> upserted;

  Impl(std::string db_path, Xapian::WritableDatabase database, Analyzer a)
      : path(std::move(db_path)), db(std::move(database)), analyzer(std::move(a)) {}

  Xapian::Document make_document(const Article& article, const std::string& origin,
                                 const std::string& print) const;
  Xapian::termpos index_text(Xapian::Document& doc, const std::string& text,
                             Xapian::termpos first, bool title) const;

  // The spelling data counts, for each word, the articles that hold it.
  void add_spelling(const Xapian::Document& doc);
  void remove_spelling(const Xapian::Document& doc);
};

namespace {

// Words worth suggesting: not numbers, not single CJK characters.
bool is_spelling_word(const std::string& term) {
  const unsigned char first = static_cast<unsigned char>(term[0]);
  if (first >= 'a' && first <= 'z') return term.size() > 1;
  return first >= 0x80 && detail::code_points_before(term, term.size()) > 1;
}

}  // namespace

template <typename Visit>
void for_each_spelling_word(const Xapian::Document& doc, Visit visit) {
  for (auto it = doc.termlist_begin(); it != doc.termlist_end();) {
    const std::string term = *it;
    // Prefixed terms start with a capital, sorting between digits and words.
    if (term[0] >= 'A' && term[0] <= 'Z') {
      it.skip_to("a");
      continue;
    }
    if (is_spelling_word(term)) visit(term);
    ++it;
  }
}

void IndexWriter::Impl::add_spelling(const Xapian::Document& doc) {
  for_each_spelling_word(doc, [&](const std::string& word) { db.add_spelling(word); });
}

void IndexWriter::Impl::remove_spelling(const Xapian::Document& doc) {
  for_each_spelling_word(doc, [&](const std::string& word) { db.remove_spelling(word); });
}

Xapian::termpos IndexWriter::Impl::index_text(Xapian::Document& doc, const std::string& text,
                                              Xapian::termpos first, bool title) const {
  Xapian::termpos pos = first;
  for (const Token& token : analyzer.tokenize(text)) {
    const std::string stem = analyzer.stem(token.term);
    doc.add_posting(token.term, pos);
    doc.add_term(detail::kStemPrefix + stem);
    if (title) {
      doc.add_posting(detail::kTitlePrefix + token.term, pos);
      doc.add_term(std::string(detail::kStemPrefix) + detail::kTitlePrefix + stem);
    }
    ++pos;
  }
  return pos;
}

Xapian::Document IndexWriter::Impl::make_document(const Article& article,
                                                  const std::string& origin,
                                                  const std::string& print) const {
  Xapian::Document doc;
  Xapian::termpos next = index_text(doc, article.title, 1, true);
  index_text(doc, article.body, next + kBodyPositionGap, false);

  doc.add_boolean_term(detail::id_term(article.id));
  doc.add_boolean_term(detail::boolean_term(detail::kOriginPrefix, origin));
  if (!article.source.empty()) {
    doc.add_boolean_term(
        detail::boolean_term(detail::kSourcePrefix, analyzer.normalize(article.source)));
  }
  if (!article.category.empty()) {
    doc.add_boolean_term(
        detail::boolean_term(detail::kCategoryPrefix, analyzer.normalize(article.category)));
  }
  if (std::string date = detail::sortable_date(article.date); !date.empty()) {
    doc.add_value(detail::kDateSlot, date);
  }
  doc.add_value(detail::kFingerprintSlot, print);
  doc.set_data(detail::encode_article(article));
  return doc;
}

namespace {

// Opens (creating if need be) the database and settles which language it is
// analyzed in.
Xapian::WritableDatabase open_writable(const IndexConfig& config, std::string* language) {
  std::error_code ignored;
  std::filesystem::create_directories(std::filesystem::path(config.db_path).parent_path(),
                                      ignored);
  Xapian::WritableDatabase db;
  try {
    db = Xapian::WritableDatabase(config.db_path, Xapian::DB_CREATE_OR_OPEN);
  } catch (const Xapian::DatabaseLockError&) {
    throw IndexLockedError("index " + config.db_path + " is locked by another quarry-index");
  } catch (const Xapian::Error& error) {
    throw wrap(config.db_path, error);
  }
  const std::string stored = db.get_metadata(detail::kLanguageKey);
  if (stored.empty()) {
    if (db.get_doccount() != 0) {
      throw IndexError(config.db_path + " is a Xapian database that Quarry did not build");
    }
    *language = config.language.empty() ? "english" : config.language;
  } else if (!config.language.empty() && config.language != stored) {
    throw ConfigError("index " + config.db_path + " is analyzed in " + stored +
                      ", not " + config.language +
                      "; build a new index to change the language");
  } else {
    *language = stored;
  }
  return db;
}

}  // namespace

IndexWriter::IndexWriter(const IndexConfig& config) {
  // An unknown language must fail before the index folder is created.
  if (!config.language.empty()) Analyzer check(AnalyzerConfig{config.language});
  std::string language;
  Xapian::WritableDatabase db = open_writable(config, &language);
  Analyzer analyzer(AnalyzerConfig{language});
  try {
    if (db.get_metadata(detail::kLanguageKey).empty()) {
      db.set_metadata(detail::kLanguageKey, language);
      db.set_metadata(detail::kSchemaKey, std::to_string(detail::kSchemaVersion));
    }
  } catch (const Xapian::Error& error) {
    throw wrap(config.db_path, error);
  }
  impl_ = std::make_unique<Impl>(config.db_path, std::move(db), std::move(analyzer));
}

IndexWriter::~IndexWriter() = default;

Upsert IndexWriter::upsert(const Article& article, const std::string& origin) {
  const std::string id_term = detail::id_term(article.id);
  const std::string print = fingerprint(article, impl_->analyzer.config().language);
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
    if (exists) impl_->remove_spelling(impl_->db.get_document(*existing));
    const Xapian::Document doc = impl_->make_document(article, origin, print);
    impl_->add_spelling(doc);
    Xapian::docid docid = impl_->db.replace_document(id_term, doc);
    impl_->upserted.insert(docid);
    return exists ? Upsert::kUpdated : Upsert::kAdded;
  } catch (const Xapian::Error& error) {
    throw wrap(impl_->path, error);
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
      impl_->remove_spelling(impl_->db.get_document(docid));
      impl_->db.delete_document(docid);
    }
  } catch (const Xapian::Error& error) {
    throw wrap(impl_->path, error);
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
    throw wrap(impl_->path, error);
  }
  return stored;
}

void IndexWriter::commit() {
  try {
    impl_->db.commit();
  } catch (const Xapian::Error& error) {
    throw wrap(impl_->path, error);
  }
}

const Analyzer& IndexWriter::analyzer() const { return impl_->analyzer; }

namespace {

// Feeds what one path's reader finds into the writer, keeping the tallies.
class IndexingSink : public ArticleSink {
 public:
  IndexingSink(IndexWriter& writer, const IndexConfig& config, IndexReport& report,
               IndexObserver* observer)
      : writer_(writer), config_(config), report_(report), observer_(observer) {}

  void set_origin(std::string origin) { origin_ = std::move(origin); }

  void on_article(Article&& article, const SourceLocation& where) override {
    auto [seen, inserted] = first_seen_.try_emplace(article.id, where);
    if (!inserted) {
      on_problem({where, "duplicate id '" + article.id + "' (also at " +
                             seen->second.to_string() + "): this one is kept",
                  false});
      seen->second = where;
    }
    switch (writer_.upsert(article, origin_)) {
      case Upsert::kAdded: ++report_.added; ++pending_; break;
      case Upsert::kUpdated: ++report_.updated; ++pending_; break;
      case Upsert::kUnchanged: ++report_.unchanged; break;
    }
    if (pending_ >= config_.commit_every) {
      writer_.commit();
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

  IndexWriter& writer_;
  const IndexConfig& config_;
  IndexReport& report_;
  IndexObserver* observer_;
  std::string origin_;
  std::size_t pending_ = 0;
  std::unordered_map<std::string, SourceLocation> first_seen_;
};

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

IndexReport index_paths(const IndexConfig& config, const std::vector<std::string>& paths,
                        IndexObserver* observer) {
  const auto start = std::chrono::steady_clock::now();
  // Read before the index is touched, so that a bad file changes nothing.
  std::vector<std::vector<std::string>> synonyms;
  if (!config.synonyms_file.empty()) synonyms = read_synonyms(config.synonyms_file);
  IndexWriter writer(config);
  IndexReport report;
  if (!config.synonyms_file.empty()) report.synonym_groups = writer.replace_synonyms(synonyms);
  IndexingSink sink(writer, config, report, observer);
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
    if (sink.should_stop()) {
      report.cancelled = true;
      break;
    }
    // Only a complete pass over an origin knows which of its articles are
    // gone; an interrupted one deletes nothing.
    report.deleted += writer.delete_unseen(origin.string());
  }
  writer.commit();
  report.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (observer) observer->on_progress(report);
  return report;
}

}  // namespace quarry
