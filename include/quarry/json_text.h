// How every JSON document Quarry writes becomes text: on one line, with
// U+FFFD in place of text that is not valid UTF-8 rather than an exception
// (stored text is valid UTF-8; a path or a damaged file may not be).
#ifndef QUARRY_JSON_TEXT_H_
#define QUARRY_JSON_TEXT_H_

#include <string>

namespace quarry {

// `json` (an nlohmann::json or ordered_json) on one line, without '\n'.
template <class Json>
std::string json_text(const Json& json) {
  return json.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace quarry

#endif  // QUARRY_JSON_TEXT_H_
