import { eq, sql } from "drizzle-orm";
import type { Executor } from "../db/client.ts";
import { settings } from "../db/schema.ts";

/** reads a shop setting, falling back to its default when unset or of the wrong type. */
export async function getSetting<T>(
  exec: Executor,
  key: string,
  fallback: T,
  guard: (v: unknown) => v is T,
): Promise<T> {
  const [row] = await exec.select().from(settings).where(eq(settings.key, key));
  return row && guard(row.value) ? row.value : fallback;
}

export async function putSetting(exec: Executor, key: string, value: unknown): Promise<void> {
  await exec
    .insert(settings)
    .values({ key, value })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: sql`now()` } });
}

/** forgets a shop setting: its default holds again */
export async function clearSetting(exec: Executor, key: string): Promise<void> {
  await exec.delete(settings).where(eq(settings.key, key));
}

export const isNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
export const isString = (v: unknown): v is string => typeof v === "string";
