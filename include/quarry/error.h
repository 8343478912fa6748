// Errors thrown by the Quarry engine. Every exception the library lets out
// derives from quarry::Error and carries a one-line message that names what
// is at fault (a path, a line, a query), ready to show to a user.
// An error is an immutable value once thrown: one object may be read from
// several threads at once.
#ifndef QUARRY_ERROR_H_
#define QUARRY_ERROR_H_

#include <cstddef>
#include <stdexcept>
#include <string>

namespace quarry {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The index folder does not exist or holds no Quarry index.
class IndexNotFoundError : public Error {
 public:
  using Error::Error;
};

// Another process holds the index's write lock.
class IndexLockedError : public Error {
 public:
  using Error::Error;
};

// The index cannot be opened, read or written (corruption, disk full,
// permissions, or an index built with incompatible settings).
class IndexError : public Error {
 public:
  using Error::Error;
};

// An input path that cannot be read at all (missing, not a file or folder).
class InputError : public Error {
 public:
  using Error::Error;
};

// An analyzer setting that cannot be honoured, such as an unknown language.
class ConfigError : public Error {
 public:
  using Error::Error;
};

// A query that cannot be parsed. `column` is the 1-based position, counted in
// Unicode code points, of the character at fault.
class QueryError : public Error {
 public:
  QueryError(const std::string& query, std::size_t column, const std::string& reason);

  const std::string& query() const { return query_; }
  std::size_t column() const { return column_; }
  const std::string& reason() const { return reason_; }

 protected:
  // A query that names what does not exist, said as `message`.
  QueryError(const std::string& message, const std::string& query, const std::string& reason);

 private:
  std::string query_;
  std::size_t column_;
  std::string reason_;
};

// An article id that the index does not hold, where a query names one
// (SearchOptions::like).
class UnknownArticleError : public QueryError {
 public:
  explicit UnknownArticleError(const std::string& id);
};

}  // namespace quarry

#endif  // QUARRY_ERROR_H_
