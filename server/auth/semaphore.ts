/** Runs at most `limit` tasks at once; up to `maxQueue` more wait their turn, further ones are refused. */
export class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly limit: number,
    readonly maxQueue: number,
  ) {}

  get running(): number {
    return this.active;
  }

  get queued(): number {
    return this.waiting.length;
  }

  /** Whether a new task would be refused. */
  get full(): boolean {
    return this.active >= this.limit && this.waiting.length >= this.maxQueue;
  }

  /** Runs `task` when a slot is free; rejects with `onFull()` at once when the queue is full. */
  async run<T>(task: () => Promise<T>, onFull: () => Error): Promise<T> {
    if (this.active >= this.limit) {
      if (this.waiting.length >= this.maxQueue) throw onFull();
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.active += 1;
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next waiter; otherwise it is freed.
      if (next === undefined) this.active -= 1;
      else next();
    }
  }
}
