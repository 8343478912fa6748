// Runs one language identifier over labelled texts, for bench/language-id.
//
//   quarry-language-id IDENTIFIER [CUTS] < texts.jsonl > answers.tsv
//
// IDENTIFIER is cld2 (the library this program is linked with: the compact
// tables of libcld2, or the full ones of libcld2_full), textcat:CONF
// (libexttextcat with the fingerprints that CONF lists, by their paths) or
// quarry (Quarry's own identify_language, on CLD2). Each input line is
// {"language": "de", "text": "..."}. CUTS (comma separated, default 0) are
// the numbers of characters of each text to identify, 0 for the whole text.
// One line per text and cut: cut, true language, the answer as an ISO 639
// code ("" for none) and 1 when the identifier calls it reliable. Then
// "time<TAB>texts<TAB>seconds": whole texts identified in a loop on one
// thread for at least a second of CPU time.
// compact_lang_det.h uses FILE without including <cstdio>.
#include <cstdio>
//
#include <cld2/public/compact_lang_det.h>
#include <cld2/public/encodings.h>
#include <libexttextcat/textcat.h>

#include <ctime>
#include <functional>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "quarry/text/language_identifier.h"

namespace {

struct Answer {
  std::string code;  // ISO 639 code, empty for none
  bool reliable = false;
};

using Identifier = std::function<Answer(std::string_view)>;

Answer cld2(std::string_view text) {
  CLD2::CLDHints hints = {nullptr, nullptr, CLD2::UNKNOWN_ENCODING, CLD2::UNKNOWN_LANGUAGE};
  CLD2::Language language3[3];
  int percent3[3];
  double scores3[3];
  int text_bytes = 0;
  int valid_prefix = 0;
  bool reliable = false;
  CLD2::Language language = CLD2::ExtDetectLanguageSummaryCheckUTF8(
      text.data(), static_cast<int>(text.size()), true, &hints, 0, language3, percent3, scores3,
      nullptr, &text_bytes, &reliable, &valid_prefix);
  if (language == CLD2::UNKNOWN_LANGUAGE) return {};
  return {CLD2::LanguageCode(language), reliable};
}

// textcat answers "[en--utf8]" when sure, several bracketed candidates when
// not, or SHORT or UNKNOWN.
Identifier textcat(const std::string& conf) {
  std::shared_ptr<void> handle(special_textcat_Init(conf.c_str(), ""), textcat_Done);
  if (!handle) throw std::runtime_error("cannot load " + conf);
  textcat_SetProperty(handle.get(), TCPROP_UTF8AWARE, TC_TRUE);
  return [handle](std::string_view text) -> Answer {
    std::string out = textcat_Classify(handle.get(), text.data(), text.size());
    if (out.empty() || out[0] != '[') return {};
    std::size_t end = out.find(']');
    std::string name = out.substr(1, end - 1);
    return {name.substr(0, name.find('-')), end + 1 == out.size()};
  };
}

Answer quarry_identifier(std::string_view text) {
  std::string language = quarry::identify_language(text);
  if (language.empty()) return {};
  return {quarry::language_code(language), true};
}

// The first `characters` code points of `text`, all of it for 0.
std::string_view cut(std::string_view text, std::size_t characters) {
  if (characters == 0) return text;
  std::size_t at = 0;
  for (std::size_t seen = 0; at < text.size(); ++at) {
    if ((static_cast<unsigned char>(text[at]) & 0xC0) != 0x80 && seen++ == characters) break;
  }
  return text.substr(0, at);
}

std::vector<std::size_t> parse_cuts(const std::string& list) {
  std::vector<std::size_t> cuts;
  std::istringstream in(list);
  for (std::string item; std::getline(in, item, ',');) cuts.push_back(std::stoul(item));
  return cuts;
}

Identifier make_identifier(const std::string& name) {
  if (name == "cld2") return cld2;
  if (name == "quarry") return quarry_identifier;
  if (name.starts_with("textcat:")) return textcat(name.substr(8));
  throw std::runtime_error("unknown identifier " + name);
}

int run(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::cerr << "usage: quarry-language-id IDENTIFIER [CUTS] < texts.jsonl\n";
    return 2;
  }
  Identifier identify = make_identifier(argv[1]);
  std::vector<std::size_t> cuts = parse_cuts(argc == 3 ? argv[2] : "0");
  std::vector<std::pair<std::string, std::string>> texts;
  for (std::string line; std::getline(std::cin, line);) {
    auto json = nlohmann::json::parse(line);
    texts.emplace_back(json.at("language").get<std::string>(), json.at("text").get<std::string>());
  }
  for (std::size_t characters : cuts) {
    for (const auto& [language, text] : texts) {
      Answer answer = identify(cut(text, characters));
      std::cout << characters << '\t' << language << '\t' << answer.code << '\t' << answer.reliable
                << '\n';
    }
  }
  // CPU time, which other work on a shared machine does not inflate.
  std::size_t done = 0;
  std::clock_t start = std::clock();
  double seconds = 0;
  while (!texts.empty() && seconds < 1.0) {
    for (const auto& text : texts) identify(text.second);
    done += texts.size();
    seconds = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
  }
  std::cout << "time\t" << done << '\t' << seconds << '\n';
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "quarry-language-id: " << e.what() << '\n';
    return 1;
  }
}
