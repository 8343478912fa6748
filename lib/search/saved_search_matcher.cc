#include <xapian.h>

#include <algorithm>
#include <optional>
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

  // The new articles alone, as a database of their own, as Lucene's
  // Monitor matches a batch in a MemoryIndex: each search then reads
  // postings of a few articles, not the index's.
  Xapian::WritableDatabase batch(std::string(), Xapian::DB_BACKEND_INMEMORY);
  for (const std::string& id : ids) {
    const std::string term = detail::id_term(id);
    auto posting = db.postlist_begin(term);
    if (posting == db.postlist_end(term)) continue;
    batch.add_document(db.get_document(*posting));
  }
  const Xapian::doccount count = batch.get_doccount();
  work.articles = count;
  if (count == 0 || searches.empty()) return {};

  // The searches an article can match: those filed under one of its terms.
  std::vector<char> woken(searches.size(), 0);
  for (std::size_t i : anywhere) woken[i] = 1;
  for (auto term = batch.allterms_begin(); term != batch.allterms_end(); ++term) {
    const auto filed = by_anchor.find(*term);
    if (filed == by_anchor.end()) continue;
    for (std::size_t i : filed->second) woken[i] = 1;
  }

  // Read once an article, whatever number of searches it matches.
  struct Read {
    Article text;
    std::vector<Token> tokens;
    std::unordered_map<std::string, std::vector<std::size_t>> stem_places;
  };
  std::vector<std::optional<Read>> read_articles(count + 1);
  auto article = [&](Xapian::docid did) -> const Read& {
    std::optional<Read>& read = read_articles[did];
    if (!read) {
      read.emplace();
      read->text =
          core.article_store().decode(batch.get_document(did).get_value(detail::kArticleSlot));
      const Analyzer& analyzer = core.analyzer_of(read->text.language);
      read->tokens = analyzer.tokenize(read->text.body);
      std::unordered_map<std::string, std::string> stems;
      for (std::size_t word = 0; word < read->tokens.size(); ++word) {
        const std::string& term = read->tokens[word].term;
        auto [stem, fresh] = stems.try_emplace(term);
        if (fresh) stem->second = analyzer.stem(term);
        read->stem_places[stem->second].push_back(word);
      }
    }
    return *read;
  };

  // Each woken search run on the batch: matching, not ranking.
  Xapian::Enquire enquire(batch);
  enquire.set_weighting_scheme(Xapian::BoolWeight());
  std::vector<SavedSearchMatch> matches;
  for (std::size_t i = 0; i < searches.size(); ++i) {
    if (!woken[i]) continue;
    ++work.candidates;
    if (reads[i].wildcard) read(i);
    const detail::ParsedQuery& parsed = reads[i].parsed;
    if (parsed.query.empty()) continue;
    enquire.set_query(parsed.query);
    const Xapian::MSet found = enquire.get_mset(0, count);
    std::vector<Xapian::docid> matched(found.begin(), found.end());
    // In the order the ids were given, as the batch was filled.
    std::sort(matched.begin(), matched.end());
    for (Xapian::docid did : matched) {
      const Read& text = article(did);
      const HighlightTerms& terms = parsed.highlight;
      StemWords stem_words(terms.stems.size());
      for (std::size_t k = 0; k < terms.stems.size(); ++k) {
        const auto places = text.stem_places.find(terms.stems[k]);
        if (places != text.stem_places.end()) stem_words[k] = places->second;
      }
      const Snippet snippet = make_snippet(text.text.body, text.tokens, terms, stem_words);
      matches.push_back({searches[i].name, text.text.id, text.text.title, text.text.date,
                         snippet.text, language_label(text.text.language)});
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
