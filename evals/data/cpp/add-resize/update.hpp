template <typename Key, typename Value, typename Hash = std::hash<Key>>
class LruCache {
public:
    // ... existing code ...

    void clear() {
        std::lock_guard<std::mutex> lock(mutex_);
        entries_.clear();
        index_.clear();
    }

    void resize(std::size_t capacity) {
        if (capacity == 0) {
            throw CacheError("LruCache capacity must be positive");
        }
        std::lock_guard<std::mutex> lock(mutex_);
        capacity_ = capacity;
        evict_if_needed_locked();
    }

    // ... existing code ...
};
