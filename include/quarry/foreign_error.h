// Exceptions that are not Quarry's: what a program that catches one says
// of it. The library translates the errors it expects into quarry::Error
// (error.h); this names the rest, such as a Xapian error it did not.
#ifndef QUARRY_FOREIGN_ERROR_H_
#define QUARRY_FOREIGN_ERROR_H_

#include <exception>
#include <string>

namespace quarry {

// What `error` says of itself, for a program to name it on one line: a
// std::exception's what(), a Xapian error's type and message, or that it is
// of a type unknown here. `error` must not be null.
std::string describe_exception(const std::exception_ptr& error);

}  // namespace quarry

#endif  // QUARRY_FOREIGN_ERROR_H_
