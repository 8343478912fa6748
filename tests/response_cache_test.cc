// The server's cache of answers: what it keeps, and what it lets go first.
#include "app/server/response_cache.h"

#include <gtest/gtest.h>

#include <string>

namespace quarry {
namespace {

HttpResponse answer(std::string body) { return {200, "application/json", std::move(body), {}}; }

TEST(ResponseCache, GivesBackWhatItKeptAndNothingElse) {
  ResponseCache cache(1 << 20);
  EXPECT_FALSE(cache.find("a"));
  HttpResponse kept = answer("{\"total\": 3}");
  kept.headers.emplace_back("Cache-Control", "no-store");
  cache.add("a", kept);
  const std::optional<HttpResponse> found = cache.find("a");
  ASSERT_TRUE(found);
  EXPECT_EQ(found->status, 200);
  EXPECT_EQ(found->content_type, "application/json");
  EXPECT_EQ(found->body, "{\"total\": 3}");
  EXPECT_EQ(found->headers, kept.headers);
  EXPECT_FALSE(cache.find("b"));
  EXPECT_FALSE(cache.find("a "));
}

TEST(ResponseCache, LetsTheLeastRecentlyUsedGoFirst) {
  // Room for two answers of 1,000 bytes, not three.
  ResponseCache cache(2800);
  cache.add("a", answer(std::string(1000, 'a')));
  cache.add("b", answer(std::string(1000, 'b')));
  ASSERT_TRUE(cache.find("a"));  // now used after b
  cache.add("c", answer(std::string(1000, 'c')));
  EXPECT_TRUE(cache.find("a"));
  EXPECT_FALSE(cache.find("b"));
  EXPECT_TRUE(cache.find("c"));
  EXPECT_EQ(cache.entries(), 2u);
  EXPECT_LE(cache.bytes(), 2800u);
}

TEST(ResponseCache, KeepsNoAnswerLargerThanItself) {
  ResponseCache cache(2000);
  cache.add("small", answer("{}"));
  cache.add("large", answer(std::string(5000, 'x')));
  EXPECT_FALSE(cache.find("large"));
  EXPECT_TRUE(cache.find("small"));
}

TEST(ResponseCache, KeepsTheFirstAnswerToARequest) {
  ResponseCache cache(1 << 20);
  cache.add("a", answer("first"));
  cache.add("a", answer("second"));
  EXPECT_EQ(cache.find("a")->body, "first");
  EXPECT_EQ(cache.entries(), 1u);
}

}  // namespace
}  // namespace quarry
