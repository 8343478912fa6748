// An HTTP answer as the routes make it and the server writes it.
#ifndef QUARRY_APP_SERVER_HTTP_RESPONSE_H_
#define QUARRY_APP_SERVER_HTTP_RESPONSE_H_

#include <string>
#include <utility>
#include <vector>

namespace quarry {

struct HttpResponse {
  int status = 200;
  std::string content_type;
  std::string body;
  // Beyond Content-Type and Content-Length, which the server writes.
  std::vector<std::pair<std::string, std::string>> headers;
};

}  // namespace quarry

#endif  // QUARRY_APP_SERVER_HTTP_RESPONSE_H_
