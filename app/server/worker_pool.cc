#include "app/server/worker_pool.h"

#include <chrono>
#include <utility>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

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

namespace {

// A request that took this long has likely built a large query (thousands
// of terms, each with its postings' buffers): what it freed is then worth
// handing back to the system.
constexpr std::chrono::milliseconds kHeavyRequest{200};

// glibc keeps what a process frees for its next allocations, at the top of
// each thread's arena: after one heavy search a server would hold its peak
// for good. Trimming costs a walk of the free lists, a few milliseconds,
// which only heavy requests pay.
void release_freed_memory() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

}  // namespace

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
    const auto started = std::chrono::steady_clock::now();
    HttpResponse answer = worker->handler.handle(job.method, job.target);
    if (std::chrono::steady_clock::now() - started > kHeavyRequest) release_freed_memory();
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
