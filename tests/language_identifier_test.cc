#include "quarry/text/language_identifier.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "quarry/text/analyzer.h"
#include "tests/table_case.h"

namespace quarry {
namespace {

const char kGerman[] =
    "Die Bundesregierung will die Steuern für Familien mit kleinen Kindern im kommenden Jahr "
    "senken. Der Finanzminister sagte am Montag in Berlin, die Einnahmen des Staates seien "
    "höher als erwartet, und die Bürger sollten davon profitieren.";
const char kFrench[] =
    "Le gouvernement a annoncé lundi une baisse des impôts pour les familles avec de jeunes "
    "enfants l'année prochaine. Selon le ministre des Finances, les recettes de l'État sont "
    "plus élevées que prévu et les citoyens doivent en profiter.";
const char kPortuguese[] =
    "O governo anunciou na segunda-feira uma redução dos impostos para as famílias com "
    "crianças pequenas no próximo ano. Segundo o ministro das Finanças, as receitas do Estado "
    "são mais altas do que o previsto e os cidadãos devem beneficiar disso.";
const char kSwedish[] =
    "Regeringen meddelade på måndagen att skatterna för barnfamiljer ska sänkas nästa år. "
    "Enligt finansministern är statens inkomster högre än väntat, och medborgarna ska få "
    "del av överskottet.";
const char kEnglish[] =
    "The government said on Monday that taxes for families with young children would fall "
    "next year. According to the finance minister, the state's revenue is higher than "
    "expected, and citizens should benefit from it.";

TEST(LanguageIdentifierTest, IdentifiesArticles) {
  const struct {
    std::string text;
    std::string language;
  } cases[] = {
      {kGerman, "german"},
      {kFrench, "french"},
      {kPortuguese, "portuguese"},
      {kSwedish, "swedish"},
      {kEnglish, "english"},
      // As old wire stories and magazines set it.
      {"THE GOVERNMENT SAID ON MONDAY THAT TAXES FOR FAMILIES WITH YOUNG CHILDREN WOULD FALL "
       "NEXT YEAR, AS THE STATE'S REVENUE IS HIGHER THAN EXPECTED.",
       "english"},
      {"El gobierno anunció el lunes una rebaja de los impuestos para las familias con niños "
       "pequeños el año que viene, porque los ingresos del Estado son mayores de lo previsto.",
       "spanish"},
      {"Правительство объявило в понедельник, что налоги для семей с маленькими детьми в "
       "следующем году будут снижены, так как доходы государства выше ожидаемых.",
       "russian"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(identify_language(c.text), c.language) << c.text;
  }
}

// What is identified can be given to an Analyzer.
TEST(LanguageIdentifierTest, AnswersAreStemmerNames) {
  for (const char* text : {kGerman, kFrench, kPortuguese, kSwedish, kEnglish}) {
    std::string language = identify_language(text);
    ASSERT_FALSE(language.empty()) << text;
    EXPECT_NO_THROW(check_language(language)) << language;
  }
}

TEST(LanguageIdentifierTest, ShortTextIsUnreliable) {
  for (const char* text :
       {"", "   \n", "Paris", "Hello world", "Fußball", "Der Hund bellt", "Le gouvernement"}) {
    EXPECT_EQ(identify_language(text), "") << text;
  }
}

TEST(LanguageIdentifierTest, NoiseIsUnreliable) {
  for (const char* text : {
           "12345 67890 !!! ??? 3.1415926 2,718 -- ### 1987-03-26 <<< >>> 100% $42",
           "xqzv brrkt fnowlp qwzx ptkrrs vbnmq zxcvb lkjhg mnbvc qpwoe rutyi aslkd zmxnc",
           // A sentence each in eight languages, none of them most of the text.
           "The government said on Monday. Le gouvernement a annoncé lundi. Die Regierung "
           "sagte am Montag. O governo anunciou na segunda-feira. Regeringen meddelade på "
           "måndagen. El gobierno anunció el lunes. Il governo ha annunciato lunedì. De "
           "regering maakte maandag bekend.",
           "Guten Morgen, bonjour, good morning, bom dia, god morgon, buenos días, buongiorno, "
           "goedemorgen, dzień dobry, hyvää huomenta.",
       }) {
    EXPECT_EQ(identify_language(text), "") << text;
  }
}

TEST(LanguageIdentifierTest, LanguageWithoutStemmerIsUnreliable) {
  for (const char* text : {
           // Polish, Greek and Japanese have no Snowball stemmer in Xapian 1.4.
           "Rząd ogłosił w poniedziałek, że podatki dla rodzin z małymi dziećmi zostaną obniżone "
           "w przyszłym roku, ponieważ dochody państwa są wyższe od oczekiwanych.",
           "Η κυβέρνηση ανακοίνωσε τη Δευτέρα ότι οι φόροι για τις οικογένειες με μικρά παιδιά "
           "θα μειωθούν τον επόμενο χρόνο, επειδή τα έσοδα του κράτους είναι υψηλότερα.",
           "政府は月曜日、国の税収が予想を上回ったため、来年は小さな子どものいる家庭の税金を"
           "引き下げると発表した。",
       }) {
    EXPECT_EQ(identify_language(text), "") << text;
  }
}

// A story in one language quoting another is in the first: the language of
// most of the text wins, even where CLD2's own summary, made for web pages,
// would take English for boilerplate and answer the other.
TEST(LanguageIdentifierTest, MostOfTheTextDecides) {
  std::string text =
      "The French finance ministry published its forecast on Monday. The minister told "
      "reporters in Paris that growth would slow next year. Asked about the budget, he said: "
      "«Le gouvernement tiendra ses engagements et les impôts baisseront pour toutes les "
      "familles, car les recettes de l'État sont plus élevées que prévu cette année.» "
      "Analysts in London said the forecast was too optimistic, and the pound fell.";
  EXPECT_EQ(identify_language(text), "english");
}

// A long text whose start is clearly in one language is in that language,
// told from its start alone: a French story ending in a long English
// quote is French, though most of its words are English.
TEST(LanguageIdentifierTest, AClearStartTellsALongText) {
  std::string text = std::string(kFrench) + ' ' + kFrench + "\n";
  for (int i = 0; i < 5; ++i) text += std::string(kEnglish) + ' ';
  ASSERT_GT(text.size(), 2 * 320u);
  EXPECT_EQ(identify_language(text), "french");
}

TEST(LanguageIdentifierTest, SkipsWhatIsNotText) {
  std::string german = kGerman;
  std::string broken = german.substr(0, 40) + "\xFF\xC0" + german.substr(40, 60) + "\x01\x7F" +
                       german.substr(100) + "\xEF\xBF\xBF";
  EXPECT_EQ(identify_language(broken), "german");
}

// Only the first 64 KiB are read: 70 KiB of Swedish, then a mebibyte of
// German, is Swedish.
TEST(LanguageIdentifierTest, ReadsTheStartOfLongText) {
  std::string text;
  while (text.size() < std::size_t{70} << 10) text += std::string(kSwedish) + '\n';
  while (text.size() < std::size_t{1} << 20) text += std::string(kGerman) + '\n';
  EXPECT_EQ(identify_language(text), "swedish");
}

// A headline set in capitals is mostly names, acronyms and figures, which
// CLD2 reads as the language of the names: too short to tell, even with a
// few words in lower case.
TEST(LanguageIdentifierTest, HeadlinesInCapitalsAreTooShort) {
  for (const char* text : {
           "RIO DE JANEIRO - IBC ESTIMATES 1987-88 COFFEE CROP AT 35.2 MLN BAGS",
           "SAO PAULO - PETROBRAS RAISES GASOLINE PRICE 10 PCT",
           // Beside a few words in lower case.
           "RIO DE JANEIRO - IBC ESTIMATES COFFEE CROP AT 35.2 MLN BAGS, exporters say",
       }) {
    EXPECT_EQ(identify_language(text), "") << text;
  }
}

// In text written in lower case, words in capitals are names and acronyms:
// the language is the lower-case words'.
TEST(LanguageIdentifierTest, WordsInCapitalsAreNamesBesideLowerCase) {
  EXPECT_EQ(identify_language("RIO DE JANEIRO - IBC closes export registrations - exporters."),
            "english");
  EXPECT_EQ(identify_language("SAO PAULO ESTADO DE MINAS GERAIS - " + std::string(kGerman)),
            "german");
  // Capitalized words are no capitals: a short German headline's nouns.
  EXPECT_EQ(identify_language("Regierung senkt Steuern für Familien mit Kindern"), "german");
  // A text wholly in capitals and long enough is read as it is.
  EXPECT_EQ(identify_language("LE GOUVERNEMENT A ANNONCÉ LUNDI UNE BAISSE DES IMPÔTS POUR LES "
                              "FAMILLES AVEC DE JEUNES ENFANTS L'ANNÉE PROCHAINE."),
            "french");
}

TEST(LanguageIdentifierTest, StemmerLanguageOfCodesAndNames) {
  const testing::TextCase cases[] = {
      {"fr", "french"},
      {"FR", "french"},
      {"de", "german"},
      {"pt", "portuguese"},
      {"sv", "swedish"},
      {"en", "english"},
      {"nb", "norwegian"},
      {"nn", "norwegian"},
      {"pt-BR", "portuguese"},
      {"en_GB", "english"},
      {"french", "french"},
      {"German", "german"},
      {"german2", "german2"},
      {"porter", "porter"},
      {"kraaij_pohlmann", "kraaij_pohlmann"},
      {"none", "none"},
      {"el", ""},
      {"pl", ""},
      {"ja", ""},
      {"japanese", ""},
      {"xx", ""},
      {"f", ""},
      {"", ""},
      {"-fr", ""},
      // Languages by their own names, with and without their accents.
      {"deutsch", "german"},
      {"Deutsch", "german"},
      {"français", "french"},
      {"Français", "french"},
      {"francais", "french"},
      {"español", "spanish"},
      {"português", "portuguese"},
      {"svenska", "swedish"},
      {"русский", "russian"},
      {"deutch", ""},
      {"french ", ""},
  };
  for (const auto& [given, language] : cases) {
    EXPECT_EQ(stemmer_language(given), language) << given;
  }
}

TEST(LanguageIdentifierTest, LanguageCodes) {
  const struct {
    std::string language;
    std::string code;
  } cases[] = {
      {"french", "fr"},          {"german", "de"},    {"portuguese", "pt"}, {"swedish", "sv"},
      {"english", "en"},         {"norwegian", "no"}, {"porter", "en"},     {"german2", "de"},
      {"kraaij_pohlmann", "nl"}, {"none", ""},        {"klingon", ""},      {"", ""},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(language_code(c.language), c.code) << c.language;
  }
}

// Every stemmer is named by its own name, and by its code when it has one.
TEST(LanguageIdentifierTest, EveryStemmerMaps) {
  std::istringstream names(Analyzer::available_languages());
  for (std::string name; names >> name;) {
    EXPECT_EQ(stemmer_language(name), name);
    std::string code = language_code(name);
    if (code.empty()) continue;
    EXPECT_EQ(language_code(stemmer_language(code)), code) << name;
  }
}

}  // namespace
}  // namespace quarry
