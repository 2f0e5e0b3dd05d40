// a send many callers ask for at once, made once: every settled order asks the notification
// drain to run (a pg-boss job, one round trip on its pool each), and under load the orders of
// one process settle faster than those round trips come back.

/**
 * `send` run now, or, while one is on its way, once more after it for every caller who asked
 * meanwhile: each caller's promise is of a send that started after the call (so what the
 * caller committed before asking is there for the job it wakes), and at most one waits
 */
export function coalesced(send: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  let queued: Promise<void> | undefined;
  const start = (): Promise<void> => {
    const sent = send().finally(() => {
      if (running === sent) running = undefined;
    });
    running = sent;
    return sent;
  };
  return () => {
    if (!running) return start();
    queued ??= running
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        queued = undefined;
        return start();
      });
    return queued;
  };
}
