import type { PlaygroundUser } from "@kios/bot-api-server";
import type { SecretBox } from "../commerce/h2h/cipher.ts";
import { createKey, keyOfUser, openKey } from "../commerce/h2h/keys.ts";
import { creditWallet } from "../commerce/wallet/ledger.ts";
import type { Executor } from "../db/client.ts";
import { users } from "../db/schema.ts";

// the playground's demo reseller: someone to try the H2H API as from the first start, with
// a key and test money. Seeded once per data folder: a restart adds nothing, and what an
// admin changed since (a demotion, a rotated key) stays.

export const PLAYGROUND_RESELLER: PlaygroundUser = {
  id: 100_003,
  name: "Rudi",
  persona: "reseller",
};

/** the demo reseller's test money, so an H2H order works at once */
export const DEMO_RESELLER_BALANCE = 1_000_000;

/** the three values the demo reseller's server would sign with */
export interface DemoCredentials {
  apiId: string;
  apiKey: string;
  secretKey: string;
}

/** the demo reseller, their balance and their H2H key: each made only the first time */
export async function seedDemoReseller(db: Executor, box: SecretBox): Promise<void> {
  // a reseller only when first made: an admin's later /role stands
  await db
    .insert(users)
    .values({
      telegramId: PLAYGROUND_RESELLER.id,
      firstName: PLAYGROUND_RESELLER.name,
      tier: "reseller",
    })
    .onConflictDoNothing();
  await creditWallet(db, {
    userId: PLAYGROUND_RESELLER.id,
    amount: DEMO_RESELLER_BALANCE,
    key: "playground:demo-reseller-balance",
    memo: "playground test balance",
  });
  // one key per reseller: a second start finds it (createKey refuses "has_key")
  await createKey(db, box, PLAYGROUND_RESELLER.id);
}

/** the demo reseller's key as it is now (rotated in chat: the new one), or none (revoked) */
export async function demoCredentials(
  db: Executor,
  box: SecretBox,
): Promise<DemoCredentials | undefined> {
  const row = await keyOfUser(db, PLAYGROUND_RESELLER.id);
  if (!row || row.revokedAt) return undefined;
  const open = openKey(box, row);
  return { apiId: row.apiId, apiKey: open.apiKey, secretKey: open.secretKey };
}
