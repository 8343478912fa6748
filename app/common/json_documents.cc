#include "app/common/json_documents.h"

#include <nlohmann/json.hpp>

#include "quarry/json_text.h"
#include "quarry/text/language_identifier.h"

namespace quarry {
namespace {

// Ordered: members are written in the order they are set.
using Json = nlohmann::ordered_json;

std::string dump(const Json& json) { return json_text(json) + '\n'; }

Json to_json(const std::vector<Highlight>& highlights) {
  Json json = Json::array();
  for (const Highlight& highlight : highlights) {
    Json range = Json::array();
    range.push_back(highlight.begin);
    range.push_back(highlight.end);
    json.push_back(std::move(range));
  }
  return json;
}

Json to_json(const std::vector<Facet>& facets) {
  Json json = Json::object();
  for (const Facet& facet : facets) {
    Json values = Json::array();
    for (const FacetValue& value : facet.values) values.push_back({value.value, value.count});
    json[std::string(facet_name(facet.field))] = std::move(values);
  }
  return json;
}

Json to_json(const Hit& hit) {
  // Member by member: an initializer list would copy every value once more.
  Json entry = Json::object();
  entry["rank"] = hit.rank;
  entry["id"] = hit.id;
  entry["title"] = hit.title;
  entry["score"] = hit.score;
  entry["snippet"] = hit.snippet.text;
  entry["highlights"] = to_json(hit.snippet.highlights);
  entry["title_highlights"] = to_json(hit.title_highlights);
  if (!hit.date.empty()) entry["date"] = hit.date;
  if (!hit.source.empty()) entry["source"] = hit.source;
  if (!hit.category.empty()) entry["category"] = hit.category;
  if (!hit.language.empty()) entry["language"] = hit.language;
  if (hit.more_total > 0) {
    Json story = Json::object();
    story["id"] = hit.story;
    story["more"] = hit.more;
    story["more_count"] = hit.more_total;
    entry["story"] = std::move(story);
  }
  if (hit.same_story) entry["same_story"] = true;
  if (!hit.explanation.empty()) {
    Json parts = Json::array();
    for (const Contribution& part : hit.explanation) {
      parts.push_back({{"part", part.part}, {"weight", part.weight}});
    }
    entry["explain"] = std::move(parts);
  }
  return entry;
}

}  // namespace

std::string answer_json(const SearchResult& result, const std::optional<std::string>& qid,
                        std::optional<double> took_ms) {
  Json hits = Json::array();
  for (const Hit& hit : result.hits) hits.push_back(to_json(hit));
  Json json = Json::object();
  if (qid) json["qid"] = *qid;
  json["query"] = result.query;
  json["total"] = result.total;
  json["total_relation"] = result.total_exact ? "eq" : "gte";
  // Groups of near-duplicates are not stories: a reader of "stories"
  // must not take them for some.
  const bool duplicates = result.collapse == Collapse::kDuplicates;
  json[duplicates ? "groups" : "stories"] = result.stories;
  json[duplicates ? "groups_relation" : "stories_relation"] = result.stories_exact ? "eq" : "about";
  // Always there, as in Elasticsearch's answers, so that a client can rely on it.
  json["timed_out"] = result.timed_out;
  json["hits"] = std::move(hits);
  if (!result.facets.empty()) json["facets"] = to_json(result.facets);
  if (!result.notes.empty()) json["notes"] = result.notes;
  if (!result.warnings.empty()) json["warnings"] = result.warnings;
  if (!result.suggestion.empty()) json["suggestion"] = result.suggestion;
  if (result.corrected) json["corrected"] = true;
  if (took_ms) json["took_ms"] = *took_ms;
  return dump(json);
}

std::string count_json(std::string_view query, const CountResult& count) {
  Json json = Json::object();
  json["query"] = std::string(query);
  json["total"] = count.total;
  json["total_relation"] = "eq";
  if (!count.notes.empty()) json["notes"] = count.notes;
  if (!count.warnings.empty()) json["warnings"] = count.warnings;
  return dump(json);
}

std::string query_error_json(const std::optional<std::string>& qid, std::string_view query,
                             std::string_view error) {
  Json json = Json::object();
  if (qid) json["qid"] = *qid;
  json["query"] = query;
  json["error"] = error;
  return dump(json);
}

std::string http_error_json(int status, std::string_view message) {
  Json json = Json::object();
  json["status"] = status;
  json["error"] = message;
  return dump(json);
}

std::string http_query_error_json(int status, std::string_view message, std::string_view query,
                                  std::size_t column) {
  Json json = Json::object();
  json["status"] = status;
  json["error"] = message;
  json["query"] = query;
  json["column"] = column;
  return dump(json);
}

std::string article_json(const Article& article, const std::optional<ArticleMarks>& marks) {
  Json json = Json::object();
  json["id"] = article.id;
  json["title"] = article.title;
  json["body"] = article.body;
  if (!article.date.empty()) json["date"] = article.date;
  if (!article.source.empty()) json["source"] = article.source;
  if (!article.category.empty()) json["category"] = article.category;
  if (const std::string language = language_label(article.language); !language.empty()) {
    json["language"] = language;
  }
  if (marks) {
    json["title_highlights"] = to_json(marks->title);
    json["highlights"] = to_json(marks->body);
  }
  return dump(json);
}

std::string suggestions_json(std::string_view query, const std::vector<std::string>& words,
                             const std::vector<std::string>& completions) {
  Json json = Json::object();
  json["query"] = query;
  json["words"] = words;
  json["completions"] = completions;
  return dump(json);
}

std::string stats_json(const IndexStats& stats) {
  Json json = Json::object();
  json["articles"] = stats.articles;
  json["distinct_words"] = stats.distinct_words;
  json["total_words"] = stats.total_words;
  json["bytes_on_disk"] = stats.bytes_on_disk;
  json["language"] = stats.language;
  json["languages"] = stats.languages;
  json["last_update"] = stats.last_update;
  json["shards"] = stats.shards;
  json["remote_shards"] = stats.remote_shards;
  json["shard_replicas"] = Json::array();
  for (const ShardStats& shard : stats.shard_replicas) {
    Json replicas = Json::array();
    for (const ReplicaStats& replica : shard.replicas) {
      Json entry = {{"name", replica.name},
                    {"searched", replica.searched},
                    {"answers", replica.answers},
                    {"revision", nullptr},
                    {"articles", nullptr}};
      if (replica.revision) entry["revision"] = *replica.revision;
      if (replica.articles) entry["articles"] = *replica.articles;
      if (!replica.error.empty()) entry["error"] = replica.error;
      replicas.push_back(std::move(entry));
    }
    json["shard_replicas"].push_back({{"replicas", std::move(replicas)}});
  }
  return dump(json);
}

std::string health_json(std::size_t articles) {
  Json json = Json::object();
  json["status"] = "ok";
  json["articles"] = articles;
  return dump(json);
}

}  // namespace quarry
