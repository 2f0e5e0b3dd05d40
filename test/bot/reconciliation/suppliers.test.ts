import { type RunningSandbox, startSandbox } from "@kios/supplier-sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { wibTime } from "../../../src/bot/ui/format.ts";
import { checkSupplierBalance } from "../../../src/commerce/reconciliation/balance-check.ts";
import { bookOf } from "../../../src/commerce/reconciliation/books.ts";
import { accountBalance } from "../../../src/commerce/wallet/ledger.ts";
import { supplierBalanceChecks } from "../../../src/db/schema.ts";
import { createSignatureSupplier } from "../../../src/supplier/signature/client.ts";
import type { Supplier } from "../../../src/supplier/types.ts";
import { ADMIN_ID, type BotHarness, startBotHarness } from "../../helpers/bot.ts";

// the owner's books with two suppliers in chat: /balance lists each, /recon checks each
// (or the one named), /supplier_topup books into the one named, alerts name theirs

const BACKUP = { apiId: "BACKUP-ID", apiKey: "backup-api-key-1", secretKey: "backup-secret-key-1" };

describe("books per supplier in chat", () => {
  let h: BotHarness;
  let backupSandbox: RunningSandbox;
  let backup: Supplier;
  const A = ADMIN_ID;
  beforeAll(async () => {
    h = await startBotHarness();
    backupSandbox = await startSandbox({
      port: 0,
      clock: h.clock,
      seed: 2,
      catalogueVariant: { codePrefix: "B" },
      accounts: [
        {
          apiId: BACKUP.apiId,
          keys: [{ apiKey: BACKUP.apiKey, secretKey: BACKUP.secretKey }],
          balance: 3_000_000,
        },
      ],
    });
    backup = createSignatureSupplier({
      baseUrl: backupSandbox.url,
      ...BACKUP,
      clock: h.clock,
      readRetries: 0,
    });
    // the engine the bot runs, now with a second supplier
    h.orders.firstSupplier = "main";
    h.orders.suppliers = new Map([["backup", backup]]);
    h.user(A, { first_name: "Owner" });
    await h.waitMessage(A, /Halo Owner/, h.say(A, "/start"));
  });
  afterAll(async () => {
    await h?.stop();
    await backupSandbox?.close();
  });

  const lastId = () => h.chat(A).messages.at(-1)?.message_id ?? 0;
  const replies = (after: number) =>
    h
      .chat(A)
      .messages.filter((m) => m.message_id > after && m.from?.is_bot)
      .map((m) => m.text ?? "");

  it("/balance lists every supplier by name, each figure with where it comes from", async () => {
    const m = await h.waitMessage(A, /backup/, h.say(A, "/balance"));
    const at = wibTime(h.clock.now());
    expect(m.text).toBe(
      [
        `🏦 Saldo main: ${rupiahOf(h.sandbox.account().balance)} (jawaban supplier barusan, ${at})`,
        "Belum pernah dicocokkan dengan catatan kios (/recon).",
        `🏦 Saldo backup: ${rupiahOf(3_000_000)} (jawaban supplier barusan, ${at})`,
        "Belum pernah dicocokkan dengan catatan kios (/recon).",
      ].join("\n"),
    );
  });

  it("/recon checks each supplier on its own; /recon <name> the one named", async () => {
    const before = lastId();
    await h.waitMessage(A, /Cek saldo supplier.*· backup/, h.say(A, "/recon"));
    const both = replies(before);
    expect(both).toHaveLength(2);
    expect(both[0]).toMatch(/^🧮 Cek saldo supplier #\d+ .*· main\nSaldo Rp[\d.]+\. Cek pertama/);
    expect(both[1]).toMatch(
      /^🧮 Cek saldo supplier #\d+ .*· backup\nSaldo Rp3\.000\.000\. Cek pertama/,
    );
    h.clock.advance(1_000);
    backupSandbox.account().setBalance(3_000_000 - 4_000);
    const at = lastId();
    const one = await h.waitMessage(A, /Selisih/, h.say(A, "/recon BACKUP"));
    expect(one.text).toContain("· backup");
    expect(one.text).toContain("Selisih: -Rp4.000");
    expect(replies(at)).toHaveLength(1);
    const listed = await h.waitMessage(A, /Tidak ada supplier/, h.say(A, "/recon nosuch"));
    expect(listed.text).toBe("Tidak ada supplier bernama nosuch. Supplier: main, backup.");
    // /balance now shows each one's last check
    const m = await h.waitMessage(A, /Cek terakhir[\s\S]*Cek terakhir/, h.say(A, "/balance"));
    expect(m.text).toMatch(
      /🏦 Saldo backup: Rp2\.996\.000 \(jawaban supplier barusan, \d\d:\d\d WIB\)\nCek terakhir #\d+ \(.*\): Rp2\.996\.000, ⚠️ selisih -Rp4\.000 \(\/recon\)\./,
    );
  });

  it("/supplier_topup <supplier> books into that supplier's account; an unknown name lists them", async () => {
    const m = await h.waitMessage(A, /Tercatat/, h.say(A, "/supplier_topup backup 50000 BCA"));
    expect(m.text).toMatch(
      /^✅ Tercatat: top-up supplier Rp50\.000 \(#\d+\)\.\nKe akun supplier backup\.$/,
    );
    expect(await accountBalance(h.db, "shop:supplier_prepaid:backup")).toBe(50_000);
    const main = await h.waitMessage(A, /Tercatat/, h.say(A, "/supplier_topup 20000"));
    expect(main.text).toContain("Ke akun supplier main.");
    expect(await accountBalance(h.db, "shop:supplier_prepaid")).toBe(20_000);
    const unknown = await h.waitMessage(
      A,
      /Tidak ada supplier/,
      h.say(A, "/supplier_topup bakup 5000"),
    );
    expect(unknown.text).toBe("Tidak ada supplier bernama bakup. Supplier: main, backup.");
    await h.waitMessage(
      A,
      /Gunakan: \/supplier_topup \[supplier\]/,
      h.say(A, "/supplier_topup backup"),
    );
  });

  it("a low balance alert names its supplier", async () => {
    const at = lastId();
    h.clock.advance(1_000);
    await checkSupplierBalance({
      db: h.db,
      supplier: backup,
      book: bookOf("main", "backup"),
      clock: h.clock,
      lowBalance: 10_000_000,
      adminIds: [A],
    });
    await h.pump();
    const alert = await h.waitMessage(A, /menipis/, at);
    expect(alert.text).toContain("di supplier backup");
  });

  it("/balance says when the last reading came from an order's answer, and which", async () => {
    h.clock.advance(1_000);
    const [row] = await h.db
      .insert(supplierBalanceChecks)
      .values({
        supplier: "backup",
        readAt: new Date(h.clock.now()),
        requestedAt: new Date(h.clock.now() - 500),
        balance: 2_990_000,
        openCount: 0,
        openCost: 0,
        status: "ok",
        source: "answer",
        refId: "K01ANSWERREF",
      })
      .returning();
    const m = await h.waitMessage(A, /Bacaan terakhir/, h.say(A, "/balance"));
    expect(m.text).toContain(`Bacaan terakhir #${row!.id} (`);
    expect(m.text).toMatch(/dari jawaban supplier untuk order K01ANSWERREF\): Rp2\.990\.000, /);
  });
});

function rupiahOf(n: number): string {
  return `Rp${n.toLocaleString("id-ID")}`;
}
