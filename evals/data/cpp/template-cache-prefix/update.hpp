// ... existing code ...

class TemplateCache {
public:
    using Renderer = std::function<std::string(const std::string&)>;

    TemplateCache(std::size_t capacity, Renderer renderer, std::string prefix = "");

    // ... existing code ...

private:
    LruCache<std::string, std::string> cache_;
    Renderer renderer_;
    std::string prefix_;
};

inline TemplateCache::TemplateCache(std::size_t capacity, Renderer renderer, std::string prefix)
    : cache_(capacity), renderer_(std::move(renderer)), prefix_(std::move(prefix)) {
    // ... existing code ...
}

inline std::string TemplateCache::render(const std::string& name) {
    return cache_.get_or_load(prefix_ + name, [this](const std::string& key) {
        return renderer_(key.substr(prefix_.size()));
    });
}

inline void TemplateCache::invalidate(const std::string& name) {
    cache_.erase(prefix_ + name);
}

// ... existing code ...
