#include "app/common/exit_status.h"

#include "quarry/error.h"

namespace quarry {

int run_reporting_errors(std::string_view program, std::ostream& err, InputErrorIs input,
                         const std::function<int()>& body) {
  try {
    return body();
  } catch (const ConfigError& error) {
    err << program << ": " << error.what() << '\n';
    return kExitUsage;
  } catch (const QueryError& error) {
    err << program << ": " << error.what() << '\n';
    return kExitUsage;
  } catch (const InputError& error) {
    err << program << ": " << error.what() << '\n';
    return input == InputErrorIs::kUsage ? kExitUsage : kExitFailure;
  } catch (const Error& error) {
    err << program << ": " << error.what() << '\n';
    return kExitFailure;
  }
}

}  // namespace quarry
