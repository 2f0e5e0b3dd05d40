import { BlockList, isIP } from "node:net";

// the address a request came from, for a key's IP allowlist. Behind the TLS proxy a real shop
// runs, the socket's address is the proxy's: TRUST_PROXY names the proxies whose
// X-Forwarded-For is believed. The header is read from the right, each trusted hop peeled
// off, and the first address not trusted is the caller (anything left of it is the caller's
// own say). Without TRUST_PROXY the header is ignored: anyone can send one.

export type ClientAddress = (
  socket: string | undefined,
  forwardedFor: string | undefined,
) => string | undefined;

/** an IPv4 address seen through an IPv6 socket ("::ffff:1.2.3.4") is the IPv4 address */
function normaliseIp(ip: string): string {
  const bare = ip.trim().replace(/^\[|\]$/g, "");
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(bare) ? bare.slice(7) : bare;
}

/** true for an address or a CIDR block (TRUST_PROXY's entries) */
export function isAddressOrBlock(entry: string): boolean {
  const [ip, bits, extra] = entry.trim().split("/");
  if (extra !== undefined || !ip) return false;
  const family = isIP(normaliseIp(ip));
  if (family === 0) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d{1,3}$/.test(bits) && n <= (family === 4 ? 32 : 128);
}

/** the caller's address, believing X-Forwarded-For from the `trusted` proxies only */
export function createClientAddress(trusted: readonly string[]): ClientAddress {
  if (trusted.length === 0) return (socket) => (socket ? normaliseIp(socket) : undefined);
  const proxies = new BlockList();
  for (const entry of trusted) {
    const [ip, bits] = entry.trim().split("/");
    const address = normaliseIp(ip!);
    const family = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (bits === undefined) proxies.addAddress(address, family);
    else proxies.addSubnet(address, Number(bits), family);
  }
  const isProxy = (ip: string) => {
    const family = isIP(ip);
    return family !== 0 && proxies.check(ip, family === 6 ? "ipv6" : "ipv4");
  };
  return (socket, forwardedFor) => {
    if (!socket) return undefined;
    let caller = normaliseIp(socket);
    const hops = (forwardedFor ?? "").split(",").map(normaliseIp).filter(Boolean);
    while (isProxy(caller) && hops.length > 0) {
      const next = hops.pop()!;
      // a hop that is no address can't be believed or matched: no address at all
      if (isIP(next) === 0) return undefined;
      caller = next;
    }
    return caller;
  };
}
