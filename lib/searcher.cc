#include "quarry/searcher.h"

#include <xapian.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <limits>

#include "lib/article_store.h"
#include "lib/schema.h"
#include "quarry/error.h"
#include "quarry/query_parser.h"

namespace quarry {
namespace {

// Another process may commit while we read; Xapian then asks us to reopen.
// A few attempts always suffice unless the index is rewritten continuously.
constexpr int kMaxReopenAttempts = 5;

// Xapian's BM25 defaults are k1=1, b=0.5; k1=1.2, b=0.75 (Robertson's and
// Lucene's choice) ranks news text better on the collections we measure.
Xapian::BM25Weight default_weight() { return Xapian::BM25Weight(1.2, 0, 1, 0.75, 0.5); }

Xapian::Database open_database(const std::string& path) {
  if (!std::filesystem::exists(path)) {
    throw IndexNotFoundError("no index at " + path + "; build one with: quarry-index --db " +
                             path + " FOLDER");
  }
  try {
    return Xapian::Database(path);
  } catch (const Xapian::DatabaseNotFoundError&) {
    throw IndexNotFoundError("no index at " + path + "; build one with: quarry-index --db " +
                             path + " FOLDER");
  } catch (const Xapian::Error& error) {
    throw IndexError("index " + path + ": " + error.get_description());
  }
}

std::string stored_language(const Xapian::Database& db, const std::string& path) {
  std::string language = db.get_metadata(detail::kLanguageKey);
  if (language.empty()) {
    if (db.get_doccount() == 0) return "english";
    throw IndexError(path + " is a Xapian database that Quarry did not build");
  }
  return language;
}

}  // namespace

struct Searcher::Impl {
  std::string path;
  Xapian::Database db;
  Analyzer analyzer;
  QueryParser parser;

  Impl(std::string p, Xapian::Database d)
      : path(std::move(p)),
        db(std::move(d)),
        analyzer(AnalyzerConfig{stored_language(db, path)}),
        parser(analyzer) {}

  SearchResult run(const ParsedQuery& parsed, std::string_view query,
                   const SearchOptions& options);
};

SearchResult Searcher::Impl::run(const ParsedQuery& parsed, std::string_view query,
                                 const SearchOptions& options) {
  SearchResult result;
  result.query = std::string(query);
  result.notes = parsed.notes;
  result.highlight = parsed.highlight;
  if (parsed.query.empty() || options.limit == 0) return result;

  const auto max_count = static_cast<std::size_t>(std::numeric_limits<Xapian::doccount>::max());
  const Xapian::doccount offset = static_cast<Xapian::doccount>(std::min(options.offset, max_count));
  const Xapian::doccount limit =
      static_cast<Xapian::doccount>(std::min(options.limit, max_count - offset));

  Xapian::Enquire enquire(db);
  enquire.set_query(parsed.query);
  enquire.set_weighting_scheme(default_weight());
  Xapian::MSet mset = enquire.get_mset(offset, limit);
  result.total = mset.get_matches_estimated();
  for (auto it = mset.begin(); it != mset.end(); ++it) {
    Article article = detail::decode_article(it.get_document().get_data());
    Hit hit;
    hit.rank = offset + it.get_rank() - mset.get_firstitem() + 1;
    hit.id = std::move(article.id);
    hit.title = std::move(article.title);
    hit.score = it.get_weight();
    if (options.snippets) {
      hit.snippet = make_snippet(analyzer, article.body, parsed.highlight, options.snippet);
    }
    result.hits.push_back(std::move(hit));
  }
  return result;
}

Searcher::Searcher(const std::string& db_path)
    : impl_(std::make_unique<Impl>(db_path, open_database(db_path))) {}

Searcher::~Searcher() = default;
Searcher::Searcher(Searcher&&) noexcept = default;
Searcher& Searcher::operator=(Searcher&&) noexcept = default;

SearchResult Searcher::search(std::string_view query, const SearchOptions& options) {
  const ParsedQuery parsed = impl_->parser.parse(query);
  for (int attempt = 1;; ++attempt) {
    try {
      // Each search sees the index as last committed.
      impl_->db.reopen();
      return impl_->run(parsed, query, options);
    } catch (const Xapian::DatabaseModifiedError&) {
      if (attempt == kMaxReopenAttempts) {
        throw IndexError("index " + impl_->path + " changes too fast to be read; try again");
      }
    } catch (const Xapian::Error& error) {
      throw IndexError("index " + impl_->path + ": " + error.get_description());
    }
  }
}

std::optional<Article> Searcher::fetch(const std::string& id) {
  const std::string term = detail::id_term(id);
  try {
    impl_->db.reopen();
    auto it = impl_->db.postlist_begin(term);
    if (it == impl_->db.postlist_end(term)) return std::nullopt;
    return detail::decode_article(impl_->db.get_document(*it).get_data());
  } catch (const Xapian::Error& error) {
    throw IndexError("index " + impl_->path + ": " + error.get_description());
  }
}

std::vector<std::string> Searcher::complete(std::string_view prefix, std::size_t limit) {
  const std::string folded = impl_->analyzer.normalize(prefix);
  std::vector<std::pair<Xapian::doccount, std::string>> found;
  try {
    impl_->db.reopen();
    for (auto it = impl_->db.allterms_begin(folded); it != impl_->db.allterms_end(folded); ++it) {
      // Prefixed terms (stems, titles, ids) start with a capital letter;
      // only plain words are offered.
      const char first = (*it)[0];
      if (first >= 'A' && first <= 'Z') continue;
      found.emplace_back(it.get_termfreq(), *it);
    }
  } catch (const Xapian::Error& error) {
    throw IndexError("index " + impl_->path + ": " + error.get_description());
  }
  std::stable_sort(found.begin(), found.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<std::string> words;
  for (std::size_t i = 0; i < found.size() && i < limit; ++i) words.push_back(found[i].second);
  return words;
}

IndexStats Searcher::stats() {
  IndexStats stats;
  try {
    impl_->db.reopen();
    stats.articles = impl_->db.get_doccount();
    stats.total_words = impl_->db.get_total_length();
    // Prefixed terms start with a capital letter; the rest are words.
    for (auto it = impl_->db.allterms_begin(); it != impl_->db.allterms_end(); ++it) {
      const char first = (*it)[0];
      if (first < 'A' || first > 'Z') ++stats.distinct_words;
    }
  } catch (const Xapian::Error& error) {
    throw IndexError("index " + impl_->path + ": " + error.get_description());
  }
  stats.language = impl_->analyzer.config().language;
  auto newest = std::filesystem::file_time_type::min();
  std::error_code ignored;
  for (const auto& entry : std::filesystem::directory_iterator(impl_->path, ignored)) {
    if (!entry.is_regular_file(ignored)) continue;
    stats.bytes_on_disk += entry.file_size(ignored);
    newest = std::max(newest, entry.last_write_time(ignored));
  }
  if (newest != std::filesystem::file_time_type::min()) {
    const auto system = std::chrono::file_clock::to_sys(newest);
    const std::time_t time = std::chrono::system_clock::to_time_t(system);
    char buffer[32];
    std::tm local{};
    localtime_r(&time, &local);
    std::strftime(buffer, sizeof buffer, "%Y-%m-%d %H:%M", &local);
    stats.last_update = buffer;
  }
  return stats;
}

const Analyzer& Searcher::analyzer() const { return impl_->analyzer; }

std::size_t Searcher::article_count() const { return impl_->db.get_doccount(); }

}  // namespace quarry
