// ... existing code ...
struct CacheStats {
    std::size_t hits = 0;
    std::size_t misses = 0;
    std::size_t evictions = 0;

    double hit_ratio() const {
// ... existing code ...
        if (expired(*it->second)) {
            erase_locked(it);
            ++stats_.misses;
            return std::nullopt;
        }
// ... existing code ...
