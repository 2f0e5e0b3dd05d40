import { describe, expect, it } from "vitest";
import { createClientAddress } from "../../src/h2h/client-address.ts";

// whose address an H2H request is (issue 36 item 17): X-Forwarded-For only from TRUST_PROXY

describe("the H2H caller's address", () => {
  it("without TRUST_PROXY the socket's address, whatever X-Forwarded-For says", () => {
    const address = createClientAddress([]);
    expect(address("::ffff:203.0.113.7", "198.51.100.1")).toBe("203.0.113.7");
    expect(address("127.0.0.1", "198.51.100.1")).toBe("127.0.0.1");
    expect(address(undefined, "198.51.100.1")).toBeUndefined();
  });

  it("with TRUST_PROXY the trusted hops are peeled off from the right; the first untrusted one is the caller", () => {
    const address = createClientAddress(["127.0.0.1", "10.0.0.0/8"]);
    expect(address("::ffff:127.0.0.1", "203.0.113.7")).toBe("203.0.113.7");
    // the caller's own claims left of its address are not believed
    expect(address("127.0.0.1", "1.2.3.4, 203.0.113.7, 10.1.2.3")).toBe("203.0.113.7");
    // a request straight from an untrusted address: its header is ignored
    expect(address("198.51.100.9", "203.0.113.7")).toBe("198.51.100.9");
    // from the proxy with no header: the proxy itself
    expect(address("127.0.0.1", undefined)).toBe("127.0.0.1");
    // a hop that is no address matches nothing
    expect(address("127.0.0.1", "not-an-ip")).toBeUndefined();
  });
});
