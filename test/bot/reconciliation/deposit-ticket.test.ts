import {
  DIGIFLAZZ_SANDBOX_ACCOUNT,
  type RunningDigiflazzSandbox,
  startDigiflazzSandbox,
} from "@kios/digiflazz-sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { supplierTopups } from "../../../src/db/schema.ts";
import { createDigiflazzSupplier } from "../../../src/supplier/digiflazz/client.ts";
import { ADMIN_ID, type BotHarness, startBotHarness } from "../../helpers/bot.ts";

// /supplier_topup <name> ticket <amount> <bank>: Digiflazz's deposit ticket, shown to the
// admin; nothing booked until the balance rises

describe("a Digiflazz deposit ticket in chat", () => {
  let h: BotHarness;
  let sandbox: RunningDigiflazzSandbox;
  const A = ADMIN_ID;
  beforeAll(async () => {
    h = await startBotHarness();
    sandbox = await startDigiflazzSandbox({ clock: h.clock });
    h.orders.firstSupplier = "main";
    h.orders.suppliers = new Map([
      [
        "digiflazz",
        createDigiflazzSupplier({
          baseUrl: sandbox.url,
          username: DIGIFLAZZ_SANDBOX_ACCOUNT.username,
          apiKey: DIGIFLAZZ_SANDBOX_ACCOUNT.apiKey,
          readRetries: 0,
        }),
      ],
    ]);
    h.user(A, { first_name: "Owner" });
    await h.waitMessage(A, /Halo Owner/, h.say(A, "/start"));
  });
  afterAll(async () => {
    await h?.stop();
    await sandbox?.stop();
  });

  it("shows the amount with its unique digits and the note, and books nothing", async () => {
    const m = await h.waitMessage(
      A,
      /DEP KIOSBACKUP/,
      h.say(A, "/supplier_topup digiflazz ticket 500000 BCA Budi"),
    );
    expect(m.text).toMatch(/Rp50\d\.\d{3}/);
    expect(await h.orders.db.select().from(supplierTopups)).toEqual([]);
  });

  it("says the usage for a ticket without a bank, and that the first supplier gives none", async () => {
    await h.waitMessage(
      A,
      /ticket &lt;jumlah&gt;|ticket <jumlah>/,
      h.say(A, "/supplier_topup digiflazz ticket 500000"),
    );
    await h.waitMessage(
      A,
      /tidak memberi tiket/,
      h.say(A, "/supplier_topup main ticket 500000 BCA"),
    );
  });
});
