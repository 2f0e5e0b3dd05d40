/**
 * wakes waiters when something changed, so long polls sleep instead of busy-polling.
 * waiters re-check their own condition after waking: notify() carries no data.
 */
export interface Notifier {
  notify(): void;
  /** resolves true when notified, false on timeout or abort */
  wait(timeoutMs: number, signal?: AbortSignal): Promise<boolean>;
  /** wakes everyone with false; used on shutdown */
  cancelAll(): void;
}

export function createNotifier(): Notifier {
  const waiters = new Set<(notified: boolean) => void>();

  const settleAll = (notified: boolean) => {
    const current = [...waiters];
    waiters.clear();
    for (const settle of current) settle(notified);
  };

  return {
    notify: () => settleAll(true),
    cancelAll: () => settleAll(false),
    wait(timeoutMs, signal) {
      if (signal?.aborted || timeoutMs <= 0) return Promise.resolve(false);
      return new Promise<boolean>((resolve) => {
        const settle = (notified: boolean) => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          waiters.delete(settle);
          resolve(notified);
        };
        const onAbort = () => settle(false);
        const timer = setTimeout(() => settle(false), timeoutMs);
        signal?.addEventListener("abort", onAbort, { once: true });
        waiters.add(settle);
      });
    },
  };
}

/**
 * waits until `ready()` holds, sleeping on the notifier in between; false on timeout/abort.
 * deadlines use the monotonic clock: an injected app Clock may be frozen in tests.
 */
export async function waitUntil(
  notifier: () => Notifier,
  ready: () => boolean,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!ready()) {
    const left = deadline - performance.now();
    if (left <= 0 || signal?.aborted) return false;
    // a timeout, abort or shutdown (cancelAll): stop waiting rather than spin
    if (!(await notifier().wait(left, signal))) return ready();
  }
  return true;
}
