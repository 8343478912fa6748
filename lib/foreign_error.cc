#include "quarry/foreign_error.h"

#include <xapian.h>

namespace quarry {

std::string describe_exception(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& thrown) {
    return thrown.what();
  } catch (const Xapian::Error& thrown) {
    return thrown.get_description();
  } catch (...) {
    return "an exception of a type Quarry does not know";
  }
}

}  // namespace quarry
