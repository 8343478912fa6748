// A shard that cannot be reached, stops answering during a session or
// hangs: named as an error, or left out with a warning in every output
// when partial answers are allowed, and never waited for without end.
#include <gtest/gtest.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/server/request_handler.h"
#include "lib/index/shard_set.h"
#include "quarry/error.h"
#include "tests/shard_fixture.h"

namespace quarry::testing {
namespace {

using nlohmann::json;

TEST(ShardSet, UnreachableShardIsNamedOrLeftOut) {
  TempDir dir;
  ServedSet served(dir);
  served.second.stop();
  const std::string name = served.second.stub_line();

  RunResult failed = run_quarry({"--db", served.stub, "oil"});
  EXPECT_EQ(failed.exit_code, 1);
  EXPECT_NE(failed.err.find("quarry: shard " + name + " is unreachable: "), std::string::npos)
      << failed.err;
  EXPECT_EQ(failed.out, "");

  RunResult text = run_quarry({"--db", served.stub, "--allow-partial", "oil"});
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.err.find("quarry: warning: shard " + name + " is unreachable: "),
            std::string::npos)
      << text.err;

  RunResult partial =
      run_quarry({"--db", served.stub, "--allow-partial", "--format", "json", "oil"});
  ASSERT_EQ(partial.exit_code, 0) << partial.err;
  const json result = json::parse(partial.out);
  ASSERT_EQ(result.at("warnings").size(), 1u);
  EXPECT_NE(result["warnings"][0].get<std::string>().find(name), std::string::npos);
  ASSERT_GT(result.at("hits").size(), 0u);
  for (const json& hit : result["hits"]) {
    EXPECT_EQ(detail::shard_of(hit.at("id").get<std::string>(), 2), 0u) << hit.dump();
  }
}

// A shard that does not answer, searched with --allow-partial: every
// output says the result is a part, naming the shard, whatever its format.
TEST(ShardSet, EveryOutputOfAPartialResultSaysSo) {
  TempDir dir;
  ServedSet served(dir);
  // What the shard that answers holds alone.
  Searcher rest(std::vector<std::string>{lexicon_path(served.set), shard_path(served.set, 0)});
  const std::size_t part = rest.count("oil").total;
  Searcher whole(std::vector<std::string>{served.stub});
  ASSERT_LT(part, whole.count("oil").total);
  served.second.stop();
  // "quarry: warning: …", and in batches "quarry: qid 1: warning: …".
  const std::string warning = "warning: shard " + served.second.stub_line() + " is unreachable: ";
  const std::vector<std::string> partial{"--db", served.stub, "--allow-partial"};
  const auto with = [&](std::vector<std::string> args) {
    args.insert(args.begin(), partial.begin(), partial.end());
    return args;
  };

  struct Case {
    std::vector<std::string> args;
    std::string input;  // for --batch -
  };
  const Case diagnosed[] = {
      {{"oil"}, ""},
      {{"-n", "0", "oil"}, ""},
      {{"--count", "oil"}, ""},
      {{"--count", "--format", "json", "oil"}, ""},
      {{"--format", "trec"}, "oil\n"},
      {{"--batch", "-", "--format", "trec"}, "1\toil\n2\tprices\n"},
      {{"--batch", "-", "--format", "text"}, "1\toil\n"},
  };
  for (const Case& test : diagnosed) {
    const RunResult run = run_program(QUARRY_BIN, with(test.args), test.input);
    SCOPED_TRACE(test.args.front() + " " + test.args.back() + " " + test.input);
    EXPECT_EQ(run.exit_code, 0) << run.err;
    EXPECT_NE(run.err.find(warning), std::string::npos) << run.err;
    EXPECT_FALSE(run.out.empty());
  }
  const RunResult count = run_program(QUARRY_BIN, with({"--count", "oil"}));
  EXPECT_EQ(count.out, std::to_string(part) + "\n");

  // JSON says it in the answer itself, as a batch's JSON Lines do in each.
  const RunResult one = run_program(QUARRY_BIN, with({"--format", "json", "oil"}));
  const RunResult batch = run_program(QUARRY_BIN, with({"--batch", "-"}), "1\toil\n2\tprices\n");
  std::vector<json> answers{json::parse(one.out)};
  for (const std::string& line : lines_of(batch.out)) answers.push_back(json::parse(line));
  ASSERT_EQ(answers.size(), 3u) << batch.out << batch.err;
  for (const json& answer : answers) {
    ASSERT_EQ(answer.at("warnings").size(), 1u) << answer.dump();
    EXPECT_NE(answer["warnings"][0].get<std::string>().find(served.second.stub_line()),
              std::string::npos);
  }
  EXPECT_EQ(answers[0].at("total").get<std::size_t>(), part);

  // The server's JSON and its page.
  OpenOptions open;
  open.allow_partial = true;
  RequestHandler handler({served.stub}, open);
  const HttpResponse api = handler.handle("GET", "/api/search?q=oil");
  ASSERT_EQ(api.status, 200) << api.body;
  const json answer = json::parse(api.body);
  ASSERT_EQ(answer.at("warnings").size(), 1u) << api.body;
  EXPECT_NE(answer["warnings"][0].get<std::string>().find(served.second.stub_line()),
            std::string::npos);
  const HttpResponse page = handler.handle("GET", "/?q=oil");
  ASSERT_EQ(page.status, 200);
  EXPECT_NE(
      page.body.find("<p class=\"warning\">shard " + served.second.stub_line() + " is unreachable"),
      std::string::npos)
      << page.body;
}

TEST(ShardSet, ShardFailingMidSessionIsLeftOutOrNamed) {
  TempDir dir;
  ServedSet served(dir);
  const OpenOptions partial = allowing_partial();
  Searcher lenient(std::vector<std::string>{served.stub}, partial);
  Searcher strict(std::vector<std::string>{served.stub});
  const std::size_t all = lenient.search("oil", all_hits()).hits.size();
  ASSERT_EQ(strict.search("oil", all_hits()).hits.size(), all);

  served.second.stop();
  const SearchResult rest = lenient.search("oil", all_hits());
  ASSERT_EQ(rest.warnings.size(), 1u);
  EXPECT_NE(rest.warnings[0].find("shard " + served.second.stub_line()), std::string::npos)
      << rest.warnings[0];
  EXPECT_GT(rest.hits.size(), 0u);
  EXPECT_LT(rest.hits.size(), all);
  for (const Hit& hit : rest.hits) EXPECT_EQ(detail::shard_of(hit.id, 2), 0u) << hit.id;

  try {
    strict.search("oil");
    FAIL() << "a shard that stopped answering must be an error";
  } catch (const IndexError& error) {
    EXPECT_NE(
        std::string(error.what()).find("shard " + served.second.stub_line() + " is unreachable"),
        std::string::npos)
        << error.what();
  }
}

TEST(ShardSet, HungShardTimesOut) {
  TempDir dir;
  const std::string set = build(dir, "set", 2);
  SilentListener hung;
  const std::string name = "remote 127.0.0.1:" + std::to_string(hung.port());
  write_file(dir / "hung.stub",
             "auto " + lexicon_path(set) + "\nauto " + shard_path(set, 0) + "\n" + name + "\n");
  const std::string stub = (dir / "hung.stub").string();

  // What the search costs on this machine without the hung shard, so that
  // only the wait for it is measured: one second, far from the default ten.
  auto start = std::chrono::steady_clock::now();
  ASSERT_EQ(run_quarry({"--db", set, "oil"}).exit_code, 0);
  const auto healthy = std::chrono::steady_clock::now() - start;
  start = std::chrono::steady_clock::now();
  RunResult failed = run_quarry({"--db", stub, "--timeout", "1", "--connect-timeout", "1", "oil"});
  const auto took = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(failed.exit_code, 1);
  EXPECT_NE(failed.err.find("shard " + name + " is unreachable"), std::string::npos) << failed.err;
  EXPECT_LT(took - healthy, std::chrono::seconds(6));

  RunResult partial =
      run_quarry({"--db", stub, "--timeout", "1", "--allow-partial", "--format", "json", "oil"});
  ASSERT_EQ(partial.exit_code, 0) << partial.err;
  EXPECT_EQ(json::parse(partial.out).at("warnings").size(), 1u);
}

}  // namespace
}  // namespace quarry::testing
