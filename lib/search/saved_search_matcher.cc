#include <xapian.h>

#include <algorithm>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "lib/index/index_error.h"
#include "lib/index/schema.h"
#include "lib/search/query_anchors.h"
#include "lib/search/search_core.h"
#include "quarry/input/article.h"
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

// Articles copied from the index at once: each copy is one read of the
// index, short enough to end between two commits of a writer beside it.
constexpr std::size_t kCopiedAtOnce = 64;

struct SavedSearchMatcher::Impl {
  explicit Impl(Searcher& searcher) : core(detail::core_of(searcher)) {}

  // A search as read, and where it is filed.
  struct Read {
    detail::ParsedQuery parsed;
    bool wildcard = false;
    // Terms of which a matching article holds one; none: any article.
    std::optional<std::vector<std::string>> anchors;
  };

  // The articles to match, copied from the index: batch's document `did`
  // is the article of the (did-1)th id, its stored text in texts[did].
  struct Batch {
    explicit Batch(std::size_t ids)
        : db(std::string(), Xapian::DB_BACKEND_INMEMORY), texts(ids + 1) {}
    Xapian::WritableDatabase db;
    std::vector<std::optional<Article>> texts;
  };

  // Searches are read each on its own, on the index as last committed:
  // every read is short, so a writer committing beside it never makes it
  // give up.
  Read read(std::size_t index) {
    return core.with_shards_until_read([&] {
      const SavedSearch& search = searches[index];
      Read read;
      try {
        read.parsed = core.parse(search.query, search.options);
      } catch (const QueryError& error) {
        throw QueryError(error.query(), error.column(),
                         "saved search '" + search.name + "': " + error.reason());
      }
      if (read.parsed.query.empty()) {
        throw QueryError(search.query, 1,
                         "saved search '" + search.name + "' holds no word to search for");
      }
      read.wildcard = has_wildcard(search.query);
      // A wildcard's words change as articles arrive: it is read again
      // for each match, and tried on every article.
      if (!read.wildcard) {
        read.anchors = detail::query_anchors(read.parsed.query, core.shards().articles());
      }
      return read;
    });
  }

  std::vector<const Analyzer*> languages() {
    return core.with_shards_until_read([&] { return core.languages(); });
  }

  // Every search read again, and filed under its anchors in the index as
  // it is now.
  void read_all() {
    read_with = languages();
    reads.assign(searches.size(), {});
    by_anchor.clear();
    anywhere.clear();
    for (std::size_t i = 0; i < searches.size(); ++i) {
      reads[i] = read(i);
      if (!reads[i].anchors) {
        anywhere.push_back(i);
        continue;
      }
      for (const std::string& term : *reads[i].anchors) by_anchor[term].push_back(i);
    }
  }

  // Copies the articles of ids[begin, end) that some search may match
  // into `batch`, waking the searches they may match. Replaces what an
  // earlier attempt that a commit overtook copied.
  void copy(const std::vector<std::string>& ids, std::size_t begin, std::size_t end, Batch& batch,
            std::vector<char>& woken) {
    Xapian::Database& db = core.shards().articles();
    for (std::size_t i = begin; i < end; ++i) {
      const Xapian::docid copied = static_cast<Xapian::docid>(i + 1);
      if (batch.texts[copied]) {
        batch.db.delete_document(copied);
        batch.texts[copied].reset();
      }
      const std::optional<Xapian::docid> did = detail::document_of(db, detail::id_term(ids[i]));
      if (!did) continue;
      ++work.articles;
      bool wakes = !anywhere.empty();
      for (auto held = db.termlist_begin(*did); held != db.termlist_end(*did); ++held) {
        const auto filed = by_anchor.find(*held);
        if (filed == by_anchor.end()) continue;
        for (std::size_t search : filed->second) woken[search] = 1;
        wakes = true;
      }
      if (!wakes) continue;
      const Xapian::Document document = db.get_document(*did);
      batch.db.replace_document(copied, document);
      batch.texts[copied] = core.article_store().decode(document.get_value(detail::kArticleSlot));
    }
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
  if (languages() != read_with) read_all();
  work = {};
  work.searches = searches.size();

  // The new articles alone, as a database of their own, as Lucene's
  // Monitor matches a batch in a MemoryIndex: each search then reads
  // postings of a few articles, not the index's. Copied a few at a time,
  // each few read again when a commit overtakes it; all that follows reads
  // the copy alone, so that a writer that commits continuously never stops
  // matching.
  Batch batch(ids.size());
  std::vector<char> woken(searches.size(), 0);
  for (std::size_t i : anywhere) woken[i] = 1;
  for (std::size_t begin = 0; begin < ids.size(); begin += kCopiedAtOnce) {
    const std::size_t end = std::min(ids.size(), begin + kCopiedAtOnce);
    const std::size_t articles = work.articles;
    core.with_shards_until_read([&] {
      work.articles = articles;
      copy(ids, begin, end, batch, woken);
    });
  }
  const Xapian::doccount count = batch.db.get_doccount();
  if (count == 0) return {};
  for (std::size_t i = 0; i < searches.size(); ++i) {
    if (woken[i] && reads[i].wildcard) reads[i] = read(i);
  }

  // Read once an article, whatever number of searches it matches.
  struct Words {
    std::vector<Token> tokens;
    std::unordered_map<std::string, std::vector<std::size_t>> stem_places;
  };
  std::vector<std::optional<Words>> read_articles(batch.texts.size());
  auto words_of = [&](Xapian::docid did) -> const Words& {
    std::optional<Words>& words = read_articles[did];
    if (!words) {
      words.emplace();
      const Analyzer& analyzer = core.analyzer_of(batch.texts[did]->language);
      words->tokens = analyzer.tokenize(batch.texts[did]->body);
      std::unordered_map<std::string, std::string> stems;
      for (std::size_t word = 0; word < words->tokens.size(); ++word) {
        const std::string& term = words->tokens[word].term;
        auto [stem, fresh] = stems.try_emplace(term);
        if (fresh) stem->second = analyzer.stem(term);
        words->stem_places[stem->second].push_back(word);
      }
    }
    return *words;
  };

  // Each woken search run on the batch: matching, not ranking.
  Xapian::Enquire enquire(batch.db);
  enquire.set_weighting_scheme(Xapian::BoolWeight());
  std::vector<SavedSearchMatch> matches;
  for (std::size_t i = 0; i < searches.size(); ++i) {
    if (!woken[i]) continue;
    ++work.candidates;
    const detail::ParsedQuery& parsed = reads[i].parsed;
    if (parsed.query.empty()) continue;
    enquire.set_query(parsed.query);
    const Xapian::MSet found = enquire.get_mset(0, count);
    std::vector<Xapian::docid> matched(found.begin(), found.end());
    // In the order the ids were given, as the batch was filled.
    std::sort(matched.begin(), matched.end());
    for (Xapian::docid did : matched) {
      const Article& text = *batch.texts[did];
      const Words& words = words_of(did);
      const HighlightTerms& terms = parsed.highlight;
      StemWords stem_words(terms.stems.size());
      for (std::size_t k = 0; k < terms.stems.size(); ++k) {
        const auto places = words.stem_places.find(terms.stems[k]);
        if (places != words.stem_places.end()) stem_words[k] = places->second;
      }
      const Snippet snippet = make_snippet(text.body, words.tokens, terms, stem_words);
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
  impl_->read_all();
}

std::vector<SavedSearchMatch> SavedSearchMatcher::match(const std::vector<std::string>& ids) {
  try {
    return impl_->match(ids);
  } catch (const Xapian::Error& error) {
    // The index's own errors are told by the reads; these are the batch's.
    throw detail::index_error("matching saved searches on " + impl_->core.shards().label(), error);
  }
}

const MatchWork& SavedSearchMatcher::last_work() const { return impl_->work; }

}  // namespace quarry
