// lru_cache.hpp - thread-safe LRU cache with per-entry expiry and hit statistics.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <list>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>

namespace acme {
namespace cache {

using Clock = std::chrono::steady_clock;

struct CacheStats {
    std::size_t hits = 0;
    std::size_t misses = 0;
    std::size_t evictions = 0;
    std::size_t expirations = 0;

    double hit_ratio() const {
        const std::size_t total = hits + misses;
        return total == 0 ? 0.0 : static_cast<double>(hits) / static_cast<double>(total);
    }
};

class CacheError : public std::runtime_error {
public:
    explicit CacheError(const std::string& what) : std::runtime_error(what) {}
};

template <typename Key, typename Value, typename Hash = std::hash<Key>>
class LruCache {
public:
    using Loader = std::function<Value(const Key&)>;

    explicit LruCache(std::size_t capacity, Clock::duration ttl = std::chrono::minutes(5))
        : capacity_(capacity), ttl_(ttl) {
        if (capacity_ == 0) {
            throw CacheError("LruCache capacity must be positive");
        }
    }

    LruCache(const LruCache&) = delete;
    LruCache& operator=(const LruCache&) = delete;

    std::optional<Value> get(const Key& key) {
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = index_.find(key);
        if (it == index_.end()) {
            ++stats_.misses;
            return std::nullopt;
        }
        if (expired(*it->second)) {
            erase_locked(it);
            ++stats_.expirations;
            ++stats_.misses;
            return std::nullopt;
        }
        entries_.splice(entries_.begin(), entries_, it->second);
        ++stats_.hits;
        return it->second->value;
    }

    void put(const Key& key, Value value) {
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = index_.find(key);
        if (it != index_.end()) {
            it->second->value = std::move(value);
            it->second->expires_at = Clock::now() + ttl_;
            entries_.splice(entries_.begin(), entries_, it->second);
            return;
        }
        entries_.push_front(Entry{key, std::move(value), Clock::now() + ttl_});
        index_.emplace(key, entries_.begin());
        evict_if_needed_locked();
    }

    Value get_or_load(const Key& key, const Loader& loader) {
        if (auto cached = get(key)) {
            return *cached;
        }
        Value loaded = loader(key);
        put(key, loaded);
        return loaded;
    }

    bool erase(const Key& key) {
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = index_.find(key);
        if (it == index_.end()) {
            return false;
        }
        erase_locked(it);
        return true;
    }

    void clear() {
        std::lock_guard<std::mutex> lock(mutex_);
        entries_.clear();
        index_.clear();
    }

    std::size_t size() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return entries_.size();
    }

    CacheStats stats() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return stats_;
    }

private:
    struct Entry {
        Key key;
        Value value;
        Clock::time_point expires_at;
    };

    using EntryList = std::list<Entry>;
    using Index = std::unordered_map<Key, typename EntryList::iterator, Hash>;

    bool expired(const Entry& entry) const {
        return Clock::now() >= entry.expires_at;
    }

    void erase_locked(typename Index::iterator it) {
        entries_.erase(it->second);
        index_.erase(it);
    }

    void evict_if_needed_locked() {
        while (entries_.size() > capacity_) {
            const Entry& last = entries_.back();
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
    mutable std::mutex mutex_;
};

// Caches rendered templates by name; the renderer is injected so tests can count calls.
class TemplateCache {
public:
    using Renderer = std::function<std::string(const std::string&)>;

    TemplateCache(std::size_t capacity, Renderer renderer);

    std::string render(const std::string& name);
    void invalidate(const std::string& name);
    CacheStats stats() const;

private:
    LruCache<std::string, std::string> cache_;
    Renderer renderer_;
};

inline TemplateCache::TemplateCache(std::size_t capacity, Renderer renderer)
    : cache_(capacity), renderer_(std::move(renderer)) {
    if (!renderer_) {
        throw CacheError("TemplateCache needs a renderer");
    }
}

inline std::string TemplateCache::render(const std::string& name) {
    return cache_.get_or_load(name, renderer_);
}

inline void TemplateCache::invalidate(const std::string& name) {
    cache_.erase(name);
}

inline CacheStats TemplateCache::stats() const {
    return cache_.stats();
}

}  // namespace cache
}  // namespace acme
