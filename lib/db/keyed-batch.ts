// Group commit by key, for statements many requests make at once (rate-limit counters, page versions):
// callers arriving while a statement is in flight wait and go together in the next one, which starts
// as soon as the previous one ends. Under load the statements grow instead of multiplying; when idle a
// caller waits for nothing (or for the rest of the event loop's turn, if `start` says so). A caller
// never joins a statement that began before it arrived: the waiting list is swapped out when one starts.

type Waiter<R> = { resolve: (value: R) => void; reject: (err: unknown) => void };
/** One key's callers in a run, in arrival order, with what the first of them asked for. */
export type Waiting<T, R> = { item: T; waiters: Waiter<R>[] };

export class KeyedBatch<T, R> {
  private waiting = new Map<string, Waiting<T, R>>();
  private running = false;

  /**
   * `run` answers every waiter of a run (with one value per key, or one per waiter); if it throws, every
   * waiter it was given is rejected. `start` schedules the first run after an idle spell (now, by default).
   */
  constructor(
    private readonly run: (batch: Waiting<T, R>[]) => Promise<void>,
    private readonly start: (go: () => void) => void = (go) => go(),
  ) {}

  add(key: string, item: T): Promise<R> {
    let w = this.waiting.get(key);
    if (!w) this.waiting.set(key, (w = { item, waiters: [] }));
    const waiting = w;
    const answer = new Promise<R>((resolve, reject) => waiting.waiters.push({ resolve, reject }));
    if (!this.running) {
      this.running = true;
      this.start(() => void this.drain());
    }
    return answer;
  }

  private async drain() {
    while (this.waiting.size) {
      const batch = [...this.waiting.values()];
      this.waiting = new Map();
      try {
        await this.run(batch);
      } catch (err) {
        for (const w of batch) for (const x of w.waiters) x.reject(err);
      }
    }
    this.running = false;
  }
}
