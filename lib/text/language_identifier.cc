#include "quarry/text/language_identifier.h"

// compact_lang_det.h uses FILE without including <cstdio>.
#include <cstdio>
//
#include <cld2/public/compact_lang_det.h>
#include <cld2/public/encodings.h>
#include <xapian.h>

#include <algorithm>
#include <array>
#include <set>
#include <sstream>

#include "lib/text/language_evidence.h"
#include "lib/text/utf8_repair.h"

namespace quarry {
namespace {

// An article's language shows in its first pages: reading no more than
// this bounds what the longest article (4 MiB) costs.
constexpr std::size_t kMaxIdentifiedBytes = std::size_t{64} << 10;

// CLD2 calls a text unreliable when a second language holds much of it,
// which a medical leaflet's Latin names or a French article's English
// company name do: one language holding this much of the text is still
// the article's. Measured on eval/multilingual, it tells 98.7% to 100% of
// each collection's articles, against 97.9% to 100% with CLD2's
// reliability alone.
constexpr int kMinIdentifiedPercent = 60;

// A first look at the start of a long text (see identify_language): its
// bytes, and how much of them one language must hold for it to decide.
constexpr std::size_t kFirstLookBytes = 320;
constexpr int kFirstLookPercent = 97;

struct NamedLanguage {
  std::string_view code;  // ISO 639-1
  std::string_view name;  // Xapian's stemmer
};

// Xapian 1.4's Snowball stemmers. A code stands for the first name given
// it; the variants that follow (another algorithm for the same language)
// are found by name only.
constexpr std::array<NamedLanguage, 31> kLanguages = {{
    {"ar", "arabic"},       {"hy", "armenian"},  {"eu", "basque"},          {"ca", "catalan"},
    {"da", "danish"},       {"nl", "dutch"},     {"en", "english"},         {"fi", "finnish"},
    {"fr", "french"},       {"de", "german"},    {"hu", "hungarian"},       {"id", "indonesian"},
    {"ga", "irish"},        {"it", "italian"},   {"lt", "lithuanian"},      {"ne", "nepali"},
    {"no", "norwegian"},    {"nb", "norwegian"}, {"nn", "norwegian"},       {"pt", "portuguese"},
    {"ro", "romanian"},     {"ru", "russian"},   {"es", "spanish"},         {"sv", "swedish"},
    {"ta", "tamil"},        {"tr", "turkish"},   {"en", "porter"},          {"en", "lovins"},
    {"en", "earlyenglish"}, {"de", "german2"},   {"nl", "kraaij_pohlmann"},
}};

// Languages by their own names, as their speakers write them (ASCII case
// ignored), and as they are typed on a keyboard without the accents: a
// researcher filtering German articles types lang:deutsch as readily as
// lang:german.
struct OwnName {
  std::string_view own;   // lower case
  std::string_view name;  // Xapian's stemmer
};
constexpr std::array<OwnName, 29> kOwnNames = {{
    {"العربية", "arabic"},       {"հայերեն", "armenian"},     {"euskara", "basque"},
    {"català", "catalan"},       {"catala", "catalan"},       {"dansk", "danish"},
    {"nederlands", "dutch"},     {"suomi", "finnish"},        {"français", "french"},
    {"francais", "french"},      {"deutsch", "german"},       {"magyar", "hungarian"},
    {"gaeilge", "irish"},        {"italiano", "italian"},     {"lietuvių", "lithuanian"},
    {"lietuviu", "lithuanian"},  {"नेपाली", "nepali"},         {"norsk", "norwegian"},
    {"português", "portuguese"}, {"portugues", "portuguese"}, {"română", "romanian"},
    {"romana", "romanian"},      {"русский", "russian"},      {"español", "spanish"},
    {"espanol", "spanish"},      {"svenska", "swedish"},      {"தமிழ்", "tamil"},
    {"türkçe", "turkish"},       {"turkce", "turkish"},
}};

// The stemmers of the Xapian Quarry runs with, which may lack some of the
// table's or have more.
bool has_stemmer(std::string_view name) {
  static const std::set<std::string, std::less<>> available = [] {
    std::set<std::string, std::less<>> names{"none"};
    std::istringstream list(Xapian::Stem::get_available_languages());
    for (std::string name; list >> name;) names.insert(name);
    return names;
  }();
  return available.contains(name);
}

std::string ascii_lower(std::string_view text) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c; });
  return lower;
}

// What CLD2 reads: well-formed UTF-8 of "interchange-valid" characters,
// which leaves out control characters but tab and line breaks, C1
// controls and noncharacters. CLD2 gives no answer at all for a text
// holding one of them, so each becomes a space, as do ill-formed bytes
// (which first_code_point reads as U+FFFD).
bool cld2_reads(char32_t c) {
  if (c < 0x20) return c == '\t' || c == '\n' || c == '\f' || c == '\r';
  if (c >= 0x7F && c <= 0x9F) return false;
  if (c >= 0xFDD0 && c <= 0xFDEF) return false;
  return (c & 0xFFFE) != 0xFFFE && c != 0xFFFD;
}

std::string readable_by_cld2(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    std::size_t length = 0;
    char32_t c = detail::first_code_point(text, &length);
    if (cld2_reads(c)) {
      out.append(text.substr(0, length));
    } else {
      out.push_back(' ');
    }
    text.remove_prefix(length);
  }
  return out;
}

struct Detection {
  CLD2::Language language = CLD2::UNKNOWN_LANGUAGE;
  bool reliable = false;
  int percent = 0;  // of the text in that language
  int word_bytes = 0;
  bool read_all = false;
};

// The language of most of the text: language3[0], not the summary CLD2
// returns, which for web pages prefers any other language holding a fifth
// of the text to English (taken for boilerplate); in news that would call
// an English story quoting French names French.
Detection detect(std::string_view text) {
  CLD2::CLDHints hints = {nullptr, nullptr, CLD2::UNKNOWN_ENCODING, CLD2::UNKNOWN_LANGUAGE};
  // Left unset when CLD2 refuses the text.
  CLD2::Language language3[3] = {CLD2::UNKNOWN_LANGUAGE, CLD2::UNKNOWN_LANGUAGE,
                                 CLD2::UNKNOWN_LANGUAGE};
  int percent3[3] = {};
  double scores3[3] = {};
  int valid_prefix_bytes = 0;
  Detection result;
  CLD2::ExtDetectLanguageSummaryCheckUTF8(
      text.data(), static_cast<int>(text.size()), true, &hints, 0, language3, percent3, scores3,
      nullptr, &result.word_bytes, &result.reliable, &valid_prefix_bytes);
  result.language = language3[0];
  result.percent = percent3[0];
  result.read_all = static_cast<std::size_t>(valid_prefix_bytes) == text.size();
  return result;
}

}  // namespace

namespace {

// CLD2's reading of `text`, made readable to it first when need be.
Detection detect_readable(std::string_view text) {
  Detection detection = detect(text);
  return detection.read_all ? detection : detect(readable_by_cld2(text));
}

// The stemmer of what `detection` found, when that can be relied on
// (kMinIdentifiedPercent, kMinIdentifiedWordBytes).
std::string stemmer_found(const Detection& detection) {
  if (!(detection.reliable || detection.percent >= kMinIdentifiedPercent) ||
      detection.word_bytes < static_cast<int>(kMinIdentifiedWordBytes)) {
    return {};
  }
  std::string name = stemmer_language(CLD2::LanguageCode(detection.language));
  return name == "none" ? std::string() : name;
}

}  // namespace

std::string identify_language(std::string_view whole) {
  // CLD2 reads capitals as it reads lower case, and takes a headline's
  // names for their language ("RIO DE JANEIRO" for Portuguese).
  const detail::LanguageEvidence evidence =
      detail::language_evidence(detail::utf8_prefix(whole, kMaxIdentifiedBytes));
  if (!evidence.enough) return {};
  const std::string_view text = evidence.text;
  // CLD2's work grows with the text. Most articles say their language in
  // their first lines, so these are read first, and taken when CLD2 is
  // sure of them, wholly in one language; the rest read whole.
  if (text.size() > 2 * kFirstLookBytes) {
    const Detection first = detect_readable(detail::utf8_prefix(text, kFirstLookBytes));
    if (first.reliable && first.percent >= kFirstLookPercent) return stemmer_found(first);
  }
  return stemmer_found(detect_readable(text));
}

std::string stemmer_language(std::string_view code_or_name) {
  std::string lower = ascii_lower(code_or_name);
  if (lower.empty()) return {};
  if (has_stemmer(lower)) return lower;
  std::string_view code = std::string_view(lower).substr(0, lower.find_first_of("-_"));
  for (const NamedLanguage& language : kLanguages) {
    if (!code.empty() && language.code == code) {
      return has_stemmer(language.name) ? std::string(language.name) : std::string();
    }
  }
  for (const OwnName& language : kOwnNames) {
    if (language.own == lower) {
      return has_stemmer(language.name) ? std::string(language.name) : std::string();
    }
  }
  return {};
}

std::string language_label(std::string_view language) {
  std::string code = language_code(language);
  return code.empty() ? std::string(language) : code;
}

std::string language_code(std::string_view language) {
  for (const NamedLanguage& named : kLanguages) {
    if (named.name == language) return std::string(named.code);
  }
  return {};
}

}  // namespace quarry
