// real-time waits (slow replies, latency, callback backoff) that close() can cut short, so a
// stopped sandbox never holds the process open.

export interface Delays {
  sleep(ms: number): Promise<void>;
  /** ends every wait now; later waits end at once */
  releaseAll(): void;
  readonly closed: boolean;
}

export function createDelays(): Delays {
  const waiting = new Set<{ timer: NodeJS.Timeout; done: () => void }>();
  let closed = false;
  return {
    sleep(ms) {
      if (closed || ms <= 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const entry = {
          timer: setTimeout(() => {
            waiting.delete(entry);
            resolve();
          }, ms),
          done: resolve,
        };
        waiting.add(entry);
      });
    },
    releaseAll() {
      closed = true;
      for (const entry of waiting) {
        clearTimeout(entry.timer);
        entry.done();
      }
      waiting.clear();
    },
    get closed() {
      return closed;
    },
  };
}
