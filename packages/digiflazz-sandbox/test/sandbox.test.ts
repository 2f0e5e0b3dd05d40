import { ManualClock } from "@kios/kit";
import { afterEach, describe, expect, it } from "vitest";
import {
  DIGIFLAZZ_SANDBOX_ACCOUNT as A,
  createDigiflazzSandbox,
  type DigiflazzSandbox,
  md5Sign,
} from "../index.ts";

// the sandbox answers as Digiflazz's documentation says: signs, rc codes, the full-list
// limit and the trap (an unheld ref_id sent again forms a transaction)

const post = async (s: DigiflazzSandbox, path: string, body: Record<string, unknown>) => {
  const res = await s.fetch(
    new Request(`http://sandbox/v1${path}`, { method: "POST", body: JSON.stringify(body) }),
  );
  return { status: res.status, body: (await res.json()) as { data: Record<string, unknown> } };
};

const order = (refId: string, customerNo: string, extra: Record<string, unknown> = {}) => ({
  username: A.username,
  buyer_sku_code: "tsel10",
  customer_no: customerNo,
  ref_id: refId,
  sign: md5Sign(A.username, A.apiKey, refId),
  ...extra,
});

describe("the Digiflazz sandbox", () => {
  let s: DigiflazzSandbox | undefined;
  afterEach(() => s?.close());

  it("checks the md5 sign of each endpoint", async () => {
    s = createDigiflazzSandbox();
    const ok = await post(s, "/cek-saldo", {
      cmd: "deposit",
      username: A.username,
      sign: md5Sign(A.username, A.apiKey, "depo"),
    });
    expect(ok.body.data.deposit).toBe(5_000_000);
    const wrong = await post(s, "/cek-saldo", {
      cmd: "deposit",
      username: A.username,
      sign: md5Sign(A.username, A.apiKey, "pricelist"),
    });
    expect(wrong).toMatchObject({ status: 400, body: { data: { rc: "41" } } });
  });

  it("serves the whole price list once per five minutes (rc 83), a filtered one always", async () => {
    const clock = new ManualClock({ start: Date.UTC(2026, 0, 1) });
    s = createDigiflazzSandbox({ clock });
    const sign = md5Sign(A.username, A.apiKey, "pricelist");
    const full = await post(s, "/price-list", { cmd: "prepaid", username: A.username, sign });
    expect(Array.isArray(full.body.data)).toBe(true);
    const again = await post(s, "/price-list", { cmd: "prepaid", username: A.username, sign });
    expect(again.body.data.rc).toBe("83");
    const filtered = await post(s, "/price-list", {
      cmd: "prepaid",
      username: A.username,
      sign,
      brand: "TELKOMSEL",
    });
    expect((filtered.body.data as unknown as unknown[]).length).toBeGreaterThan(0);
    clock.advance(5 * 60_000);
    const later = await post(s, "/price-list", { cmd: "prepaid", username: A.username, sign });
    expect(Array.isArray(later.body.data)).toBe(true);
  });

  it("forms a transaction for a refused ref_id sent again once the cause is gone: the trap", async () => {
    s = createDigiflazzSandbox({
      accounts: [{ ...A, balance: 1_000 }],
    });
    const refused = await post(s, "/transaction", order("R1", "081234567001"));
    expect(refused.body.data).toMatchObject({ rc: "44", status: "Gagal" });
    s.account().credit(100_000);
    const formed = await post(s, "/transaction", order("R1", "081234567001"));
    expect(formed.body.data).toMatchObject({ rc: "00", status: "Sukses" });
    expect(s.state.trapSprung).toEqual(["R1"]);
  });

  it("answers a held ref_id with the stored transaction, and refuses above max_price", async () => {
    s = createDigiflazzSandbox();
    const first = await post(s, "/transaction", order("R2", "081234567803"));
    expect(first.body.data).toMatchObject({ rc: "03", status: "Pending" });
    s.settle("R2");
    const again = await post(s, "/transaction", order("R2", "081234567803"));
    expect(again.body.data).toMatchObject({ rc: "00", status: "Sukses" });
    expect(s.state.earlyResends).toEqual(["R2"]);
    const dear = await post(s, "/transaction", order("R3", "081234567001", { max_price: 10_000 }));
    expect(dear.body.data.rc).toBe("69");
  });
});
