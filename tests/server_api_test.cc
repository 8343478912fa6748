// quarry serve's API against `quarry --format json`: the same answers byte
// for byte, bad parameters refused saying which, articles, suggestions and
// statistics, and each hit's language.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/server/page_markup.h"
#include "tests/server_fixture.h"

namespace quarry::testing {
namespace {

using json = nlohmann::json;

TEST_F(ServerTest, FirstLineNamesTheAddressAndHealthzAnswers) {
  const HttpReply reply = server().get("/healthz");
  EXPECT_EQ(reply.status, 200);
  EXPECT_EQ(json::parse(reply.body), json::parse(R"({"status": "ok", "articles": 3})"));
}

// One contract, one serializer: the API's answer is quarry's own output.
TEST_F(ServerTest, SearchIsTheCommandLinesJsonByteForByte) {
  struct Case {
    std::string parameters;
    std::vector<std::string> options;
    std::string query;
  };
  const Case cases[] = {
      {"", {}, "penalty Herrera"},
      {"&n=1&offset=1", {"-n", "1", "--offset", "1"}, "penalty"},
      {"&n=0", {"-n", "0"}, "Portuguese"},
      {"&sort=date", {"--sort", "date"}, "penalty"},
      {"&sort=-date", {"--sort", "-date"}, "penalty"},
      {"&match=all", {"--match", "all"}, "Ederson Portuguese"},
      {"&facets=source,category,date", {"--facets", "source,category,date"}, "penalty"},
      {"&count_limit=1", {"--count-limit", "1"}, "penalty"},
      {"&plain=true", {"--plain"}, "What did Herrera say about the penalty?"},
      {"&correct=never", {"--correct", "never"}, "pennalty"},
      {"&correct=always", {"--correct", "always"}, "pennalty"},
      {"", {}, "pennalty"},
      {"&explain=true", {"--explain"}, "penalty Herrera"},
      {"&snippets=false", {"--no-snippets"}, "penalty Herrera"},
      {"&weight=tfidf", {"--weight", "tfidf"}, "penalty"},
      {"&weight=bm25&bm25=k1%3D1.2%2Cb%3D0.75",
       {"--weight", "bm25", "--bm25", "k1=1.2,b=0.75"},
       "penalty"},
      {"&title_weight=2", {"--title-weight", "2"}, "derby"},
      {"", {}, "\"dressing room"},
      {"", {}, "Mourinho AND"},
      {"", {}, "zzyzx"},
      {"", {}, ""},
      {"", {}, "Guardiola’s NEAR Ederson"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args{"--db", db_path(), "--format", "json"};
    args.insert(args.end(), c.options.begin(), c.options.end());
    args.push_back("--");
    args.push_back(c.query);
    const RunResult cli = run_program(QUARRY_BIN, args);
    ASSERT_EQ(cli.exit_code, 0) << c.query << ": " << cli.err;
    const HttpReply reply = server().get("/api/search?q=" + url_encode(c.query) + c.parameters);
    EXPECT_EQ(reply.status, 200) << c.query << c.parameters << ": " << reply.body;
    EXPECT_EQ(reply.header("content-type"), "application/json");
    EXPECT_EQ(reply.body, cli.out) << c.query << c.parameters;
    // Asked again, parameters first: the answer kept is the same.
    const std::string again = c.parameters.empty() ? "/api/search?q=" + url_encode(c.query)
                                                   : "/api/search?" + c.parameters.substr(1) +
                                                         "&q=" + url_encode(c.query);
    EXPECT_EQ(server().get(again).body, cli.out) << again;
  }
}

// Answers are kept by their parameters: none is mistaken for another,
// whatever its values hold.
TEST_F(ServerTest, KeptAnswersAreTheirOwnRequests) {
  EXPECT_EQ(server().get_json("/api/search?q=penalty&sort=date").at("query"), "penalty");
  EXPECT_EQ(server().get_json("/api/search?q=penalty%0Asort%3Ddate").at("query"),
            "penalty\nsort=date");
  EXPECT_EQ(server().get_json("/api/search?q=penalty&collapse=none&n=1").at("hits").size(), 1u);
  EXPECT_EQ(server().get_json("/api/search?q=penalty&collapse=none&n=2").at("hits").size(), 2u);
}

TEST_F(ServerTest, AQueryThatDoesNotParseUnderStrictIs400WithItsColumn) {
  const HttpReply reply = server().get("/api/search?strict=true&q=Mourinho%20AND");
  EXPECT_EQ(reply.status, 400);
  const json answer = json::parse(reply.body);
  EXPECT_EQ(answer.at("status"), 400);
  EXPECT_EQ(answer.at("query"), "Mourinho AND");
  EXPECT_EQ(answer.at("column"), 10);
  const RunResult cli =
      run_program(QUARRY_BIN, {"--db", db_path(), "--strict", "--", "Mourinho AND"});
  EXPECT_EQ(cli.exit_code, 2);
  EXPECT_EQ("quarry: " + answer.at("error").get<std::string>() + "\n", cli.err);
}

// A query of more words than the most a query may hold is refused, not
// searched as its first words.
TEST_F(ServerTest, AQueryOfMoreWordsThanTheMostIs400) {
  std::string words;
  for (int i = 0; i < 1025; ++i) words += "x%20";
  const HttpReply reply = server().get("/api/search?q=" + words);
  EXPECT_EQ(reply.status, 400);
  const json answer = json::parse(reply.body);
  EXPECT_NE(
      answer.at("error").get<std::string>().find("more than 1024 words, the most a query may hold"),
      std::string::npos)
      << answer.dump();
  EXPECT_EQ(answer.at("column"), 2049);
}

// A page that reaches past the count limit is counted as far as it
// reaches: the total never says fewer than the hits it comes with.
TEST_F(ServerTest, APageBeyondTheCountLimitIsCountedToItsEnd) {
  const json two = server().get_json("/api/search?q=penalty&collapse=none&count_limit=1&n=2");
  EXPECT_EQ(two.at("hits").size(), 2u);
  EXPECT_EQ(two.at("total"), 2);
  EXPECT_EQ(two.at("total_relation"), "gte");
  const json all = server().get_json("/api/search?q=penalty&collapse=none&count_limit=1&n=10");
  EXPECT_EQ(all.at("hits").size(), 3u);
  EXPECT_EQ(all.at("total"), 3);
  EXPECT_EQ(all.at("total_relation"), "eq");
}

TEST_F(ServerTest, BadParametersAre400AndSayWhich) {
  struct Case {
    std::string target;
    std::string error;  // a part of the message
  };
  const std::string long_query(5000, 'a');
  const Case cases[] = {
      {"/api/search", "parameter q (the query) is missing"},
      {"/api/search?q=penalty&n=10000000", "parameter n must be a whole number from 0 to 100"},
      {"/api/search?q=penalty&n=-1", "parameter n must be"},
      {"/api/search?q=penalty&n=ten", "parameter n must be"},
      {"/api/search?q=penalty&offset=-1", "parameter offset must be a whole number from 0 to"},
      {"/api/search?q=penalty&offset=99999999999999999999999", "parameter offset must be"},
      {"/api/search?q=" + long_query, "parameter q is longer than 4096 bytes"},
      {"/api/search?q=%FF%FE", "parameter q is not valid UTF-8"},
      {"/api/search?q=%C0%AF", "parameter q is not valid UTF-8"},
      {"/api/search?q=%ED%A0%80", "parameter q is not valid UTF-8"},
      {"/api/search?q=a%00b", "parameter q holds a NUL character"},
      {"/api/search?q=a%2", "parameter q has a malformed %-escape"},
      {"/api/search?q=a%zz", "parameter q has a malformed %-escape"},
      {"/api/search?q=a&q=b", "parameter q given twice"},
      {"/api/search?q=a&limit=5", "unknown parameter limit"},
      {"/api/search?q=a&sort=newest", "parameter sort must be one of relevance, date, -date"},
      {"/api/search?q=a&match=some", "parameter match must be one of auto, any, all"},
      {"/api/search?q=a&plain=yes", "parameter plain must be true or false"},
      {"/api/search?q=a&correct=maybe", "parameter correct must be one of never, auto, always"},
      {"/api/search?q=a&facets=author", "parameter facets"},
      {"/api/search?q=a&count_limit=0", "parameter count_limit must be"},
      {"/api/search?q=a&weight=pagerank", "parameter weight"},
      {"/api/search?q=a&weight=tfidf&bm25=k1%3D1", "parameter bm25 goes with weight bm25"},
      {"/api/search?q=a&bm25=k9%3D1", "parameter bm25"},
      {"/api/search?q=a&title_weight=-1", "parameter title_weight must be"},
      {"/api/search?q=a&recency=7x", "parameter recency: '7x' is not a half-life"},
      {"/api/search?q=a&recency=0d", "parameter recency: '0d' is not a half-life"},
      {"/api/search?q=a&as_of=yesterday", "parameter as_of: 'yesterday' is not a date"},
      {"/api/suggest", "parameter q (the query) is missing"},
      {"/api/suggest?q=a&n=1000", "parameter n must be a whole number from 0 to 50"},
      {"/api/articles/a%00b", "the article id holds a NUL character"},
      {"/api/articles/%FF", "the article id is not valid UTF-8"},
      {"/api/stats?verbose=1", "unknown parameter verbose (this takes none)"},
  };
  for (const Case& c : cases) {
    const HttpReply reply = server().get(c.target);
    EXPECT_EQ(reply.status, 400) << c.target.substr(0, 100) << ": " << reply.body;
    EXPECT_EQ(reply.header("content-type"), "application/json");
    const json answer = json::parse(reply.body);
    EXPECT_EQ(answer.at("status"), 400);
    EXPECT_NE(answer.at("error").get<std::string>().find(c.error), std::string::npos)
        << c.target.substr(0, 100) << ": " << reply.body;
  }
  EXPECT_EQ(server().get("/healthz").status, 200);
}

TEST_F(ServerTest, ArticlesAreFoundByIdAndOthersAre404) {
  const json article = server().get_json("/api/articles/" + std::string(kRaucous));
  EXPECT_EQ(article.at("id"), kRaucous);
  const std::optional<Article> stored = searcher().fetch(kRaucous);
  ASSERT_TRUE(stored);
  EXPECT_EQ(article.at("title"), stored->title);
  EXPECT_EQ(article.at("body"), stored->body);
  EXPECT_FALSE(article.contains("highlights"));

  for (const std::string target :
       {"/api/articles/nothing.txt", "/api/articles/..%2f..%2fetc%2fpasswd",
        "/api/articles/../../etc/passwd", "/api/articles/%2Fetc%2Fpasswd", "/api/articles/"}) {
    const HttpReply reply = server().get(target);
    EXPECT_EQ(reply.status, 404) << target;
    EXPECT_EQ(reply.body.find("root:"), std::string::npos) << target;
    EXPECT_EQ(json::parse(reply.body).at("status"), 404);
  }
}

TEST_F(ServerTest, ArticleHighlightsMarkTheQueryInCodePoints) {
  const json article = server().get_json("/api/articles/" + std::string(kRaucous) + "?q=Herrera");
  const std::u32string body = to_u32(article.at("body").get<std::string>());
  ASSERT_FALSE(article.at("highlights").empty());
  for (const json& range : article.at("highlights")) {
    const auto begin = range.at(0).get<std::size_t>(), end = range.at(1).get<std::size_t>();
    ASSERT_LE(end, body.size());
    EXPECT_EQ(body.substr(begin, end - begin), U"Herrera");
  }
}

TEST_F(ServerTest, SuggestCompletesTheLastWordInTheCaseTyped) {
  const json answer = server().get_json("/api/suggest?q=penalty%20%2BHerr");
  EXPECT_EQ(answer.at("query"), "penalty +Herr");
  EXPECT_EQ(answer.at("words"), json::parse(R"(["Herrera"])"));
  EXPECT_EQ(answer.at("completions"), json::parse(R"(["penalty +Herrera"])"));
  EXPECT_EQ(server().get_json("/api/suggest?q=Ander%20HERR").at("completions"),
            json::parse(R"(["Ander HERRERA"])"));
  EXPECT_EQ(server().get_json("/api/suggest?q=penalty%20herr").at("completions"),
            json::parse(R"(["penalty herrera"])"));
  EXPECT_TRUE(server().get_json("/api/suggest?q=penalty%20").at("completions").empty());
  EXPECT_TRUE(server().get_json("/api/suggest?q=zzyzx").at("completions").empty());
}

TEST_F(ServerTest, StatsAreTheIndexs) {
  const json stats = server().get_json("/api/stats");
  EXPECT_EQ(stats.at("articles"), 3);
  EXPECT_EQ(stats.at("language"), "auto");
  EXPECT_EQ(stats.at("languages"), json::array({"en"}));
  EXPECT_EQ(stats.at("shards"), 1);
  EXPECT_GT(stats.at("distinct_words").get<int>(), 100);
}

TEST_F(ServerLanguageTest, HitsAndArticlesSayTheirLanguage) {
  const json answer = server().get_json("/api/search?q=trains&collapse=none");
  std::map<std::string, std::string> languages;
  for (const json& hit : answer.at("hits")) languages[hit.at("id")] = hit.at("language");
  EXPECT_EQ(languages,
            (std::map<std::string, std::string>{{"strike-en", "en"}, {"strike-fr", "fr"}}));
  EXPECT_EQ(server().get_json("/api/articles/strike-fr").at("language"), "fr");
  EXPECT_EQ(server().get_json("/api/articles/strike-en").at("language"), "en");
}

TEST_F(ServerLanguageTest, LanguagesAreCounted) {
  const json answer = server().get_json("/api/search?q=trains&facets=language");
  EXPECT_EQ(answer.at("facets").at("language"), json::parse(R"([["en", 1], ["fr", 1]])"));
}

// The language parameter is --language: the same answer, byte for byte.
TEST_F(ServerLanguageTest, LanguageParameterSearchesOneLanguage) {
  for (const std::string french : {"fr", "FR", "french"}) {
    const HttpReply reply = server().get("/api/search?q=trains&language=" + french);
    ASSERT_EQ(reply.status, 200) << reply.body;
    const json answer = json::parse(reply.body);
    ASSERT_EQ(answer.at("hits").size(), 1u) << french << ": " << reply.body;
    EXPECT_EQ(answer.at("hits")[0].at("id"), "strike-fr");
    const RunResult cli = run_program(
        QUARRY_BIN, {"--db", db_path(), "--format", "json", "--language", french, "trains"});
    EXPECT_EQ(reply.body, cli.out) << french;
  }
  const HttpReply unknown = server().get("/api/search?q=trains&language=klingon");
  EXPECT_EQ(unknown.status, 400);
  EXPECT_EQ(json::parse(unknown.body).at("error"),
            "parameter language: no language 'klingon': name one by its ISO 639-1 code (fr) or "
            "its name (french)");
}

}  // namespace
}  // namespace quarry::testing
