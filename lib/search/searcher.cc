#include "quarry/search/searcher.h"

#include <xapian.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <limits>
#include <optional>

#include "lib/index/article_store.h"
#include "lib/index/index_error.h"
#include "lib/index/schema.h"
#include "lib/search/bm25_source.h"
#include "lib/search/feedback.h"
#include "lib/search/hit_order.h"
#include "lib/search/match_count.h"
#include "lib/search/more_like_this.h"
#include "lib/search/shard_group.h"
#include "lib/search/spelling.h"
#include "lib/search/stored_positions.h"
#include "lib/search/story_reports.h"
#include "quarry/error.h"
#include "quarry/search/query_parser.h"

namespace quarry {
namespace {

// Another process may commit while we read; Xapian then asks us to reopen.
// A few attempts always suffice unless the index is rewritten continuously.
constexpr int kMaxReopenAttempts = 5;

// The ranking counted stories as it went: exactly when its bounds meet,
// else as an estimate no larger than the articles.
void count_stories(const Xapian::MSet& ranked, SearchResult* result) {
  const std::size_t lower = ranked.get_matches_lower_bound();
  if (result->total_exact && lower == ranked.get_matches_upper_bound()) {
    result->stories = lower;
    return;
  }
  result->stories = std::min<std::size_t>(
      std::max<std::size_t>(ranked.get_matches_estimated(), lower), result->total);
  result->stories_exact = false;
}

}  // namespace

struct Searcher::Impl {
  detail::ShardGroup shards;
  Analyzer analyzer;
  // Every article's length, as BM25 weighs it, for scoring free words (see
  // bm25_source.h): read when a second search shows that more will follow,
  // and dropped when the index changes.
  std::shared_ptr<const detail::LengthNorms> norms;
  std::size_t searches = 0;
  // Spelling suggestions known, dropped when the index changes.
  detail::Speller speller;
  // How many distinct words the vocabulary holds: counting them reads all
  // of it, so once per state of the index.
  std::optional<std::size_t> distinct_words;
  // Reads the stored articles, with the dictionaries of every shard; made
  // again when a shard changes, as a rebuilt index has a new one.
  std::optional<detail::ArticleStore> store;

  Impl(const std::vector<std::string>& paths, const OpenOptions& options)
      : shards(paths, options), analyzer(AnalyzerConfig{shards.language()}) {}

  detail::ArticleStore& article_store() {
    if (!store) {
      store.emplace();
      for (const std::string& dictionary : shards.article_metadata(detail::kTextDictionaryKey)) {
        if (!dictionary.empty()) store->add_dictionary(dictionary);
      }
    }
    return *store;
  }

  ParsedQuery parse(std::string_view query, const SearchOptions& options) {
    QueryParser parser(analyzer, options.parser, &shards.spelling());
    ParsedQuery parsed = options.plain    ? parser.parse_plain(query)
                         : options.strict ? parser.parse(query)
                                          : parser.parse_or_plain(query);
    if (!options.like.empty()) narrow_to_like(options, &parsed);
    return parsed;
  }

  // Articles like options.like instead of the query's matches: the query,
  // when there is one, filters them, and its words are highlighted.
  void narrow_to_like(const SearchOptions& options, ParsedQuery* parsed) {
    detail::LikeQuery like =
        detail::like_query(shards.articles(), options.like, options.like_terms, options.collapse);
    if (parsed->query.empty()) {
      parsed->highlight = std::move(like.highlight);
      parsed->query = std::move(like.query);
    } else {
      parsed->query = Xapian::Query(Xapian::Query::OP_FILTER, like.query, parsed->query);
    }
    parsed->scoring_parts = {{"like:" + options.like, parsed->query}};
  }

  // Sets the query hits are ranked by, with feedback where options.feedback
  // says, after a first pass of `enquire`, whose query ranks as `parsed`'s.
  // Sets the enquire's query to the query with feedback, when options want
  // it, and returns the first pass when the second orders only its best
  // matches (see detail::feedback_query): its bounds count them.
  std::optional<Xapian::MSet> rank_with_feedback(Xapian::Enquire& enquire,
                                                 const ParsedQuery& parsed,
                                                 const SearchOptions& options,
                                                 Xapian::doccount check_at_least,
                                                 Xapian::doccount window);

  // Runs `read` on the shards as last committed. Retries when a commit
  // overtakes it, and, with partial results allowed, without the shards
  // that stopped answering.
  template <typename Read>
  auto with_shards(Read read) -> decltype(read());
  // Drops what was read of the index as it was.
  void forget_index() {
    norms.reset();
    store.reset();
    speller.forget();
    distinct_words.reset();
  }

  std::string suggest(std::string_view query, const ParsedQuery& parsed);
  Xapian::Query scored_query(const ParsedQuery& parsed, const SearchOptions& options);
  SearchResult run(const ParsedQuery& parsed, std::string_view query, const SearchOptions& options);
  // The results of `suggestion` instead of the query's, as options.correct
  // says (kAuto or kAlways).
  SearchResult run_or_correct(const ParsedQuery& parsed, std::string_view query,
                              std::string suggestion, const SearchOptions& options);
  std::vector<Contribution> explain(const ParsedQuery& parsed, const std::string& id,
                                    const Xapian::Weight& weight);
  // Fills the hit's snippet and title highlights.
  void highlight(Xapian::docid did, const Article& article, const HighlightTerms& terms,
                 const SnippetConfig& config, Hit* hit);
};

template <typename Read>
auto Searcher::Impl::with_shards(Read read) -> decltype(read()) {
  for (int attempt = 1;; ++attempt) {
    try {
      if (shards.reopen()) forget_index();
      return read();
    } catch (const Xapian::DatabaseModifiedError&) {
      if (attempt == kMaxReopenAttempts) {
        throw IndexError("index " + shards.label() + " changes too fast to be read; try again");
      }
    } catch (const Xapian::Error& error) {
      forget_index();
      if (!shards.drop_failed_shards()) {
        throw detail::index_error("index " + shards.label(), error);
      }
    }
  }
}

// Replaces each rare free word with a much more frequent word of the
// index close to it (see better_spelling).
std::string Searcher::Impl::suggest(std::string_view query, const ParsedQuery& parsed) {
  const Xapian::doccount articles = shards.articles().get_doccount();
  std::string suggestion;
  std::size_t copied = 0;
  bool changed = false;
  for (const QueryWord& word : parsed.free_words) {
    const bool finds_articles =
        shards.articles().get_termfreq(detail::kStemPrefix + analyzer.stem(word.term)) > 0;
    const std::string better =
        speller.better_spelling(shards.spelling(), articles, analyzer, word.term, finds_articles);
    if (better.empty() || word.begin < copied) continue;
    suggestion.append(query.substr(copied, word.begin - copied));
    suggestion += better;
    copied = word.end;
    changed = true;
  }
  if (!changed) return "";
  suggestion.append(query.substr(copied));
  return suggestion;
}

// As search engines do: rather than nothing, what was probably meant.
SearchResult Searcher::Impl::run_or_correct(const ParsedQuery& parsed, std::string_view query,
                                            std::string suggestion, const SearchOptions& options) {
  SearchResult found;
  if (options.correct == Correction::kAuto) {
    found = run(parsed, query, options);
    if (found.total > 0) {
      found.suggestion = std::move(suggestion);
      return found;
    }
  }
  SearchResult corrected = run(parse(suggestion, options), query, options);
  if (options.correct == Correction::kAuto && corrected.total == 0) {
    found.suggestion = std::move(suggestion);
    return found;
  }
  corrected.suggestion = std::move(suggestion);
  corrected.corrected = true;
  return corrected;
}

std::vector<Contribution> Searcher::Impl::explain(const ParsedQuery& parsed, const std::string& id,
                                                  const Xapian::Weight& weight) {
  // Each part's share of the score is its weight alone on this article,
  // with the statistics of the whole index: the shares add up to the score.
  std::vector<Contribution> parts;
  const Xapian::Query article(detail::id_term(id));
  for (const ScoringPart& part : parsed.scoring_parts) {
    Xapian::Enquire enquire(shards.articles());
    enquire.set_weighting_scheme(weight);
    enquire.set_query(Xapian::Query(Xapian::Query::OP_FILTER, part.query, article));
    Xapian::MSet mset = enquire.get_mset(0, 1);
    if (!mset.empty()) parts.push_back({part.label, mset.begin().get_weight()});
  }
  std::sort(parts.begin(), parts.end(),
            [](const Contribution& a, const Contribution& b) { return a.weight > b.weight; });
  return parts;
}

// On one local database, bags of free words are scored by posting sources
// that read lengths from memory; elsewhere, and for other schemes, by
// Xapian's matcher alone.
Xapian::Query Searcher::Impl::scored_query(const ParsedQuery& parsed,
                                           const SearchOptions& options) {
  const std::optional<detail::Bm25Parameters> bm25 = detail::bm25_parameters(options.ranking);
  const bool one_local_database = shards.articles().size() == 1 && !shards.any_remote();
  if (!bm25 || !one_local_database) return parsed.query;
  if (norms && norms->parameters() != *bm25) norms.reset();
  if (!norms && searches++ > 0) {
    norms = std::make_shared<const detail::LengthNorms>(shards.articles(), *bm25);
  }
  return detail::with_bm25_sources(parsed.query, *bm25, norms);
}

std::optional<Xapian::MSet> Searcher::Impl::rank_with_feedback(Xapian::Enquire& enquire,
                                                               const ParsedQuery& parsed,
                                                               const SearchOptions& options,
                                                               Xapian::doccount check_at_least,
                                                               Xapian::doccount window) {
  const FeedbackMode mode = options.feedback.mode;
  const bool wanted =
      mode == FeedbackMode::kOn ||
      (mode == FeedbackMode::kAuto && detail::feedback_helps(parsed.query, options.feedback));
  if (!wanted || options.sort != SortOrder::kRelevance || !options.like.empty()) {
    return std::nullopt;
  }
  const bool rescore = shards.articles().size() == 1 && !shards.any_remote();
  std::optional<detail::Feedback> feedback =
      detail::feedback_query(shards.articles(), enquire, parsed.query, enquire.get_query(),
                             options.feedback, check_at_least, rescore, window);
  if (!feedback) return std::nullopt;
  enquire.set_query(feedback->query);
  if (!rescore) return std::nullopt;
  return std::move(feedback->first);
}

// A local index tells where the query's stems are in a hit faster than
// stemming the hit's words; over the network each stem would cost a round
// trip, so remote hits are stemmed.
void Searcher::Impl::highlight(Xapian::docid did, const Article& article,
                               const HighlightTerms& terms, const SnippetConfig& config, Hit* hit) {
  if (terms.stems.empty() || shards.any_remote()) {
    hit->snippet = make_snippet(analyzer, article.body, terms, config);
    hit->title_highlights = highlight_all(analyzer, article.title, terms).highlights;
    return;
  }
  const std::vector<Token> title = analyzer.tokenize(article.title);
  const detail::ArticleStemWords places =
      detail::article_stem_words(shards.articles(), did, title.size(), terms.stems);
  hit->snippet = make_snippet(analyzer, article.body, terms, places.body, config);
  hit->title_highlights = highlight_all(article.title, title, terms, places.title).highlights;
}

SearchResult Searcher::Impl::run(const ParsedQuery& parsed, std::string_view query,
                                 const SearchOptions& options) {
  SearchResult result;
  result.query = std::string(query);
  result.notes = parsed.notes;
  result.warnings = parsed.warnings;
  result.highlight = parsed.highlight;
  if (parsed.query.empty()) return result;

  const auto max_count = static_cast<std::size_t>(std::numeric_limits<Xapian::doccount>::max());
  const auto offset = static_cast<Xapian::doccount>(std::min(options.offset, max_count));
  const auto limit = static_cast<Xapian::doccount>(std::min(options.limit, max_count - offset));

  Xapian::Database& db = shards.articles();
  const std::unique_ptr<Xapian::Weight> weight = make_weight(options.ranking);
  Xapian::Enquire enquire(db);
  enquire.set_query(scored_query(parsed, options));
  enquire.set_weighting_scheme(*weight);
  const bool local = !shards.any_remote();
  const Xapian::doccount check_at_least =
      options.facets.empty()
          ? detail::ranking_check_at_least(parsed.query, options.count_limit, local)
          : 0;
  const std::optional<Xapian::valueno> collapse = detail::collapse_slot(options.collapse);
  if (collapse) enquire.set_collapse_key(*collapse);
  // Feedback reorders the query's matches and matches no others: they are
  // counted as the query's, with its cheaper counting, from the first pass
  // when the second ordered only its best.
  const std::optional<Xapian::MSet> first_pass =
      rank_with_feedback(enquire, parsed, options, check_at_least, offset + limit);
  detail::RankedPage page;
  if (options.sort == SortOrder::kRelevance) {
    // The two-pass ranking of one database reorders ties among all the
    // articles it saw, collapsed or not: collapsing takes Xapian's order.
    page = detail::rank_page(enquire, db, offset, limit, check_at_least,
                             db.size() == 1 && local && !collapse);
  } else {
    enquire.set_sort_by_value_then_relevance(detail::kDateSlot,
                                             options.sort == SortOrder::kNewestFirst);
    page.ranked = enquire.get_mset(offset, limit, check_at_least);
    for (auto it = page.ranked.begin(); it != page.ranked.end(); ++it) {
      page.hits.push_back({*it, it.get_weight(), it.get_rank()});
    }
    // Sorting by a value no article has leaves the order to relevance.
    if (db.get_value_freq(detail::kDateSlot) == 0) {
      result.notes.push_back("no article in the index has a date: sorted by relevance");
    }
  }
  if (options.facets.empty()) {
    const detail::MatchCount count = detail::count_matches(
        db, parsed.query, first_pass ? *first_pass : page.ranked, options.count_limit, local);
    result.total = count.total;
    result.total_exact = count.exact;
  } else {
    detail::FacetCounter counter(options.facets);
    result.total = counter.count(db, parsed.query);
    result.facets = counter.facets(analyzer);
  }
  result.stories = result.total;
  result.stories_exact = result.total_exact;
  if (collapse) count_stories(first_pass ? *first_pass : page.ranked, &result);
  for (const detail::RankedHit& ranked : page.hits) {
    // The document was just matched: no need to check that it exists.
    Article article = article_store().decode(
        db.get_document(ranked.did, Xapian::DOC_ASSUME_VALID).get_value(detail::kArticleSlot));
    Hit hit;
    if (options.snippets) highlight(ranked.did, article, parsed.highlight, options.snippet, &hit);
    hit.rank = ranked.rank + 1;
    hit.id = std::move(article.id);
    hit.title = std::move(article.title);
    hit.date = std::move(article.date);
    hit.source = std::move(article.source);
    hit.category = std::move(article.category);
    hit.score = ranked.weight;
    if (options.explain) hit.explanation = explain(parsed, hit.id, *weight);
    detail::add_story_reports(db, ranked.did, options.collapse, &hit);
    result.hits.push_back(std::move(hit));
  }
  if (options.sort == SortOrder::kRelevance) detail::order_near_ties(&result.hits);
  return result;
}

Searcher::Searcher(const std::string& db_path) : Searcher(std::vector<std::string>{db_path}) {}

Searcher::Searcher(const std::vector<std::string>& db_paths, const OpenOptions& options)
    : impl_(std::make_unique<Impl>(db_paths, options)) {}

Searcher::~Searcher() = default;
Searcher::Searcher(Searcher&&) noexcept = default;
Searcher& Searcher::operator=(Searcher&&) noexcept = default;

SearchResult Searcher::search(std::string_view query, const SearchOptions& options) {
  SearchResult result = impl_->with_shards([&] {
    // Each search sees the index as last committed.
    ParsedQuery parsed = impl_->parse(query, options);
    std::string suggestion = impl_->suggest(query, parsed);
    if (suggestion.empty() || options.correct == Correction::kNever) {
      SearchResult found = impl_->run(parsed, query, options);
      found.suggestion = std::move(suggestion);
      return found;
    }
    return impl_->run_or_correct(parsed, query, std::move(suggestion), options);
  });
  const std::vector<std::string>& left_out = impl_->shards.warnings();
  result.warnings.insert(result.warnings.end(), left_out.begin(), left_out.end());
  return result;
}

std::size_t Searcher::count(std::string_view query, const SearchOptions& options) {
  return impl_->with_shards([&] {
    const ParsedQuery parsed = impl_->parse(query, options);
    if (parsed.query.empty()) return std::size_t{0};
    return detail::count_all_matches(impl_->shards.articles(), parsed.query);
  });
}

std::optional<Article> Searcher::fetch(const std::string& id) {
  const std::string term = detail::id_term(id);
  return impl_->with_shards([&]() -> std::optional<Article> {
    Xapian::Database& db = impl_->shards.articles();
    auto it = db.postlist_begin(term);
    if (it == db.postlist_end(term)) return std::nullopt;
    return impl_->article_store().decode(db.get_document(*it).get_value(detail::kArticleSlot));
  });
}

std::vector<std::string> Searcher::complete(std::string_view prefix, std::size_t limit) {
  const std::string folded = impl_->analyzer.normalize(prefix);
  std::vector<std::pair<Xapian::doccount, std::string>> found = impl_->with_shards([&] {
    std::vector<std::pair<Xapian::doccount, std::string>> terms;
    // The vocabulary holds the words as they were written (folded); the
    // postings hold only their stems.
    Xapian::Database& db = impl_->shards.spelling();
    auto it = db.spellings_begin();
    for (it.skip_to(folded); it != db.spellings_end() && (*it).starts_with(folded); ++it) {
      terms.emplace_back(it.get_termfreq(), *it);
    }
    return terms;
  });
  std::stable_sort(found.begin(), found.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<std::string> words;
  for (std::size_t i = 0; i < found.size() && i < limit; ++i) words.push_back(found[i].second);
  return words;
}

IndexStats Searcher::stats() {
  IndexStats stats = impl_->with_shards([&] {
    IndexStats counted;
    Xapian::Database& db = impl_->shards.articles();
    counted.articles = db.get_doccount();
    counted.total_words = db.get_total_length();
    if (!impl_->distinct_words) {
      std::size_t words = 0;
      Xapian::Database& vocabulary = impl_->shards.spelling();
      for (auto it = vocabulary.spellings_begin(); it != vocabulary.spellings_end(); ++it) ++words;
      impl_->distinct_words = words;
    }
    counted.distinct_words = *impl_->distinct_words;
    return counted;
  });
  stats.language = impl_->analyzer.config().language;
  stats.shards = impl_->shards.shard_count();
  auto newest = std::filesystem::file_time_type::min();
  std::error_code ignored;
  for (const detail::ShardGroup::Folder& folder : impl_->shards.folders()) {
    if (folder.remote) {
      ++stats.remote_shards;
      continue;
    }
    for (const auto& entry : std::filesystem::directory_iterator(folder.path, ignored)) {
      if (!entry.is_regular_file(ignored)) continue;
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

const Analyzer& Searcher::analyzer() const { return impl_->analyzer; }

std::string Searcher::revision() {
  return impl_->with_shards([&] { return impl_->shards.revision(); });
}

std::size_t Searcher::article_count() {
  return impl_->with_shards(
      [&]() -> std::size_t { return impl_->shards.articles().get_doccount(); });
}

}  // namespace quarry
