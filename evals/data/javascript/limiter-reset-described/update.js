export class RateLimiter extends EventEmitter {
  // ... constructor, bucketFor, tryRemove, retryAfterMs ...

  reset(key) {
    const existed = this.buckets.delete(key);
    if (existed) {
      this.emit('reset', key);
    }
    return existed;
  }

  evictOldest() {
    // ... existing code ...
  }

  // ... remaining methods unchanged ...
}
