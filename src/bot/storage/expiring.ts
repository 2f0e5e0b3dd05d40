import { and, eq, lte } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { expiringMessages } from "../../db/schema.ts";

// messages the bot deletes after a while (the H2H keys shown once): stored, so a restart in
// between still deletes them.

export async function expireMessageAt(
  db: Executor,
  m: { chatId: number; messageId: number; deleteAt: Date },
): Promise<void> {
  await db.insert(expiringMessages).values(m).onConflictDoNothing();
}

/** the messages whose time has come, oldest first */
export async function dueMessages(db: Executor, now: Date, limit = 50) {
  return db
    .select()
    .from(expiringMessages)
    .where(lte(expiringMessages.deleteAt, now))
    .orderBy(expiringMessages.deleteAt)
    .limit(limit);
}

export async function forgetMessage(
  db: Executor,
  chatId: number,
  messageId: number,
): Promise<void> {
  await db
    .delete(expiringMessages)
    .where(and(eq(expiringMessages.chatId, chatId), eq(expiringMessages.messageId, messageId)));
}
