#include "app/worker_pool.h"

#include <utility>

namespace quarry {

struct WorkerPool::State {
  std::mutex mutex;
  std::condition_variable ready;
  std::deque<RequestJob> jobs;
  bool closed = false;
};

struct WorkerPool::Worker {
  explicit Worker(RequestHandler h) : handler(std::move(h)) {}
  RequestHandler handler;
  // The job being answered's `done`, guarded by State::mutex; empty when
  // the worker is idle or its job was withdrawn.
  std::function<void(HttpResponse)> done;
  bool busy = false;
};

WorkerPool::WorkerPool(std::vector<RequestHandler> handlers) : state_(std::make_shared<State>()) {
  for (RequestHandler& handler : handlers) {
    workers_.push_back(std::make_shared<Worker>(std::move(handler)));
    threads_.emplace_back(work, state_, workers_.back());
  }
}

WorkerPool::~WorkerPool() {
  std::deque<RequestJob> dropped;
  std::vector<bool> busy;
  {
    std::lock_guard lock(state_->mutex);
    state_->closed = true;
    dropped.swap(state_->jobs);
    for (const auto& worker : workers_) busy.push_back(worker->busy && !worker->done);
  }
  state_->ready.notify_all();
  for (std::size_t i = 0; i < threads_.size(); ++i) {
    // A worker whose job was withdrawn owns all it uses: waiting for it
    // would hold the stop for as long as its search takes.
    if (busy[i]) {
      threads_[i].detach();
    } else {
      threads_[i].join();
    }
  }
}

bool WorkerPool::left_running() const {
  std::lock_guard lock(state_->mutex);
  for (const auto& worker : workers_) {
    if (worker->busy && !worker->done) return true;
  }
  return false;
}

void WorkerPool::submit(RequestJob job) {
  {
    std::lock_guard lock(state_->mutex);
    state_->jobs.push_back(std::move(job));
  }
  state_->ready.notify_one();
}

std::vector<std::function<void(HttpResponse)>> WorkerPool::withdraw() {
  std::vector<std::function<void(HttpResponse)>> withdrawn;
  std::lock_guard lock(state_->mutex);
  for (const auto& worker : workers_) {
    if (worker->done) withdrawn.push_back(std::exchange(worker->done, nullptr));
  }
  for (RequestJob& job : state_->jobs) withdrawn.push_back(std::move(job.done));
  state_->jobs.clear();
  return withdrawn;
}

void WorkerPool::work(const std::shared_ptr<State>& state, const std::shared_ptr<Worker>& worker) {
  for (;;) {
    RequestJob job;
    {
      std::unique_lock lock(state->mutex);
      worker->busy = false;
      state->ready.wait(lock, [&] { return state->closed || !state->jobs.empty(); });
      if (state->closed) return;
      job = std::move(state->jobs.front());
      state->jobs.pop_front();
      worker->done = std::move(job.done);
      worker->busy = true;
    }
    HttpResponse answer = worker->handler.handle(job.method, job.target);
    std::function<void(HttpResponse)> done;
    {
      std::lock_guard lock(state->mutex);
      done = std::exchange(worker->done, nullptr);
      // Called under the lock, so that withdraw() never returns while a
      // worker is calling a job's `done`.
      if (done) done(std::move(answer));
    }
  }
}

}  // namespace quarry
