// quarry serve's search page without JavaScript: hits, articles like one,
// errors explained, article pages, and the page's own files.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/server_fixture.h"

namespace quarry::testing {
namespace {

TEST_F(ServerTest, PageListsHitsWithoutJavaScript) {
  const HttpReply reply = server().get("/?q=penalty+Herrera");
  EXPECT_EQ(reply.status, 200);
  EXPECT_EQ(reply.header("content-type"), "text/html; charset=utf-8");
  EXPECT_NE(reply.header("content-security-policy").find("script-src 'self'"), std::string::npos);
  const std::string& page = reply.body;
  // The sample's three reports are one story, shown once, the others
  // listed under it by their titles.
  EXPECT_EQ(count_of(page, "<li class=\"hit\">"), 1u);
  EXPECT_NE(page.find("3 articles match, 1 story"), std::string::npos);
  EXPECT_NE(page.find("<mark>Herrera</mark>"), std::string::npos);
  EXPECT_NE(page.find("value=\"penalty Herrera\""), std::string::npos);
  EXPECT_NE(page.find("href=\"/articles/" + std::string(kRaucous) + "?q=penalty%20Herrera\""),
            std::string::npos);
  EXPECT_NE(page.find("<summary>+2 more reports</summary>"), std::string::npos);
  EXPECT_NE(page.find(">Mourinho and Ederson in dressing-room bust-up after Manchester derby</a>"),
            std::string::npos);
  EXPECT_NE(page.find(">United kept City&#39;s cameras out before the derby flashpoint</a>"),
            std::string::npos);
  EXPECT_NE(page.find("href=\"/?like=" + std::string(kRaucous) +
                      "&amp;from=penalty%20Herrera\">More like this"),
            std::string::npos);
}

TEST_F(ServerTest, PageShowsAllReportsWhenAsked) {
  const std::string page = server().get("/?q=penalty+Herrera&collapse=none").body;
  EXPECT_EQ(count_of(page, "<li class=\"hit\">"), 3u);
  EXPECT_NE(page.find("<p class=\"count\" id=\"count\">3 articles match</p>"), std::string::npos);
  EXPECT_EQ(page.find("more reports"), std::string::npos);
  EXPECT_NE(page.find("<option value=\"none\" selected>"), std::string::npos);
  // The page offers what it has a control for.
  EXPECT_EQ(server().get("/?q=penalty&collapse=duplicates").status, 400);
}

TEST_F(ServerTest, PageOfArticlesLikeOneShowsItsStoryMarked) {
  const std::string like = "/?like=" + std::string(kRaucous) + "&from=penalty+Herrera";
  HttpReply reply = server().get(like + "&collapse=none");
  EXPECT_EQ(reply.status, 200);
  EXPECT_EQ(count_of(reply.body, "<li class=\"hit\">"), 2u);
  EXPECT_EQ(reply.body.find("<h2 class=\"title\"><a href=\"/articles/" + std::string(kRaucous)),
            std::string::npos);
  EXPECT_NE(reply.body.find("Articles like <a href=\"/articles/" + std::string(kRaucous) +
                            "\">Mourinho in heated exchange with City players after derby "
                            "defeat</a>"),
            std::string::npos);
  EXPECT_NE(reply.body.find("<a href=\"/?q=penalty%20Herrera&amp;collapse=none\">← Results for "
                            "penalty Herrera</a>"),
            std::string::npos);
  // One hit a story: its own story is the hit, marked so.
  reply = server().get(like);
  EXPECT_EQ(count_of(reply.body, "<li class=\"hit\">"), 1u);
  EXPECT_EQ(count_of(reply.body, "<span class=\"same-story\">same story</span>"), 1u);
  reply = server().get("/?like=nothing.txt");
  EXPECT_EQ(reply.status, 404);
  EXPECT_NE(reply.body.find("no article has the id"), std::string::npos);
}

TEST_F(ServerTest, PageExplainsABadRequest) {
  const HttpReply reply = server().get("/?q=penalty&offset=-1");
  EXPECT_EQ(reply.status, 400);
  EXPECT_EQ(reply.header("content-type"), "text/html; charset=utf-8");
  EXPECT_NE(reply.body.find("parameter offset must be"), std::string::npos);
}

TEST_F(ServerTest, ArticlePageMarksTheQuery) {
  const HttpReply reply = server().get("/articles/" + std::string(kRaucous) + "?q=Herrera");
  EXPECT_EQ(reply.status, 200);
  EXPECT_NE(reply.body.find("<mark>Herrera</mark>"), std::string::npos);
  EXPECT_EQ(server().get("/articles/nothing.txt").status, 404);
}

TEST_F(ServerTest, ServesItsStylesheetAndScript) {
  const HttpReply css = server().get("/search.css");
  EXPECT_EQ(css.status, 200);
  EXPECT_EQ(css.header("content-type"), "text/css; charset=utf-8");
  const HttpReply script = server().get("/search.js");
  EXPECT_EQ(script.status, 200);
  EXPECT_EQ(script.header("content-type"), "text/javascript; charset=utf-8");
  EXPECT_NE(script.body.find("/api/search"), std::string::npos);
}

TEST_F(ServerLanguageTest, PageShowsCountsAndKeepsTheLanguage) {
  const std::string every = server().get("/?q=trains&collapse=none").body;
  EXPECT_EQ(count_of(every, "<li class=\"hit\">"), 2u);
  EXPECT_NE(every.find("<span class=\"language\">fr</span>"), std::string::npos) << every;
  EXPECT_NE(every.find("href=\"/?q=trains%20language%3Afr&amp;collapse=none\">fr</a>"),
            std::string::npos)
      << every;

  const std::string french = server().get("/?q=trains&collapse=none&language=fr").body;
  EXPECT_EQ(count_of(french, "<li class=\"hit\">"), 1u);
  EXPECT_NE(french.find("/articles/strike-fr"), std::string::npos);
  EXPECT_EQ(french.find("/articles/strike-en"), std::string::npos);
  EXPECT_NE(french.find("Only articles in <span>fr</span>"), std::string::npos) << french;
  EXPECT_NE(french.find("name=\"language\" type=\"hidden\" value=\"fr\""), std::string::npos);

  const HttpReply unknown = server().get("/?q=trains&language=klingon");
  EXPECT_EQ(unknown.status, 400);
  EXPECT_NE(unknown.body.find("no language &#39;klingon&#39;"), std::string::npos) << unknown.body;
}

}  // namespace
}  // namespace quarry::testing
