import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_SANDBOX_BALANCE } from "../index.ts";
import { formatWib } from "../src/time.ts";
import { type Harness, harness } from "./helpers.ts";

type Detail = Record<string, string>;
type Desc = { lembar_tagihan: number; detail?: Detail[] } & Record<string, unknown>;
type Inquiry = {
  ref_id: string;
  customer_no: string;
  customer_name: string;
  code: string;
  tagihan: number;
  admin: number;
  total: number;
  desc: Desc;
  expires_at: string;
};

describe("sandbox bills: inquiry and pay-pasca", () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness();
  });
  afterEach(() => h.close());

  const inquire = (code: string, customerNo: string, refId?: string) =>
    h.call("/order", {
      cmd: "inquiry",
      code,
      customer_no: customerNo,
      ref_id: refId,
    });
  const pay = (
    code: string,
    customerNo: string,
    refId: string,
    extra: Record<string, unknown> = {},
  ) =>
    h.call("/order", { cmd: "pay-pasca", code, customer_no: customerNo, ref_id: refId, ...extra });
  const balance = () => h.sandbox.account().balance;

  it("answers an inquiry with the bill, its sheets and a 5-minute window", async () => {
    const now = h.clock.now();
    const { status, body } = await inquire("PLNPOST", "530012345673", "B-INQ");
    expect(status).toBe(200);
    expect(body).toMatchObject({ success: true, code: "INQUIRY_SUCCESS", errors: null });
    const data = body.data as Inquiry;
    expect(data).toMatchObject({
      ref_id: "B-INQ",
      customer_no: "530012345673",
      code: "PLNPOST",
      customer_name: expect.stringMatching(/^[A-Z]+ [A-Z]+$/),
    });
    expect(data.admin).toBe(2500 * 3);
    expect(data.total).toBe(data.tagihan + data.admin);
    const detail = data.desc.detail!;
    expect(data.desc).toMatchObject({ lembar_tagihan: 3, tarif: expect.stringMatching(/^R\d$/) });
    expect(Number.isInteger(data.desc.daya)).toBe(true);
    expect(detail).toHaveLength(3);
    for (const d of detail) {
      expect(d).toEqual({
        periode: expect.stringMatching(/^\d{6}$/),
        nilai_tagihan: expect.stringMatching(/^\d+$/),
        admin: "2500",
        denda: expect.stringMatching(/^\d+$/),
        meter_awal: expect.stringMatching(/^\d+$/),
        meter_akhir: expect.stringMatching(/^\d+$/),
      });
    }
    const sum = detail.reduce((n, d) => n + Number(d.nilai_tagihan) + Number(d.denda), 0);
    expect(data.tagihan).toBe(sum);
    // the window is stamped in WIB and lasts five minutes from now
    const expected = formatWib(now + 5 * 60_000);
    expect([expected, formatWib(now + 5 * 60_000 + 1000)]).toContain(data.expires_at);
  });

  it("counts sheets by the last digit: 0 → 1, 2 → 2, 3 → 3, others → 1; 9 has no bill", async () => {
    for (const [customer, sheets] of [
      ["530012345670", 1],
      ["530012345672", 2],
      ["530012345673", 3],
      ["530012345675", 1],
    ] as const) {
      const { body } = await inquire("PLNPOST", customer);
      expect((body.data as Inquiry).desc.lembar_tagihan, customer).toBe(sheets);
      expect((body.data as Inquiry).desc.detail, customer).toHaveLength(sheets);
    }
    const none = await inquire("PLNPOST", "530012345679", "B-NONE");
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ success: false, code: "INQUIRY_FAILED", data: null });
    expect((await pay("PLNPOST", "530012345679", "B-NONE")).body.code).toBe("INQUIRY_NOT_FOUND");
  });

  it("describes each kind of bill in its own way", async () => {
    const desc = async (code: string) =>
      ((await inquire(code, "880001234562")).body.data as Inquiry).desc;
    const pdam = await desc("PDAMSBY");
    expect(pdam).toMatchObject({
      lembar_tagihan: 2,
      alamat: expect.stringContaining("SURABAYA"),
      tarif: expect.any(String),
      jatuh_tempo: expect.stringMatching(/^\d{4}-\d\d-20$/),
    });
    expect(pdam.detail![0]).toHaveProperty("biaya_lain");
    const bpjs = await desc("BPJS");
    expect(bpjs).toMatchObject({
      jumlah_peserta: expect.stringMatching(/^\d$/),
      alamat: expect.any(String),
    });
    const finance = await desc("ADIRA");
    expect(finance).toMatchObject({
      item_name: expect.any(String),
      no_rangka: expect.stringMatching(/^MH/),
      no_pol: expect.stringMatching(/^[A-Z]{1,2} \d{4} [A-Z]{2}$/),
      tenor: expect.stringMatching(/^\d+$/),
    });
    // mobile postpaid carries no per-period detail
    const halo = await desc("HALO");
    expect(halo).toEqual({ lembar_tagihan: 2 });
    const pbb = await desc("PBBSBY");
    expect(pbb.detail!.map((d) => d.periode)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^\d{4}$/)]),
    );
    for (const d of [pdam, bpjs, finance, pbb]) {
      for (const entry of d.detail!) {
        for (const value of Object.values(entry)) expect(typeof value).toBe("string");
      }
    }
  });

  it("bills the same number the same amounts; a repeated ref_id returns the same session", async () => {
    const a = (await inquire("BPJS", "8888801234567890", "B-A")).body.data as Inquiry;
    const b = (await inquire("BPJS", "8888801234567890", "B-B")).body.data as Inquiry;
    expect({ ...b, ref_id: "B-A", expires_at: a.expires_at }).toEqual(a);
    h.clock.advance(60_000);
    const again = (await inquire("BPJS", "8888801234567890", "B-A")).body.data as Inquiry;
    expect(again).toEqual(a);
  });

  it("pays within the window: pending, then success with an SN and desc", async () => {
    const inquiry = (await inquire("PDAMSBY", "1234560", "B-PAY")).body.data as Inquiry;
    h.clock.advance(4 * 60_000);
    const { status, body } = await pay("PDAMSBY", "1234560", "B-PAY");
    expect(status).toBe(200);
    expect(body).toMatchObject({ success: true, code: "BILL_PAYMENT_PENDING" });
    expect(body.data).toEqual({
      ref_id: "B-PAY",
      status: "pending",
      customer_no: "1234560",
      customer_name: inquiry.customer_name,
      code: "PDAMSBY",
      tagihan: inquiry.tagihan,
      admin: inquiry.admin,
      total: inquiry.total,
      sn: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
    });
    expect(balance()).toBe(DEFAULT_SANDBOX_BALANCE - inquiry.total);
    await h.sandbox.settleNow();
    const done = await h.call("/status", { ref_id: "B-PAY" });
    expect(done.body).toMatchObject({
      success: true,
      code: "BILL_PAYMENT_SUCCESS",
      data: { status: "success", sn: expect.stringMatching(/^[0-9A-F]{32}$/), desc: inquiry.desc },
    });
  });

  it("901 pays at once; 902 fails with data null and charges nothing", async () => {
    await inquire("PLNPOST", "530012345901", "B-901");
    const ok = await pay("PLNPOST", "530012345901", "B-901");
    expect(ok.body).toMatchObject({
      success: true,
      code: "BILL_PAYMENT_SUCCESS",
      data: { status: "success", sn: expect.any(String), desc: { lembar_tagihan: 1 } },
    });
    const charged = balance();

    await inquire("PLNPOST", "530012345902", "B-902");
    const failed = await pay("PLNPOST", "530012345902", "B-902");
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({ success: false, code: "BILL_PAYMENT_FAILED", data: null });
    expect(balance()).toBe(charged);
    const stored = await h.call("/status", { ref_id: "B-902" });
    expect(stored.body).toMatchObject({
      code: "BILL_PAYMENT_FAILED",
      data: { status: "failed", sn: null },
    });
  });

  it("904 refunds the bill's total when it fails later", async () => {
    await inquire("BPJS", "8888801234904", "B-904");
    await pay("BPJS", "8888801234904", "B-904");
    expect(balance()).toBeLessThan(DEFAULT_SANDBOX_BALANCE);
    await h.sandbox.settleNow();
    expect((await h.call("/status", { ref_id: "B-904" })).body.code).toBe("BILL_PAYMENT_FAILED");
    expect(balance()).toBe(DEFAULT_SANDBOX_BALANCE);
  });

  it("refuses a payment after 5 minutes with INQUIRY_EXPIRED", async () => {
    await inquire("PLNPOST", "530012345670", "B-LATE");
    h.clock.advance(5 * 60_000 + 1000);
    // the request is signed with the advanced clock's time too
    const { status, body } = await pay("PLNPOST", "530012345670", "B-LATE");
    expect(status).toBe(200);
    expect(body).toMatchObject({ success: false, code: "INQUIRY_EXPIRED", data: null });
    expect(balance()).toBe(DEFAULT_SANDBOX_BALANCE);
    // a fresh inquiry under a new ref_id can be paid
    await inquire("PLNPOST", "530012345670", "B-LATE-2");
    expect((await pay("PLNPOST", "530012345670", "B-LATE-2")).body.code).toBe(
      "BILL_PAYMENT_PENDING",
    );
  });

  it("refuses a payment whose code or customer_no differ with INQUIRY_MISMATCH", async () => {
    await inquire("PLNPOST", "530012345670", "B-MIS");
    const otherCustomer = await pay("PLNPOST", "530012345671", "B-MIS");
    expect(otherCustomer.body).toMatchObject({ success: false, code: "INQUIRY_MISMATCH" });
    const otherCode = await pay("BPJS", "530012345670", "B-MIS");
    expect(otherCode.body.code).toBe("INQUIRY_MISMATCH");
    expect(balance()).toBe(DEFAULT_SANDBOX_BALANCE);
    expect(h.sandbox.transactions()).toHaveLength(0);
  });

  it("pays once: a second pay-pasca returns the stored payment", async () => {
    const inquiry = (await inquire("INDIHOME", "122233344450", "B-TWICE")).body.data as Inquiry;
    const first = await pay("INDIHOME", "122233344450", "B-TWICE");
    const second = await pay("INDIHOME", "122233344450", "B-TWICE");
    expect(second.body).toEqual(first.body);
    expect(balance()).toBe(DEFAULT_SANDBOX_BALANCE - inquiry.total);
    // even after the window, the payment stands
    h.clock.advance(10 * 60_000);
    await h.sandbox.settleNow();
    const later = await pay("INDIHOME", "122233344450", "B-TWICE");
    expect(later.body.code).toBe("BILL_PAYMENT_SUCCESS");
    expect(balance()).toBe(DEFAULT_SANDBOX_BALANCE - inquiry.total);
  });

  it("refuses unknown sessions, low balance and bad requests", async () => {
    const unknown = await pay("PLNPOST", "530012345670", "B-NOWHERE");
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ success: false, code: "INQUIRY_NOT_FOUND" });

    const noRef = await h.call("/order", {
      cmd: "pay-pasca",
      code: "PLNPOST",
      customer_no: "530012345670",
    });
    expect(noRef.status).toBe(400);
    expect(noRef.body.errors).toEqual({ ref_id: ["is required"] });

    await inquire("PLNPOST", "530012345673", "B-POOR");
    h.sandbox.account().setBalance(100);
    const poor = await pay("PLNPOST", "530012345673", "B-POOR");
    expect(poor.body).toMatchObject({ success: false, code: "INSUFFICIENT_BALANCE" });
    // testing mode charges nothing, so it does not need the balance
    const testing = await pay("PLNPOST", "530012345673", "B-POOR", { testing: true });
    expect(testing.body.code).toBe("BILL_PAYMENT_PENDING");
    expect(balance()).toBe(100);

    expect((await inquire("TSEL5", "530012345670")).body.code).toBe("PRODUCT_NOT_FOUND");
    expect((await inquire("PDAMAMB", "530012345670")).body.code).toBe("PRODUCT_INACTIVE");
    expect((await inquire("PLNPOST", "53-00")).body.code).toBe("INVALID_CUSTOMER_NO");

    // an order's ref_id is not an inquiry's
    const placed = await h.call("/order", {
      cmd: "prepaid",
      code: "TSEL5",
      customer_no: "081234567901",
      ref_id: "B-ORDER",
      testing: true,
    });
    expect(placed.body.code).toBe("ORDER_SUCCESS");
    const clash = await inquire("PLNPOST", "530012345670", "B-ORDER");
    expect(clash.status).toBe(400);
    expect(clash.body.errors).toHaveProperty("ref_id");
    expect((await pay("PLNPOST", "530012345670", "B-ORDER")).body.code).toBe("INQUIRY_NOT_FOUND");
  });
});
