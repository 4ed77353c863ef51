// scheduler.cpp - a small cooperative job scheduler: priorities, retries with backoff, and
// periodic jobs, driven by a single worker thread.

#include "scheduler.hpp"

#include <algorithm>
#include <cassert>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <queue>
#include <sstream>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace acme {
namespace jobs {

namespace {

using Clock = std::chrono::steady_clock;
using Millis = std::chrono::milliseconds;

constexpr int kMaxAttempts = 5;
constexpr Millis kBaseBackoff{200};
constexpr Millis kMaxBackoff{30'000};

Millis backoff_for(int attempt) {
    // 200ms, 400ms, 800ms, ... capped; attempt is 1-based.
    const auto factor = static_cast<std::int64_t>(1) << std::min(attempt - 1, 16);
    return std::min(Millis{kBaseBackoff.count() * factor}, kMaxBackoff);
}

std::string describe(const JobSpec& spec) {
    std::ostringstream out;
    out << spec.name << " (priority " << static_cast<int>(spec.priority) << ")";
    return out.str();
}

}  // namespace

enum class JobState { Pending, Running, Succeeded, Failed, Cancelled };

struct Job {
    JobId id;
    JobSpec spec;
    JobState state = JobState::Pending;
    int attempts = 0;
    Clock::time_point due;
    std::string last_error;
};

struct DueOrder {
    bool operator()(const std::shared_ptr<Job>& a, const std::shared_ptr<Job>& b) const {
        if (a->due != b->due) {
            return a->due > b->due;
        }
        return a->spec.priority < b->spec.priority;
    }
};

class Scheduler::Impl {
public:
    explicit Impl(SchedulerOptions options) : options_(std::move(options)) {}

    ~Impl() { stop(); }

    JobId submit(JobSpec spec) {
        std::lock_guard<std::mutex> lock(mutex_);
        auto job = std::make_shared<Job>();
        job->id = next_id_++;
        job->spec = std::move(spec);
        job->due = Clock::now() + job->spec.delay;
        jobs_.emplace(job->id, job);
        queue_.push(job);
        wake_.notify_one();
        return job->id;
    }

    bool cancel(JobId id) {
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = jobs_.find(id);
        if (it == jobs_.end() || it->second->state != JobState::Pending) {
            return false;
        }
        it->second->state = JobState::Cancelled;
        return true;
    }

    void start() {
        std::lock_guard<std::mutex> lock(mutex_);
        if (running_) {
            return;
        }
        running_ = true;
        worker_ = std::thread([this] { run(); });
    }

    void stop() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (!running_) {
                return;
            }
            running_ = false;
        }
        wake_.notify_all();
        if (worker_.joinable()) {
            worker_.join();
        }
    }

    SchedulerStats stats() const {
        std::lock_guard<std::mutex> lock(mutex_);
        SchedulerStats result;
        for (const auto& [id, job] : jobs_) {
            switch (job->state) {
                case JobState::Pending:
                    ++result.pending;
                    break;
                case JobState::Running:
                    ++result.running;
                    break;
                case JobState::Succeeded:
                    ++result.succeeded;
                    break;
                case JobState::Failed:
                    ++result.failed;
                    break;
                case JobState::Cancelled:
                    ++result.cancelled;
                    break;
            }
        }
        return result;
    }

private:
    void run() {
        std::unique_lock<std::mutex> lock(mutex_);
        while (running_) {
            if (queue_.empty()) {
                wake_.wait(lock);
                continue;
            }
            auto job = queue_.top();
            if (job->state == JobState::Cancelled) {
                queue_.pop();
                continue;
            }
            if (job->due > Clock::now()) {
                wake_.wait_until(lock, job->due);
                continue;
            }
            queue_.pop();
            job->state = JobState::Running;
            ++job->attempts;

            lock.unlock();
            const bool ok = execute(*job);
            lock.lock();

            finish(job, ok);
        }
    }

    bool execute(Job& job) {
        try {
            job.spec.task();
            return true;
        } catch (const std::exception& e) {
            job.last_error = e.what();
        } catch (...) {
            job.last_error = "unknown exception";
        }
        if (options_.on_error) {
            options_.on_error(job.id, describe(job.spec), job.last_error);
        }
        return false;
    }

    void finish(const std::shared_ptr<Job>& job, bool ok) {
        if (ok && job->spec.period.count() > 0) {
            job->state = JobState::Pending;
            job->attempts = 0;
            job->due = Clock::now() + job->spec.period;
            queue_.push(job);
            return;
        }
        if (ok) {
            job->state = JobState::Succeeded;
            return;
        }
        if (job->attempts < std::min(job->spec.max_attempts, kMaxAttempts)) {
            job->state = JobState::Pending;
            job->due = Clock::now() + backoff_for(job->attempts);
            queue_.push(job);
            return;
        }
        job->state = JobState::Failed;
    }

    SchedulerOptions options_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::priority_queue<std::shared_ptr<Job>, std::vector<std::shared_ptr<Job>>, DueOrder> queue_;
    std::unordered_map<JobId, std::shared_ptr<Job>> jobs_;
    JobId next_id_ = 1;
    bool running_ = false;
    std::thread worker_;
};

Scheduler::Scheduler(SchedulerOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {}

Scheduler::~Scheduler() = default;

JobId Scheduler::submit(JobSpec spec) {
    assert(spec.task && "a job needs a task");
    return impl_->submit(std::move(spec));
}

JobId Scheduler::every(std::string name, Millis period, std::function<void()> task) {
    JobSpec spec;
    spec.name = std::move(name);
    spec.period = period;
    spec.task = std::move(task);
    return submit(std::move(spec));
}

bool Scheduler::cancel(JobId id) {
    return impl_->cancel(id);
}

void Scheduler::start() {
    impl_->start();
}

void Scheduler::stop() {
    impl_->stop();
}

SchedulerStats Scheduler::stats() const {
    return impl_->stats();
}

}  // namespace jobs
}  // namespace acme
