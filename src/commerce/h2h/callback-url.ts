import { BlockList, isIP } from "node:net";

// where kios may POST a reseller's callbacks (docs/h2h.md#callbacks): https only, never to
// this machine, the private network or link-local addresses (a reseller must not make kios
// reach into its own network), checked on the name as given and on every address it
// resolves to, right before each delivery. Plain http only to loopback, and only where the
// shop runs beside simulators (tests, the playground).

export interface UrlPolicy {
  /** http://127.0.0.1 and friends are allowed (test and playground shops only) */
  allowLoopbackHttp: boolean;
}

/** why a URL is refused: the chat says it in the user's words (a locale key per code) */
export type UrlRefusal =
  | "not_url"
  | "credentials"
  | "too_long"
  | "not_https"
  | "local_name"
  | "private_address";

/** `reason`: the refusal in English, for logs and the command line; people read `code` */
export type UrlVerdict = { ok: true; url: URL } | { ok: false; code: UrlRefusal; reason: string };

const REASONS: Readonly<Record<UrlRefusal, string>> = {
  not_url: "not a URL",
  credentials: "must not carry a user or password",
  too_long: "longer than 500 characters",
  not_https: "must be https",
  local_name: "must not name this machine or the local network",
  private_address: "must not be a private, loopback or link-local address",
};

function refused(code: UrlRefusal): UrlVerdict {
  return { ok: false, code, reason: REASONS[code] };
}

const blocked = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  blocked.addSubnet(net, bits, "ipv4");
}
// IPv6 forms that carry an IPv4 address (mapped, translated, compatible, NAT64, 6to4,
// Teredo) are refused whole, whatever IPv4 they carry: a callback has no need of them, and
// judging the embedded address would be one more way to get it wrong
for (const [net, bits] of [
  ["::", 128],
  ["::1", 128],
  ["::", 96],
  ["::ffff:0:0", 96],
  ["::ffff:0:0:0", 96],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001::", 32],
  ["2001:db8::", 32],
  ["2002::", 16],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const) {
  blocked.addSubnet(net, bits, "ipv6");
}

const loopback = new BlockList();
loopback.addSubnet("127.0.0.0", 8, "ipv4");
loopback.addAddress("::1", "ipv6");

function family(ip: string): "ipv4" | "ipv6" {
  return isIP(ip) === 6 ? "ipv6" : "ipv4";
}

/** true for an address kios must never call: private, loopback, link-local, reserved */
export function isForbiddenAddress(ip: string): boolean {
  const bare = ip.replace(/^\[|\]$/g, "");
  // an IPv4 address written as IPv6 is judged as the IPv4 address
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped) return blocked.check(mapped[1]!, "ipv4");
  return blocked.check(bare, family(bare));
}

function isLoopback(ip: string): boolean {
  const bare = ip.replace(/^\[|\]$/g, "");
  return loopback.check(bare, family(bare));
}

/** the checks that need no network: scheme, credentials, an address given literally */
export function checkCallbackUrl(raw: string, policy: UrlPolicy): UrlVerdict {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return refused("not_url");
  }
  if (url.username || url.password) return refused("credentials");
  if (raw.length > 500) return refused("too_long");
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const hostIsLoopback = host === "localhost" || (isIP(host) !== 0 && isLoopback(host));
  if (url.protocol === "http:") {
    if (policy.allowLoopbackHttp && hostIsLoopback) return { ok: true, url };
    return refused("not_https");
  }
  if (url.protocol !== "https:") return refused("not_https");
  if (policy.allowLoopbackHttp && hostIsLoopback) return { ok: true, url };
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".local")) {
    return refused("local_name");
  }
  if (isIP(host) !== 0 && isForbiddenAddress(host)) {
    return refused("private_address");
  }
  return { ok: true, url };
}
