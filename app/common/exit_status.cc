#include "app/common/exit_status.h"

#include <new>

#include "quarry/error.h"
#include "quarry/foreign_error.h"

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
  } catch (const std::bad_alloc&) {
    // Said without building a string: there may be no memory for one.
    err << program << ": out of memory\n";
    return kExitFailure;
  } catch (...) {
    err << program << ": unexpected error: " << describe_exception(std::current_exception())
        << '\n';
    return kExitFailure;
  }
}

}  // namespace quarry
