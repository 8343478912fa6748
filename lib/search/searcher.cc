#include "quarry/search/searcher.h"

#include <xapian.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <optional>

#include "lib/index/index_lock.h"
#include "lib/index/schema.h"
#include "lib/search/search_core.h"
#include "quarry/text/language_identifier.h"

namespace quarry {

// The searcher is the core; what else a search does is the modules'
// (lib/search/search_module.h).
struct Searcher::Impl : detail::SearchCore {
  using SearchCore::SearchCore;
};

detail::SearchCore& detail::core_of(Searcher& searcher) { return *searcher.impl_; }

Searcher::Searcher(const std::string& db_path) : Searcher(std::vector<std::string>{db_path}) {}

Searcher::Searcher(const std::vector<std::string>& db_paths, const OpenOptions& options)
    : impl_(std::make_unique<Impl>(db_paths, options)) {}

Searcher::~Searcher() = default;
Searcher::Searcher(Searcher&&) noexcept = default;
Searcher& Searcher::operator=(Searcher&&) noexcept = default;

SearchResult Searcher::search(std::string_view query, const SearchOptions& options) {
  return impl_->search(query, options);
}

CountResult Searcher::count(std::string_view query, const SearchOptions& options) {
  return impl_->count(query, options);
}

std::optional<Article> Searcher::fetch(const std::string& id) {
  const std::string term = detail::id_term(id);
  return impl_->with_shards([&]() -> std::optional<Article> {
    Xapian::Database& db = impl_->shards().articles();
    const std::optional<Xapian::docid> did = detail::document_of(db, term);
    if (!did) return std::nullopt;
    return impl_->article_store().decode(db.get_document(*did).get_value(detail::kArticleSlot));
  });
}

std::vector<std::string> Searcher::complete(std::string_view prefix, std::size_t limit) {
  const std::string folded = impl_->analyzer().normalize(prefix);
  std::vector<std::pair<Xapian::doccount, std::string>> found = impl_->with_shards([&] {
    std::vector<std::pair<Xapian::doccount, std::string>> terms;
    // The vocabulary holds the words as they were written (folded); the
    // postings hold only their stems.
    Xapian::Database& db = impl_->shards().spelling();
    auto it = db.spellings_begin();
    for (it.skip_to(folded); it != db.spellings_end() && (*it).starts_with(folded); ++it) {
      terms.emplace_back(it.get_termfreq(), *it);
    }
    return terms;
  });
  std::stable_sort(found.begin(), found.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<std::string> words;
  for (std::size_t i = 0; i < found.size() && i < limit; ++i) {
    words.push_back(impl_->analyzer().in_typed_case(prefix, found[i].second));
  }
  return words;
}

IndexStats Searcher::stats() {
  IndexStats stats = impl_->with_shards([&] {
    IndexStats counted;
    Xapian::Database& db = impl_->shards().articles();
    counted.articles = db.get_doccount();
    counted.total_words = db.get_total_length();
    counted.distinct_words = impl_->distinct_words();
    for (const Analyzer* language : impl_->languages()) {
      if (db.get_termfreq(detail::kLanguagePrefix + language->config().language) > 0) {
        counted.languages.push_back(language_label(language->config().language));
      }
    }
    return counted;
  });
  stats.language = impl_->shards().language();
  stats.shards = impl_->shards().shard_count();
  stats.shard_replicas = impl_->shards().replica_stats();
  auto newest = std::filesystem::file_time_type::min();
  std::error_code ignored;
  for (const detail::ShardGroup::Folder& folder : impl_->shards().folders()) {
    if (folder.remote) {
      ++stats.remote_shards;
      continue;
    }
    for (const auto& entry : std::filesystem::directory_iterator(folder.path, ignored)) {
      // The lock files are made, not written, by a run that may change nothing.
      if (!entry.is_regular_file(ignored) ||
          detail::is_lock_file(entry.path().filename().string())) {
        continue;
      }
      stats.bytes_on_disk += entry.file_size(ignored);
      newest = std::max(newest, entry.last_write_time(ignored));
    }
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

const Analyzer& Searcher::analyzer() const { return impl_->analyzer(); }

const Analyzer& Searcher::analyzer(const Article& article) {
  return impl_->analyzer_of(article.language);
}

std::string Searcher::revision() {
  return impl_->with_shards([&] { return impl_->shards().revision(); });
}

std::size_t Searcher::article_count() {
  return impl_->with_shards(
      [&]() -> std::size_t { return impl_->shards().articles().get_doccount(); });
}

}  // namespace quarry
