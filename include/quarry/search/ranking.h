// How hits are scored: a weighting scheme Xapian ships and its parameters.
#ifndef QUARRY_SEARCH_RANKING_H_
#define QUARRY_SEARCH_RANKING_H_

#include <map>
#include <string>
#include <string_view>

namespace quarry {

// The schemes that take BM25's parameters (k1, k2, k3, b, min_normlen),
// by the names RankingConfig::scheme gives them: BM25, Quarry's default,
// and BM25+, which adds delta.
inline constexpr std::string_view kBm25Scheme = "bm25";
inline constexpr std::string_view kBm25PlusScheme = "bm25+";
inline constexpr std::string_view kBm25Schemes[] = {kBm25Scheme, kBm25PlusScheme};

// A value.
struct RankingConfig {
  // bm25, bm25+, tfidf, dlh, dph, pl2, pl2+, inl2, ifb2, ineb2, bb2, lm,
  // trad, coord, bool.
  std::string scheme = std::string(kBm25Scheme);
  // The scheme's parameters by name (bm25: k1, k2, k3, b, min_normlen;
  // bm25+ also delta; pl2, inl2, …: c; pl2+ also delta; trad: k). Missing
  // ones take Quarry's defaults for the scheme.
  std::map<std::string, double> parameters;
};

// Every parameter of the scheme, with Quarry's defaults for those not
// given. Throws ConfigError for an unknown scheme or a parameter the
// scheme does not take.
std::map<std::string, double> ranking_parameters(const RankingConfig& config);

// Throws ConfigError, as a search with `config` would, for an unknown
// scheme, a parameter the scheme does not take, or a value the scheme
// refuses; does nothing for a config that ranks.
void check_ranking(const RankingConfig& config);

// The scheme names, space separated, for --help.
std::string ranking_schemes();

}  // namespace quarry

#endif  // QUARRY_SEARCH_RANKING_H_
