import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  canonicalBody,
  sha256Hex,
  signCallback,
  signedBody,
  signRequest,
  stringToSign,
  verifyCallback,
} from "../index.ts";

interface VectorFile {
  credentials: { api_id: string; api_key: string; secret_key: string };
  timestamp: number;
  cases: {
    name: string;
    params: Record<string, unknown>;
    canonical: string;
    body_hash: string;
    string_to_sign: string;
    signature: string;
  }[];
}

const vectors: VectorFile = JSON.parse(
  readFileSync(join(import.meta.dirname, "fixtures", "supplier-signature-vectors.json"), "utf8"),
);
const creds = {
  apiId: vectors.credentials.api_id,
  apiKey: vectors.credentials.api_key,
  secretKey: vectors.credentials.secret_key,
};

describe("signature vectors (fixtures/supplier-signature-vectors.json)", () => {
  it("has cases to check", () => {
    expect(vectors.cases.length).toBeGreaterThanOrEqual(4);
  });

  for (const vector of vectors.cases) {
    describe(vector.name, () => {
      it("canonical body", () => {
        expect(canonicalBody(vector.params)).toBe(vector.canonical);
      });
      it("body hash", () => {
        expect(sha256Hex(canonicalBody(vector.params))).toBe(vector.body_hash);
      });
      it("string to sign", () => {
        expect(stringToSign(creds.apiId, creds.apiKey, vectors.timestamp, vector.body_hash)).toBe(
          vector.string_to_sign,
        );
      });
      it("signature", () => {
        expect(signRequest(creds, vectors.timestamp, vector.params)).toBe(vector.signature);
      });
      it("signed body carries the envelope and signs only the business parameters", () => {
        const body = signedBody(creds, vector.params, vectors.timestamp * 1000 + 999);
        expect(body).toMatchObject({
          ...vector.params,
          api_id: creds.apiId,
          timestamp: vectors.timestamp,
          signature: vector.signature,
        });
        // the envelope fields of a body are not part of what is signed
        expect(canonicalBody(body)).toBe(vector.canonical);
      });
    });
  }
});

describe("canonical body edge cases", () => {
  it("is empty for no business parameters, and for envelope fields only", () => {
    expect(canonicalBody({})).toBe("");
    expect(canonicalBody({ api_id: "x", timestamp: 1, signature: "y" })).toBe("");
  });

  it("sorts nested objects recursively and keeps array order", () => {
    const params = {
      z: 1,
      a: { y: [3, 1, 2], b: { d: true, c: null } },
      m: [{ k: 2, j: 1 }, "s"],
    };
    expect(canonicalBody(params)).toBe(
      '{"a":{"b":{"c":null,"d":true},"y":[3,1,2]},"m":[{"j":1,"k":2},"s"],"z":1}',
    );
  });

  it("keeps booleans and numbers as JSON values", () => {
    expect(canonicalBody({ testing: false, amount: 10000, ratio: 1.5 })).toBe(
      '{"amount":10000,"ratio":1.5,"testing":false}',
    );
  });

  it("leaves non-ASCII and slashes unescaped", () => {
    const canonical = canonicalBody({
      name: "Pembayaran Listrik – Rp",
      note: "🎮 ok",
      path: "a/b",
    });
    expect(canonical).toBe('{"name":"Pembayaran Listrik – Rp","note":"🎮 ok","path":"a/b"}');
    expect(canonical).not.toContain("\\u");
    expect(canonical).not.toContain("\\/");
  });

  it("drops undefined parameters (never sent, so never signed)", () => {
    expect(canonicalBody({ cmd: "prepaid", testing: undefined })).toBe('{"cmd":"prepaid"}');
  });

  it("does not depend on the order the caller built the object in", () => {
    const a = signRequest(creds, 1, { cmd: "game", code: "ML86", customer_no: "1" });
    const b = signRequest(creds, 1, { customer_no: "1", code: "ML86", cmd: "game" });
    expect(a).toBe(b);
  });

  it("uses seconds, not milliseconds, for the timestamp", () => {
    expect(signedBody(creds, {}, 1_767_225_600_123).timestamp).toBe(1_767_225_600);
  });
});

describe("callback signatures", () => {
  const now = 1_767_225_600_000;
  const body = '{"event":"transaction.final","data":{"ref_id":"K1"}}';
  const ts = String(now / 1000);

  it("accepts its own signature and rejects a changed body, key or stale time", () => {
    const sig = signCallback(creds.secretKey, now / 1000, body);
    expect(verifyCallback(creds.secretKey, body, ts, sig, now)).toEqual({ ok: true });
    expect(verifyCallback(creds.secretKey, `${body} `, ts, sig, now).ok).toBe(false);
    expect(verifyCallback("other", body, ts, sig, now).ok).toBe(false);
    expect(verifyCallback(creds.secretKey, body, ts, sig, now + 301_000)).toEqual({
      ok: false,
      reason: "stale",
    });
    expect(verifyCallback(creds.secretKey, body, null, sig, now)).toEqual({
      ok: false,
      reason: "missing_headers",
    });
  });
});
