// ... existing code ...
  stats() {
    let limited = 0;
    for (const bucket of this.buckets.values()) {
      if (bucket.tokens < 1) {
        limited += 1;
      }
    }
    return {
      keys: this.buckets.size,
      limited,
      capacity: this.options.capacity,
      refillPerSecond: this.options.refillPerSecond,
    };
  }
