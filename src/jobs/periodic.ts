/**
 * runs `task` every `ms` while `active()` says so, never two runs at once (a slow run skips
 * the ticks it overlaps); a failure is handed to `onError` and the next tick runs anyway.
 * The timer does not keep the process alive. Returns a function that stops it.
 */
export function every(
  ms: number,
  task: () => Promise<void>,
  o: { active: () => boolean; onError: (err: unknown) => void },
): () => void {
  let busy = false;
  const timer = setInterval(() => {
    if (busy || !o.active()) return;
    busy = true;
    task()
      .catch(o.onError)
      .finally(() => {
        busy = false;
      });
  }, ms);
  timer.unref();
  return () => clearInterval(timer);
}
