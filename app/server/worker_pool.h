// The threads of `quarry serve` that answer requests, each with its own
// RequestHandler and so its own Searcher.
#ifndef QUARRY_APP_SERVER_WORKER_POOL_H_
#define QUARRY_APP_SERVER_WORKER_POOL_H_

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "app/server/http_response.h"
#include "app/server/request_handler.h"

namespace quarry {

struct RequestJob {
  std::string method;
  std::string target;
  // Called on the worker's thread with the answer, unless the job was
  // withdrawn first.
  std::function<void(HttpResponse)> done;
};

// A thread a handler, each answering the jobs submitted, in the order
// submitted, as soon as one is free. submit() may be called from any thread.
class WorkerPool {
 public:
  explicit WorkerPool(std::vector<RequestHandler> handlers);
  // Jobs not yet started are dropped: the server stopped waiting for them.
  // Waits for threads that are answering a job not withdrawn; the others
  // are left to finish on their own (see left_running()).
  ~WorkerPool();

  void submit(RequestJob job);

  // The `done` of every job submitted and not yet answered, started or not:
  // none of them will be called by a worker any more, so that the caller
  // may answer them itself and free what they hold. A worker still
  // answering one carries on, and its answer is dropped.
  std::vector<std::function<void(HttpResponse)>> withdraw();

  // Whether some thread is still answering a withdrawn job. Destroying the
  // pool then leaves it running, holding nothing of the caller's, until it
  // is done or the process ends.
  bool left_running() const;

 private:
  // Shared with the threads, which may outlive the pool.
  struct State;
  struct Worker;
  static void work(const std::shared_ptr<State>& state, const std::shared_ptr<Worker>& worker);

  std::shared_ptr<State> state_;
  std::vector<std::shared_ptr<Worker>> workers_;
  std::vector<std::thread> threads_;
};

}  // namespace quarry

#endif  // QUARRY_APP_SERVER_WORKER_POOL_H_
