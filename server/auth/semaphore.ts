export interface SemaphoreLimits {
  /** Tasks running at once. */
  limit: number;
  /** The longest a task waits for a slot before it is refused. */
  maxWaitMs: number;
  /** Tasks waiting at once, all keys together: beyond it a task is refused at once (a bound on memory, not a rate). */
  maxQueued: number;
}

interface Waiter {
  resolve(): void;
  timer: NodeJS.Timeout;
}

/**
 * Runs at most `limit` tasks at once. Waiting tasks queue per key (the client's address) and take free
 * slots key by key in turn, so a burst from one address waits behind itself and never in front of another
 * address: a sign-in from elsewhere waits for about one task per busy address, however long the burst.
 * A task is refused only when it has waited `maxWaitMs`, or when `maxQueued` tasks wait already.
 */
export class Semaphore {
  private active = 0;
  private waiting = 0;
  /** In turn order: the key served next is first; a served key with more waiting moves to the back. */
  private readonly queues = new Map<string, Waiter[]>();

  constructor(private readonly limits: SemaphoreLimits) {}

  get limit(): number {
    return this.limits.limit;
  }

  get running(): number {
    return this.active;
  }

  get queued(): number {
    return this.waiting;
  }

  /** Runs `task` when a slot is free and it is `key`'s turn; rejects with `onBusy()` when it cannot wait. */
  async run<T>(key: string, task: () => Promise<T>, onBusy: () => Error): Promise<T> {
    if (this.active < this.limits.limit) this.active += 1;
    else await this.wait(key, onBusy);
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  private wait(key: string, onBusy: () => Error): Promise<void> {
    if (this.waiting >= this.limits.maxQueued) return Promise.reject(onBusy());
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        timer: setTimeout(() => {
          this.remove(key, waiter);
          reject(onBusy());
        }, this.limits.maxWaitMs).unref(),
      };
      const queue = this.queues.get(key);
      if (queue === undefined) this.queues.set(key, [waiter]);
      else queue.push(waiter);
      this.waiting += 1;
    });
  }

  private remove(key: string, waiter: Waiter): void {
    const queue = this.queues.get(key) ?? [];
    const at = queue.indexOf(waiter);
    if (at < 0) return;
    queue.splice(at, 1);
    this.waiting -= 1;
    if (queue.length === 0) this.queues.delete(key);
  }

  /** The slot passes straight to the next key's first waiter; otherwise it is freed. */
  private release(): void {
    const next = this.queues.entries().next();
    if (next.done === true) {
      this.active -= 1;
      return;
    }
    const [key, queue] = next.value;
    const waiter = queue.shift();
    this.queues.delete(key);
    if (queue.length > 0) this.queues.set(key, queue);
    if (waiter === undefined) {
      this.active -= 1;
      return;
    }
    this.waiting -= 1;
    clearTimeout(waiter.timer);
    waiter.resolve();
  }
}
