class Scheduler::Impl {
public:
    // ... existing code ...

    void stop() {
        // ... existing code ...
    }

    void pause() {
        std::lock_guard<std::mutex> lock(mutex_);
        paused_ = true;
    }

    void resume() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            paused_ = false;
        }
        wake_.notify_all();
    }

    // ... existing code ...

private:
    void run() {
        std::unique_lock<std::mutex> lock(mutex_);
        while (running_) {
            if (paused_ || queue_.empty()) {
                wake_.wait(lock);
                continue;
            }
            // ... existing code ...
        }
    }

    // ... existing code ...
    JobId next_id_ = 1;
    bool running_ = false;
    bool paused_ = false;
    std::thread worker_;
};

// ... existing code ...

void Scheduler::stop() {
    impl_->stop();
}

void Scheduler::pause() {
    impl_->pause();
}

void Scheduler::resume() {
    impl_->resume();
}

// ... existing code ...
