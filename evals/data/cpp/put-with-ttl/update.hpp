    // ... constructor and get() unchanged ...

    void put(const Key& key, Value value, std::optional<Clock::duration> ttl = std::nullopt) {
        std::lock_guard<std::mutex> lock(mutex_);
        const auto expires_at = Clock::now() + ttl.value_or(ttl_);
        auto it = index_.find(key);
        if (it != index_.end()) {
            it->second->value = std::move(value);
            it->second->expires_at = expires_at;
            entries_.splice(entries_.begin(), entries_, it->second);
            return;
        }
        entries_.push_front(Entry{key, std::move(value), expires_at});
        index_.emplace(key, entries_.begin());
        evict_if_needed_locked();
    }

    // ... remaining members unchanged ...
