import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCenterKey, updateCenterKeySettings } from "../../src/commerce/center/keys.ts";
import { createSecretBox } from "../../src/commerce/h2h/cipher.ts";
import { setTier } from "../../src/commerce/users.ts";
import { creditWallet } from "../../src/commerce/wallet/ledger.ts";
import { bootApp, type TestApp } from "../helpers/app.ts";
import { testDriver } from "../helpers/db.ts";
import { otomaxTestSign, phone, REPLY } from "../helpers/door.ts";

// the OtomaX door as `npm start` serves it: createApp mounts /h2h/otomax when
// H2H_ENCRYPTION_KEY is set, with the app's TRUST_PROXY deciding the caller's address for
// the IP allowlist (the unit harness, test/helpers/door.ts, builds the routes by hand)

const H2H_KEY = "door-app-test-h2h-encryption-key-0123456789";
const RESELLER = 8_900_001;

describe(`the OtomaX door in the app (${testDriver})`, () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await bootApp({
      env: { H2H_ENCRYPTION_KEY: H2H_KEY, TRUST_PROXY: "127.0.0.1" },
      logLevel: "warn",
    });
  });
  afterAll(() => app?.stop());

  it("serves balance and trx at /h2h/otomax, and the allowlist reads X-Forwarded-For past TRUST_PROXY", async () => {
    const db = app.app.database.db;
    await setTier(db, RESELLER, "reseller");
    await creditWallet(db, { userId: RESELLER, amount: 100_000, key: "door-app:seed" });
    const made = await createCenterKey(db, createSecretBox(H2H_KEY), RESELLER);
    if (!made.ok) throw new Error(made.reason);
    const k = made.key;
    const door = `${app.baseUrl}/h2h/otomax`;
    const balance = (headers?: Record<string, string>) =>
      fetch(
        `${door}/balance?${new URLSearchParams({
          memberID: k.memberId,
          sign: otomaxTestSign([k.memberId, "", "", "", k.pin, k.password]),
        })}`,
        headers ? { headers } : {},
      );
    const b = await balance();
    expect(b.status).toBe(200);
    expect(await b.text()).toBe("Saldo 100.000");

    const t = { product: "TSEL10", dest: phone("901"), refId: "app-1" };
    const trx = await fetch(
      `${door}/trx?${new URLSearchParams({
        memberID: k.memberId,
        product: t.product,
        dest: t.dest,
        refID: t.refId,
        sign: otomaxTestSign([k.memberId, t.product, t.dest, t.refId, k.pin, k.password]),
      })}`,
    );
    const text = await trx.text();
    expect(trx.status, text).toBe(200);
    expect(REPLY.exec(text)?.slice(1, 4), text).toEqual(["app-1", "TSEL10", t.dest]);

    await updateCenterKeySettings(db, RESELLER, { ipAllowlist: ["203.0.113.9"] });
    expect((await balance({ "x-forwarded-for": "203.0.113.9" })).status).toBe(200);
    expect((await balance({ "x-forwarded-for": "198.51.100.7" })).status).toBe(403);
    expect((await balance()).status).toBe(403);
  });
});
