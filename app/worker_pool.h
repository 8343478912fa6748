// The threads of `quarry serve` that answer requests, each with its own
// RequestHandler and so its own Searcher.
#ifndef QUARRY_APP_WORKER_POOL_H_
#define QUARRY_APP_WORKER_POOL_H_

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "app/http_response.h"
#include "app/request_handler.h"

namespace quarry {

struct RequestJob {
  std::string method;
  std::string target;
  // Called on the worker's thread with the answer.
  std::function<void(HttpResponse)> done;
};

// A thread a handler, each answering the jobs submitted, in the order
// submitted, as soon as one is free. submit() may be called from any thread.
class WorkerPool {
 public:
  explicit WorkerPool(std::vector<RequestHandler> handlers);
  // Jobs not yet started are dropped: the server stopped waiting for them.
  // Waits for those being answered.
  ~WorkerPool();

  void submit(RequestJob job);

 private:
  void work(RequestHandler& handler);

  std::vector<RequestHandler> handlers_;
  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<RequestJob> jobs_;
  bool closed_ = false;
};

}  // namespace quarry

#endif  // QUARRY_APP_WORKER_POOL_H_
