import { sql } from "drizzle-orm";
import { bigint, check, pgTable, text, timestamp } from "drizzle-orm/pg-core";

// one schema for both drivers; drizzle-kit generates drizzle/ from this file.

export const users = pgTable(
  "users",
  {
    // telegram user ids exceed 2^31, so bigint; kept as a JS number (they stay below 2^53)
    telegramId: bigint("telegram_id", { mode: "number" }).primaryKey(),
    firstName: text("first_name").notNull().default(""),
    username: text("username"),
    language: text("language").notNull().default("id"),
    role: text("role", { enum: ["customer", "reseller"] })
      .notNull()
      .default("customer"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("users_role_known", sql`${t.role} in ('customer', 'reseller')`),
    check("users_language_known", sql`${t.language} in ('id', 'en')`),
  ],
);
