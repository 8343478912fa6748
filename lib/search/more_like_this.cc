#include "lib/search/more_like_this.h"

#include <optional>
#include <vector>

#include "lib/index/schema.h"
#include "lib/search/story_reports.h"
#include "quarry/error.h"

namespace quarry::detail {
namespace {

// Body stems that other articles have too: title stems would count the
// title's words twice, a single letter or digit says little about what an
// article is about, and the rarest stems, which weigh most, are often the
// article's alone and would find nothing.
class TellingStems : public Xapian::ExpandDecider {
 public:
  explicit TellingStems(const Xapian::Database& db) : db_(db) {}

  bool operator()(const std::string& term) const override {
    return term.size() > 2 && term[0] == kStemPrefix[0] && term[1] != kTitlePrefix[0] &&
           db_.get_termfreq(term) > 1;
  }

 private:
  const Xapian::Database& db_;
};

}  // namespace

LikeQuery like_query(const Xapian::Database& db, const std::string& id, unsigned terms) {
  const std::string id_term = detail::id_term(id);
  const std::optional<Xapian::docid> article = detail::document_of(db, id_term);
  if (!article) throw UnknownArticleError(id);
  Xapian::RSet relevant;
  relevant.add_document(*article);
  Xapian::Enquire enquire(db);
  const TellingStems stems(db);
  // Exact frequencies, so that shards weigh words as one database does.
  const Xapian::ESet telling =
      enquire.get_eset(terms, relevant, Xapian::Enquire::USE_EXACT_TERMFREQ, &stems);
  LikeQuery like;
  if (telling.empty()) return like;
  const double heaviest = telling.begin().get_weight();
  std::vector<Xapian::Query> words;
  for (auto it = telling.begin(); it != telling.end(); ++it) {
    if (it.get_weight() <= 0) continue;
    words.emplace_back(Xapian::Query::OP_SCALE_WEIGHT, Xapian::Query(*it),
                       it.get_weight() / heaviest);
    const std::string stem = (*it).substr(1);
    like.highlight.stems.push_back(stem);
    like.highlight.loose_stems.push_back(stem);
  }
  // The article's own story stays: its other reports are what is most
  // like it, and a reader who asks for more like it looks for them first.
  // They are marked as its story (LikeQuery::story).
  if (const std::optional<Group> story = group_of(db, *article, Collapse::kStory)) {
    like.story = story->key;
  }
  like.query = Xapian::Query(Xapian::Query::OP_AND_NOT,
                             Xapian::Query(Xapian::Query::OP_OR, words.begin(), words.end()),
                             Xapian::Query(id_term));
  return like;
}

}  // namespace quarry::detail
