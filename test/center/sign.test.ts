import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { otomaxSign, signEquals } from "../../src/center/sign.ts";

// the published vector (docs/center.md#the-sign) and an independent signer: base64 of the
// SHA-1, then made URL-safe and unpadded by hand, as an OtomaX user would in PHP
function independentSign(parts: string[]): string {
  const b64 = createHash("sha1").update(parts.join("|")).digest("base64");
  return b64.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

describe("the OtomaX sign", () => {
  it("matches the published vector", () => {
    const f = {
      memberId: "YUSUF",
      product: "X10",
      dest: "08123456789",
      refId: "2140669",
      pin: "1144",
      password: "abcd",
    };
    expect(otomaxSign(f)).toBe("Cp9NLVuKWBt5Sey_uMlYsvnKvJI");
    expect(
      independentSign(["OtomaX", "YUSUF", "X10", "08123456789", "2140669", "1144", "abcd"]),
    ).toBe("Cp9NLVuKWBt5Sey_uMlYsvnKvJI");
  });

  it("agrees with the independent signer, the balance's empty fields too, and each field counts", () => {
    const f = {
      memberId: "KC1",
      product: "",
      dest: "",
      refId: "",
      pin: "123456",
      password: "p+/=",
    };
    expect(otomaxSign(f)).toBe(independentSign(["OtomaX", "KC1", "", "", "", "123456", "p+/="]));
    expect(otomaxSign({ ...f, pin: "123457" })).not.toBe(otomaxSign(f));
    expect(otomaxSign(f)).not.toMatch(/[+/=]/);
  });

  it("signEquals tells equal from unequal, whatever the lengths", () => {
    expect(signEquals("abc", "abc")).toBe(true);
    expect(signEquals("abc", "abd")).toBe(false);
    expect(signEquals("abc", "abcd")).toBe(false);
    expect(signEquals("abc", "")).toBe(false);
  });
});
