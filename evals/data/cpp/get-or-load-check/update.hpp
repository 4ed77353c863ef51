    Value get_or_load(const Key& key, const Loader& loader) {
        if (auto cached = get(key)) {
            return *cached;
        }
        if (!loader) {
            throw CacheError("get_or_load needs a loader");
        }
        Value loaded = loader(key);
        put(key, loaded);
        return loaded;
    }
