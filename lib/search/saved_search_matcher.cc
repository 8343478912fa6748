#include <xapian.h>

#include <algorithm>
#include <string_view>
#include <unordered_map>

#include "lib/index/schema.h"
#include "lib/search/query_anchors.h"
#include "lib/search/search_core.h"
#include "quarry/search/saved_search.h"
#include "quarry/search/snippet.h"
#include "quarry/text/language_identifier.h"

namespace quarry {
namespace {

// What of a saved search's options applies to an alert: which articles
// match. Free words are all required unless the search says otherwise,
// as an alert that fired on any one word of "OPEC quota" would wake for
// every article on quotas.
SearchOptions filter_options(SearchOptions options) {
  if (options.parser.match == MatchMode::kAuto) options.parser.match = MatchMode::kAll;
  options.sort = SortOrder::kRelevance;
  options.like = {};
  options.feedback.mode = FeedbackMode::kOff;
  options.spelling.correct = Correction::kNever;
  options.time_limit = 0;
  return options;
}

// A wildcard's words are those the index holds when it is read: read
// again, it finds the words new articles brought.
bool has_wildcard(std::string_view query) { return query.find('*') != std::string_view::npos; }

}  // namespace

struct SavedSearchMatcher::Impl {
  explicit Impl(Searcher& searcher) : core(detail::core_of(searcher)) {}

  // A search as read, and where it is filed.
  struct Read {
    detail::ParsedQuery parsed;
    bool wildcard = false;
  };

  void read(std::size_t index) {
    const SavedSearch& search = searches[index];
    try {
      reads[index].parsed = core.parse(search.query, search.options);
    } catch (const QueryError& error) {
      throw QueryError(error.query(), error.column(),
                       "saved search '" + search.name + "': " + error.reason());
    }
    if (reads[index].parsed.query.empty()) {
      throw QueryError(search.query, 1,
                       "saved search '" + search.name + "' holds no word to search for");
    }
  }

  // Every search read again, and filed under its anchors in the index as
  // it is now.
  void read_all() {
    reads.assign(searches.size(), {});
    by_anchor.clear();
    anywhere.clear();
    for (std::size_t i = 0; i < searches.size(); ++i) {
      read(i);
      reads[i].wildcard = has_wildcard(searches[i].query);
      if (reads[i].wildcard) {
        anywhere.push_back(i);
        continue;
      }
      const auto anchors = detail::query_anchors(reads[i].parsed.query, core.shards().articles());
      if (!anchors) {
        anywhere.push_back(i);
        continue;
      }
      for (const std::string& term : *anchors) by_anchor[term].push_back(i);
    }
    read_with = core.languages();
  }

  std::vector<SavedSearchMatch> match(const std::vector<std::string>& ids);

  detail::SearchCore& core;
  std::vector<SavedSearch> searches;
  std::vector<Read> reads;
  std::unordered_map<std::string, std::vector<std::size_t>> by_anchor;
  // Searches with no anchor, tested against every article.
  std::vector<std::size_t> anywhere;
  // The languages the searches were read in: a word stands for its stems
  // in each, so another language means reading them again.
  std::vector<const Analyzer*> read_with;
  MatchWork work;
};

std::vector<SavedSearchMatch> SavedSearchMatcher::Impl::match(const std::vector<std::string>& ids) {
  Xapian::Database& db = core.shards().articles();
  if (core.languages() != read_with) read_all();
  work = {};
  work.searches = searches.size();

  std::vector<Xapian::docid> articles;
  std::vector<std::string> id_terms;
  for (const std::string& id : ids) {
    std::string term = detail::id_term(id);
    auto posting = db.postlist_begin(term);
    if (posting == db.postlist_end(term)) continue;
    articles.push_back(*posting);
    id_terms.push_back(std::move(term));
  }
  work.articles = articles.size();
  if (articles.empty() || searches.empty()) return {};

  // The searches an article can match: those filed under one of its terms.
  std::vector<char> woken(searches.size(), 0);
  for (std::size_t i : anywhere) woken[i] = 1;
  for (Xapian::docid article : articles) {
    for (auto term = db.termlist_begin(article); term != db.termlist_end(article); ++term) {
      const auto filed = by_anchor.find(*term);
      if (filed == by_anchor.end()) continue;
      for (std::size_t i : filed->second) woken[i] = 1;
    }
  }

  // Each woken search run on the new articles alone: matching, not ranking.
  const Xapian::Query within(Xapian::Query::OP_OR, id_terms.begin(), id_terms.end());
  Xapian::Enquire enquire(db);
  enquire.set_weighting_scheme(Xapian::BoolWeight());
  std::unordered_map<Xapian::docid, Article> read_articles;
  std::vector<SavedSearchMatch> matches;
  for (std::size_t i = 0; i < searches.size(); ++i) {
    if (!woken[i]) continue;
    ++work.candidates;
    if (reads[i].wildcard) read(i);
    const detail::ParsedQuery& parsed = reads[i].parsed;
    if (parsed.query.empty()) continue;
    enquire.set_query(Xapian::Query(Xapian::Query::OP_FILTER, parsed.query, within));
    const Xapian::MSet found = enquire.get_mset(0, static_cast<Xapian::doccount>(articles.size()));
    if (found.empty()) continue;
    std::vector<Xapian::docid> matched(found.begin(), found.end());
    for (Xapian::docid article : articles) {
      if (std::find(matched.begin(), matched.end(), article) == matched.end()) continue;
      auto [at, fresh] = read_articles.try_emplace(article);
      if (fresh) {
        at->second = core.article_store().decode(
            db.get_document(article, Xapian::DOC_ASSUME_VALID).get_value(detail::kArticleSlot));
      }
      const Article& text = at->second;
      const Snippet snippet =
          make_snippet(core.analyzer_of(text.language), text.body, parsed.highlight);
      matches.push_back({searches[i].name, text.id, text.title, text.date, snippet.text,
                         language_label(text.language)});
    }
  }
  work.matches = matches.size();
  return matches;
}

SavedSearchMatcher::SavedSearchMatcher(Searcher& searcher)
    : impl_(std::make_unique<Impl>(searcher)) {}
SavedSearchMatcher::~SavedSearchMatcher() = default;
SavedSearchMatcher::SavedSearchMatcher(SavedSearchMatcher&&) noexcept = default;
SavedSearchMatcher& SavedSearchMatcher::operator=(SavedSearchMatcher&&) noexcept = default;

void SavedSearchMatcher::set_searches(std::vector<SavedSearch> searches) {
  for (SavedSearch& search : searches) search.options = filter_options(std::move(search.options));
  impl_->searches = std::move(searches);
  impl_->core.with_shards([&] { impl_->read_all(); });
}

std::vector<SavedSearchMatch> SavedSearchMatcher::match(const std::vector<std::string>& ids) {
  return impl_->core.with_shards([&] { return impl_->match(ids); });
}

const MatchWork& SavedSearchMatcher::last_work() const { return impl_->work; }

}  // namespace quarry
