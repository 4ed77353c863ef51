// ... rest of the code ...

  tryRemove(key, cost = 1, now = Date.now()) {
    const bucket = this.bucketFor(key, now);
    if (bucket.tokens < cost) {
      this.emit('limited', key);
      return false;
    }
    bucket.tokens -= cost;
    return true;
  }

// ... rest of the code ...
