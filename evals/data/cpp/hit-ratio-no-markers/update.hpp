    double hit_ratio() const {
        const std::size_t total = hits + misses;
        if (total == 0) {
            return 0.0;
        }
        return 100.0 * static_cast<double>(hits) / static_cast<double>(total);
    }
