// ... existing code ...
#include <mutex>
#include <queue>
#include <random>
#include <sstream>
// ... existing code ...

Millis backoff_for(int attempt, std::mt19937& rng) {
    // 200ms, 400ms, 800ms, ... capped, plus up to 50% jitter; attempt is 1-based.
    const auto factor = static_cast<std::int64_t>(1) << std::min(attempt - 1, 16);
    const auto base = std::min(Millis{kBaseBackoff.count() * factor}, kMaxBackoff);
    std::uniform_int_distribution<std::int64_t> jitter(0, base.count() / 2);
    return base + Millis{jitter(rng)};
}

// ... existing code ...
        if (job->attempts < std::min(job->spec.max_attempts, kMaxAttempts)) {
            job->state = JobState::Pending;
            job->due = Clock::now() + backoff_for(job->attempts, rng_);
            queue_.push(job);
            return;
        }
        job->state = JobState::Failed;
    }

    SchedulerOptions options_;
    std::mt19937 rng_{std::random_device{}()};
    // ... existing code ...
