#include "app/worker_pool.h"

#include <utility>

namespace quarry {

WorkerPool::WorkerPool(std::vector<RequestHandler> handlers) : handlers_(std::move(handlers)) {
  // handlers_ never grows, so each thread's reference stays valid.
  for (RequestHandler& handler : handlers_) {
    threads_.emplace_back([this, &handler] { work(handler); });
  }
}

WorkerPool::~WorkerPool() {
  std::deque<RequestJob> dropped;
  {
    std::lock_guard lock(mutex_);
    closed_ = true;
    dropped.swap(jobs_);
  }
  ready_.notify_all();
  for (std::thread& thread : threads_) thread.join();
}

void WorkerPool::submit(RequestJob job) {
  {
    std::lock_guard lock(mutex_);
    jobs_.push_back(std::move(job));
  }
  ready_.notify_one();
}

void WorkerPool::work(RequestHandler& handler) {
  for (;;) {
    RequestJob job;
    {
      std::unique_lock lock(mutex_);
      ready_.wait(lock, [&] { return closed_ || !jobs_.empty(); });
      if (closed_) return;
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    job.done(handler.handle(job.method, job.target));
  }
}

}  // namespace quarry
