// An alert as a line of the log, and back.
#include <cstdint>
#include <nlohmann/json.hpp>

#include "quarry/json_text.h"
#include "quarry/search/alert_log.h"

namespace quarry {

using ordered_json = nlohmann::ordered_json;

std::string alert_json(const Alert& alert) {
  ordered_json object;
  object["cursor"] = alert.cursor;
  object["alert"] = alert.alert;
  object["id"] = alert.id;
  object["title"] = alert.title;
  object["date"] = alert.date;
  object["snippet"] = alert.snippet;
  object["language"] = alert.language;
  object["revision"] = alert.revision;
  return json_text(object);
}

std::optional<Alert> parse_alert_json(std::string_view line) {
  const ordered_json object = ordered_json::parse(line, nullptr, false);
  if (!object.is_object()) return std::nullopt;
  Alert alert;
  try {
    alert.cursor = object.at("cursor").get<std::uint64_t>();
    alert.alert = object.at("alert").get<std::string>();
    alert.id = object.at("id").get<std::string>();
    alert.title = object.value("title", "");
    alert.date = object.value("date", "");
    alert.snippet = object.value("snippet", "");
    alert.language = object.value("language", "");
    alert.revision = object.value("revision", std::uint64_t{0});
  } catch (const ordered_json::exception&) {
    return std::nullopt;
  }
  if (alert.cursor == 0) return std::nullopt;
  return alert;
}

}  // namespace quarry
