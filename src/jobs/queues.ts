import type PgBoss from "pg-boss";

export interface QueueSettings {
  policy: "standard" | "short" | "singleton" | "stately";
  /**
   * longer than the handler can run while its process lives: pg-boss fails a job that runs
   * past it (and its worker moves on while the handler goes on). A dead process's job is
   * taken back by its lease long before this.
   */
  expireInSeconds: number;
  retryLimit: number;
  retryDelay?: number;
}

/**
 * creates the queue, or brings an existing one's settings in line: createQueue leaves a
 * queue that exists untouched, so a deployment made before a change would keep the old ones.
 */
export async function ensureQueue(
  boss: PgBoss,
  name: string,
  settings: QueueSettings,
): Promise<void> {
  const options = { name, retryDelay: 0, ...settings };
  await boss.createQueue(name, options);
  await boss.updateQueue(name, options);
}
