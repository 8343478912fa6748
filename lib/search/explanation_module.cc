#include "lib/search/explanation_module.h"

#include <algorithm>
#include <vector>

#include "lib/index/schema.h"

namespace quarry::detail {
namespace {

class ExplanationModule final : public SearchModule {
 public:
  void fill_hit(const SearchContext& context, const StoredHit& stored, Hit* hit) override {
    if (!context.options.explain.enabled) return;
    std::vector<Contribution> parts;
    const Xapian::Query article(id_term(hit->id));
    for (const ScoringPart& part : stored.parsed.scoring_parts) {
      Xapian::Enquire enquire(context.shards.articles());
      enquire.set_weighting_scheme(stored.weight);
      enquire.set_query(Xapian::Query(Xapian::Query::OP_FILTER, part.query, article));
      Xapian::MSet mset = enquire.get_mset(0, 1);
      if (!mset.empty()) parts.push_back({part.label, mset.begin().get_weight()});
    }
    std::sort(parts.begin(), parts.end(),
              [](const Contribution& a, const Contribution& b) { return a.weight > b.weight; });
    hit->explanation = std::move(parts);
  }
};

}  // namespace

std::unique_ptr<SearchModule> make_explanation_module() {
  return std::make_unique<ExplanationModule>();
}

}  // namespace quarry::detail
