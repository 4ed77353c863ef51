// ... existing code ...
  bucketFor(key, now = Date.now()) {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = { tokens: this.options.capacity, updatedAt: now };
      this.buckets.set(key, bucket);
      return bucket;
    }
    // ... existing code ...
  }

  // ... existing code ...

  // remove evictOldest()

  sweep(now = Date.now()) {
// ... existing code ...
