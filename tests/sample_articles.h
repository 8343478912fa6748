// The sample articles of corpus/, named by a word only each of them has.
// All three have "Ederson", "penalty", "Herrera", "dressing room" and "2-1";
// kKompany and kAmazon also have "Portuguese".
#ifndef QUARRY_TESTS_SAMPLE_ARTICLES_H_
#define QUARRY_TESTS_SAMPLE_ARTICLES_H_

namespace quarry::testing {

constexpr char kRaucous[] = "000_574c536d11495eda.txt";
constexpr char kKompany[] = "001_371a5a90d3b1c93b.txt";
constexpr char kAmazon[] = "002_d1cfeb7c7497b831.txt";

}  // namespace quarry::testing

#endif  // QUARRY_TESTS_SAMPLE_ARTICLES_H_
