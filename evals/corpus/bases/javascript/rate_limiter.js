import { EventEmitter } from 'node:events';

const DEFAULT_OPTIONS = {
  capacity: 60,
  refillPerSecond: 1,
  maxKeys: 10000,
  sweepIntervalMs: 60000,
};

/**
 * A token bucket per key (client IP, API key, ...). Buckets refill lazily when they are read, so an
 * idle key costs nothing until its next request.
 */
export class RateLimiter extends EventEmitter {
  constructor(options = {}) {
    super();
    this.options = { ...DEFAULT_OPTIONS, ...options };
    this.buckets = new Map();
    this.sweepTimer = null;
    if (this.options.sweepIntervalMs > 0) {
      this.sweepTimer = setInterval(() => this.sweep(), this.options.sweepIntervalMs);
      this.sweepTimer.unref?.();
    }
  }

  bucketFor(key, now = Date.now()) {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      if (this.buckets.size >= this.options.maxKeys) {
        this.evictOldest();
      }
      bucket = { tokens: this.options.capacity, updatedAt: now };
      this.buckets.set(key, bucket);
      return bucket;
    }
    const elapsed = (now - bucket.updatedAt) / 1000;
    bucket.tokens = Math.min(
      this.options.capacity,
      bucket.tokens + elapsed * this.options.refillPerSecond
    );
    bucket.updatedAt = now;
    return bucket;
  }

  tryRemove(key, cost = 1) {
    const bucket = this.bucketFor(key);
    if (bucket.tokens < cost) {
      this.emit('limited', key);
      return false;
    }
    bucket.tokens -= cost;
    return true;
  }

  retryAfterMs(key, cost = 1) {
    const bucket = this.bucketFor(key);
    if (bucket.tokens >= cost) {
      return 0;
    }
    const missing = cost - bucket.tokens;
    return Math.ceil((missing / this.options.refillPerSecond) * 1000);
  }

  evictOldest() {
    let oldestKey = null;
    let oldestTime = Infinity;
    for (const [key, bucket] of this.buckets) {
      if (bucket.updatedAt < oldestTime) {
        oldestTime = bucket.updatedAt;
        oldestKey = key;
      }
    }
    if (oldestKey !== null) {
      this.buckets.delete(oldestKey);
      this.emit('evicted', oldestKey);
    }
  }

  sweep(now = Date.now()) {
    const fullAfterMs = (this.options.capacity / this.options.refillPerSecond) * 1000;
    let removed = 0;
    for (const [key, bucket] of this.buckets) {
      if (now - bucket.updatedAt >= fullAfterMs) {
        this.buckets.delete(key);
        removed += 1;
      }
    }
    return removed;
  }

  stats() {
    return {
      keys: this.buckets.size,
      capacity: this.options.capacity,
      refillPerSecond: this.options.refillPerSecond,
    };
  }

  close() {
    if (this.sweepTimer) {
      clearInterval(this.sweepTimer);
      this.sweepTimer = null;
    }
    this.buckets.clear();
  }
}

function clientKey(req) {
  const forwarded = req.headers['x-forwarded-for'];
  if (typeof forwarded === 'string' && forwarded.length > 0) {
    return forwarded.split(',')[0].trim();
  }
  return req.socket?.remoteAddress ?? 'unknown';
}

/**
 * Express/Connect middleware. Sends 429 with a Retry-After header when the bucket is empty.
 */
export function rateLimit(options = {}) {
  const limiter = new RateLimiter(options);
  const keyOf = options.keyOf ?? clientKey;
  const middleware = (req, res, next) => {
    const key = keyOf(req);
    if (limiter.tryRemove(key)) {
      return next();
    }
    const retryMs = limiter.retryAfterMs(key);
    res.setHeader('Retry-After', String(Math.ceil(retryMs / 1000)));
    res.statusCode = 429;
    res.end(JSON.stringify({ error: 'too many requests', retryAfterMs: retryMs }));
    return undefined;
  };
  middleware.limiter = limiter;
  return middleware;
}

export default rateLimit;
