    // ... keep existing code

    CacheStats stats() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return stats_;
    }

    void on_evict(std::function<void(const Key&, const Value&)> callback) {
        std::lock_guard<std::mutex> lock(mutex_);
        on_evict_ = std::move(callback);
    }

private:
    // ... keep existing code

    void evict_if_needed_locked() {
        while (entries_.size() > capacity_) {
            const Entry& last = entries_.back();
            if (on_evict_) {
                on_evict_(last.key, last.value);
            }
            index_.erase(last.key);
            entries_.pop_back();
            ++stats_.evictions;
        }
    }

    std::size_t capacity_;
    Clock::duration ttl_;
    EntryList entries_;
    Index index_;
    CacheStats stats_;
    std::function<void(const Key&, const Value&)> on_evict_;
    mutable std::mutex mutex_;
};

// ... keep existing code
