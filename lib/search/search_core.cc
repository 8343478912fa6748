#include "lib/search/search_core.h"

#include <algorithm>
#include <limits>
#include <sstream>

#include "lib/index/schema.h"
#include "lib/search/hit_order.h"
#include "lib/search/match_count.h"
#include "lib/search/rescored_page.h"
#include "lib/search/weighting_scheme.h"
#include "quarry/text/language_identifier.h"
#include "quarry/text/utf8.h"

namespace quarry::detail {

// Runs a module's search stage, handing it the stages after it: the next
// module's search stage, and after the last, the core's.
class SearchCore::Runner final : public SearchRunner {
 public:
  Runner(SearchCore& core, const SearchContext& context, std::string_view query, std::size_t next)
      : core_(core), context_(context), query_(query), next_(next) {}

  ParsedQuery read(std::string_view text) override { return core_.read(text, context_); }

  SearchResult run(const ParsedQuery& parsed) override {
    if (next_ == core_.modules_.size()) return core_.run(parsed, query_, context_);
    Runner rest(core_, context_, query_, next_ + 1);
    return core_.modules_[next_]->search(context_, query_, parsed, rest);
  }

 private:
  SearchCore& core_;
  const SearchContext& context_;
  std::string_view query_;
  std::size_t next_;
};

SearchCore::SearchCore(const std::vector<std::string>& paths, const OpenOptions& options)
    : shards_(paths, options), analyzers_(shards_.language()), modules_(make_search_modules()) {}

SearchCore::~SearchCore() = default;

ArticleStore& SearchCore::article_store() {
  if (!store_) {
    store_.emplace();
    for (const std::string& dictionary : shards_.article_metadata(kTextDictionaryKey)) {
      if (!dictionary.empty()) store_->add_dictionary(dictionary);
    }
  }
  return *store_;
}

std::size_t SearchCore::distinct_words() {
  if (!distinct_words_) {
    std::size_t words = 0;
    Xapian::Database& vocabulary = shards_.spelling();
    for (auto it = vocabulary.spellings_begin(); it != vocabulary.spellings_end(); ++it) {
      // Not the words counted again by language (see add_words).
      const char first = (*it)[0];
      if (first < 'A' || first > 'Z') ++words;
    }
    distinct_words_ = words;
  }
  return *distinct_words_;
}

void SearchCore::forget_index() {
  norms_.reset();
  store_.reset();
  distinct_words_.reset();
  for (const std::unique_ptr<SearchModule>& module : modules_) module->forget();
  languages_.reset();
  // A folder replaced by another may hold an index of another language.
  if (analyzers_.main_language() != main_language(shards_.language())) {
    analyzers_ = LanguageAnalyzers(shards_.language());
  }
}

std::string SearchCore::lengths_stamp() {
  Xapian::Database& db = shards_.articles();
  if (db.size() != 1 || shards_.any_remote()) return "";
  return db.get_uuid() + ':' + db.get_metadata(kReplacedKey);
}

const Analyzer& SearchCore::analyzer_of(const std::string& language) {
  return language.empty() ? analyzers_.main() : analyzers_.of(language);
}

// One look-up per language with a stemmer: cheaper than keeping a list in
// every shard's metadata, and never out of date.
const std::vector<const Analyzer*>& SearchCore::languages() {
  if (!languages_) {
    std::vector<const Analyzer*> held;
    const std::string& main = analyzers_.main_language();
    if (shards_.articles().get_termfreq(kLanguagePrefix + main) > 0)
      held.push_back(&analyzers_.main());
    std::istringstream names("none " + Analyzer::available_languages());
    for (std::string name; names >> name;) {
      if (name != main && shards_.articles().get_termfreq(kLanguagePrefix + name) > 0) {
        held.push_back(&analyzers_.of(name));
      }
    }
    // An empty index reads queries in its main language.
    if (held.empty()) held.push_back(&analyzers_.main());
    languages_ = std::move(held);
  }
  return *languages_;
}

namespace {

// What a search that ran out of time says of its results.
void mark_timed_out(double seconds, SearchResult* result) {
  result->timed_out = true;
  result->total_exact = false;
  result->stories_exact = false;
  std::ostringstream limit;
  limit << seconds;
  result->notes.push_back("the search stopped at its time limit of " + limit.str() +
                          " s: the hits are the best found by then, the counts lower bounds");
}

// The options as searched: a page that reaches past the count limit is
// counted as far as it reaches, since its hits are matches, and a total
// below the last one's rank would say there are fewer than it shows.
SearchOptions counting_the_page(const SearchOptions& asked) {
  constexpr std::size_t kMost = std::numeric_limits<Xapian::doccount>::max();
  const std::size_t offset = std::min(asked.offset, kMost);
  const std::size_t page_end = offset + std::min(asked.limit, kMost - offset);
  SearchOptions options = asked;
  options.count_limit = std::max(asked.count_limit, page_end);
  return options;
}

}  // namespace

SearchOptions SearchCore::sorted_as_dated(const SearchOptions& asked) {
  SearchOptions options = asked;
  if (options.sort != SortOrder::kRelevance && shards_.articles().get_value_freq(kDateSlot) == 0) {
    options.sort = SortOrder::kRelevance;
  }
  return options;
}

SearchResult SearchCore::search(std::string_view query, const SearchOptions& asked) {
  const SearchOptions options = counting_the_page(asked);
  // One time limit for the whole search, whatever reads it again.
  const Deadline deadline(options.time_limit);
  SearchResult result = with_shards([&] {
    // Each search sees the index as last committed.
    const SearchOptions searched = sorted_as_dated(options);
    const SearchContext context{shards_,     analyzers_.main(), analyzers_,
                                languages(), searched,          deadline};
    Runner runner(*this, context, query, 0);
    const ParsedQuery parsed = read(query, context);
    SearchResult found = runner.run(parsed);
    if (searched.sort != options.sort && !parsed.query.empty()) {
      found.notes.push_back("no article in the index has a date: sorted by relevance");
    }
    return found;
  });
  if (deadline.cut_short()) mark_timed_out(options.time_limit, &result);
  const std::vector<std::string>& left_out = shards_.warnings();
  result.warnings.insert(result.warnings.end(), left_out.begin(), left_out.end());
  return result;
}

CountResult SearchCore::count(std::string_view query, const SearchOptions& options) {
  CountResult counted = with_shards([&] {
    const Deadline none;
    const SearchOptions searched = sorted_as_dated(options);
    const SearchContext context{shards_,     analyzers_.main(), analyzers_,
                                languages(), searched,          none};
    const ParsedQuery parsed = read(query, context);
    CountResult read_count{0, parsed.notes, parsed.warnings};
    if (!parsed.query.empty()) {
      read_count.total = count_all_matches(shards_.articles(), parsed.query);
    }
    return read_count;
  });
  // A count of the shards that answered is a part of the whole: said as
  // a search's answer says it.
  const std::vector<std::string>& left_out = shards_.warnings();
  counted.warnings.insert(counted.warnings.end(), left_out.begin(), left_out.end());
  return counted;
}

ParsedQuery SearchCore::parse(std::string_view query, const SearchOptions& options) {
  const Deadline none;
  const SearchOptions searched = sorted_as_dated(options);
  const SearchContext context{shards_, analyzers_.main(), analyzers_, languages(), searched, none};
  return read(query, context);
}

// Sorted by date, an article holding one word of many would come before
// those holding them all, which ranking would have lifted: every word is
// required, as news searches sorted by date do, unless asked otherwise.
QueryParserConfig SearchCore::parser_config(const SearchOptions& options) {
  QueryParserConfig config = options.parser;
  if (config.match == MatchMode::kAuto) {
    config.match = options.sort == SortOrder::kRelevance ? MatchMode::kAny : MatchMode::kAll;
  }
  return config;
}

ParsedQuery SearchCore::read(std::string_view text, const SearchContext& context) {
  const QueryParser parser(analyzers_.main(), parser_config(context.options), &shards_.spelling(),
                           &context.deadline, context.held_languages, &shards_.articles());
  ParsedQuery parsed = parser.parse(text, context.options.parse);
  for (const std::unique_ptr<SearchModule>& module : modules_) module->rewrite(context, &parsed);
  // A query that searches nothing says why, unless the parser has.
  if (parsed.query.empty() && parsed.notes.empty() && parsed.warnings.empty()) {
    parsed.notes.push_back(trim_white_space(text).empty()
                               ? "the query is empty: give words to search for"
                               : "the query holds no word to search for (no letter or digit): "
                                 "give words");
  }
  return parsed;
}

// On one local database, bags of free words are scored by posting sources
// that read lengths from memory; elsewhere, and for other schemes, by
// Xapian's matcher alone.
Xapian::Query SearchCore::scored_query(const ParsedQuery& parsed, const SearchOptions& options) {
  const std::optional<Bm25Parameters> bm25 = bm25_parameters(options.ranking);
  const bool one_local_database = shards_.articles().size() == 1 && !shards_.any_remote();
  if (!bm25 || !one_local_database) return parsed.query;
  if (norms_ && norms_->parameters() != *bm25) norms_.reset();
  if (!norms_ && searches_++ > 0) {
    norms_stamp_ = lengths_stamp();
    norms_ = std::make_shared<const LengthNorms>(shards_.articles(), *bm25);
  }
  return with_bm25_sources(parsed.query, *bm25, norms_);
}

SearchResult SearchCore::run(const ParsedQuery& parsed, std::string_view query,
                             const SearchContext& context) {
  const SearchOptions& options = context.options;
  SearchResult result;
  result.query = std::string(query);
  result.notes = parsed.notes;
  result.warnings = parsed.warnings;
  result.highlight = parsed.highlight;
  result.offset = options.offset;
  if (parsed.query.empty()) return result;

  const auto max_count = static_cast<std::size_t>(std::numeric_limits<Xapian::doccount>::max());
  const auto offset = static_cast<Xapian::doccount>(std::min(options.offset, max_count));
  const auto limit = static_cast<Xapian::doccount>(std::min(options.limit, max_count - offset));

  Xapian::Database& db = shards_.articles();
  const std::unique_ptr<Xapian::Weight> weight = make_weight(options.ranking);
  // The enquire keeps a pointer to the order by date, if it sorts by it.
  std::unique_ptr<Xapian::KeyMaker> by_date;
  Xapian::Enquire enquire(db);
  const bool local = !shards_.any_remote();
  const Deadline& deadline = context.deadline;
  enquire.set_query(deadline_bounded(scored_query(parsed, options), deadline, local));
  // Xapian's own time limit only where the deadline's posting source cannot
  // go (a remote shard): its timer's callback runs on a thread of its own
  // and may write to the match's stack after get_mset has returned, which
  // crashed searches with short limits.
  if (deadline.limited() && !local) enquire.set_time_limit(deadline.seconds_left());
  enquire.set_weighting_scheme(*weight);
  const bool counted_by_module =
      std::any_of(modules_.begin(), modules_.end(),
                  [&](const auto& module) { return module->counts_every_match(context); });
  Ranking ranking{
      enquire,
      parsed,
      counted_by_module ? 0 : ranking_check_at_least(parsed.query, options.count_limit, local),
      offset + limit,
      std::nullopt,
      std::nullopt,
      nullptr};
  for (const std::unique_ptr<SearchModule>& module : modules_) module->rank(context, &ranking);
  RankedPage page;
  if (options.sort == SortOrder::kRelevance && ranking.rescorer) {
    RescoredPage rescored = rescored_page(enquire, db, offset, limit, ranking.check_at_least,
                                          ranking.collapse_key, *ranking.rescorer, deadline);
    page = std::move(rescored.page);
    if (rescored.cut_short) {
      result.notes.push_back("the time limit stopped the ranking: the hits are the best of the " +
                             std::to_string(rescored.window) + " most relevant matches, reweighed");
    }
  } else if (options.sort == SortOrder::kRelevance && ranking.collapse_key && db.size() == 1 &&
             local) {
    enquire.set_collapse_key(Xapian::BAD_VALUENO);
    page =
        collapsed_page(enquire, db, offset, limit, ranking.check_at_least, *ranking.collapse_key);
  } else if (options.sort == SortOrder::kRelevance) {
    // The two-pass ranking of one database reorders ties among all the
    // articles it saw; collapsing shards takes Xapian's order.
    page = rank_page(enquire, db, offset, limit, ranking.check_at_least,
                     db.size() == 1 && local && !ranking.collapse_key);
  } else {
    const bool newest_first = options.sort == SortOrder::kNewestFirst;
    if (local) {
      by_date = date_order(newest_first);
      enquire.set_sort_by_key_then_relevance(by_date.get(), false);
    } else {
      // Xapian's remote protocol takes no key maker: remote shards sort by
      // the day alone, undated articles first oldest first.
      enquire.set_sort_by_value_then_relevance(kDateSlot, newest_first);
    }
    page.ranked = enquire.get_mset(offset, limit, ranking.check_at_least);
    for (auto it = page.ranked.begin(); it != page.ranked.end(); ++it) {
      page.hits.push_back({*it, it.get_weight(), it.get_rank()});
    }
  }
  const Xapian::Query bounded = deadline_bounded(parsed.query, deadline, local);
  const Matches matches{bounded, ranking.first_pass ? *ranking.first_pass : page.ranked};
  if (!counted_by_module) {
    const MatchCount count =
        count_matches(db, parsed.query, matches.ranked, options.count_limit, local, deadline);
    result.total = count.total;
    result.total_exact = count.exact;
  }
  for (const std::unique_ptr<SearchModule>& module : modules_) {
    module->count(context, matches, &result);
  }
  for (const RankedHit& ranked : page.hits) {
    // The document was just matched: no need to check that it exists.
    Article article = article_store().decode(
        db.get_document(ranked.did, Xapian::DOC_ASSUME_VALID).get_value(kArticleSlot));
    Hit hit;
    hit.rank = ranked.rank + 1;
    hit.id = std::move(article.id);
    hit.title = std::move(article.title);
    hit.date = std::move(article.date);
    hit.source = std::move(article.source);
    hit.category = std::move(article.category);
    hit.language = language_label(article.language);
    hit.score = ranked.weight;
    const StoredHit stored{parsed, *weight, ranked.did, article.body, article.language};
    // Past the time limit, hits after the first are shown as stored,
    // without snippets.
    for (const std::unique_ptr<SearchModule>& module : modules_) {
      if (result.hits.empty() || !deadline.expired()) module->fill_hit(context, stored, &hit);
    }
    result.hits.push_back(std::move(hit));
  }
  if (options.sort == SortOrder::kRelevance) order_near_ties(&result.hits);
  return result;
}

}  // namespace quarry::detail
