import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { isForbiddenAddress, type UrlPolicy } from "./callback-url.ts";

// one POST of a callback: a short timeout, no redirect followed (a 3xx is a failure), and
// the address checked inside the connection's own DNS look-up, so the name can't resolve
// to a public address for the check and a private one for the connection.

export type PostResult =
  | { ok: true; status: number }
  | { ok: false; status?: number; error: string };

function guardedLookup(policy: UrlPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, "", 4);
      const list = addresses ?? [];
      const bad = list.find(
        (a) =>
          isForbiddenAddress(a.address) && !(policy.allowLoopbackHttp && isLoopback(a.address)),
      );
      if (bad || list.length === 0) {
        const refused = new Error("the host resolves to a private, loopback or link-local address");
        (refused as NodeJS.ErrnoException).code = "EFORBIDDENADDRESS";
        return callback(refused, "", 4);
      }
      if (options.all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

function isLoopback(ip: string): boolean {
  return ip === "::1" || /^127\./.test(ip) || /^::ffff:127\./.test(ip);
}

export function postCallback(
  url: URL,
  body: string,
  headers: Record<string, string>,
  options: { policy: UrlPolicy; timeoutMs: number },
): Promise<PostResult> {
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const req = send(
      url,
      {
        method: "POST",
        headers: {
          ...headers,
          "Content-Type": "application/json",
          "Content-Length": Buffer.byteLength(body),
          "User-Agent": "kios-h2h-callback",
        },
        timeout: options.timeoutMs,
        lookup: guardedLookup(options.policy),
      },
      (res) => {
        const status = res.statusCode ?? 0;
        // the answer's body is not read beyond draining it
        res.resume();
        res.on("end", () =>
          resolve(
            status >= 200 && status < 300
              ? { ok: true, status }
              : {
                  ok: false,
                  status,
                  error: `HTTP ${status}${status >= 300 && status < 400 ? " (redirects are not followed)" : ""}`,
                },
          ),
        );
        res.on("error", () => resolve({ ok: false, status, error: "the answer broke off" }));
      },
    );
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", (err: NodeJS.ErrnoException) => {
      const code = err.message === "timeout" ? "TIMEOUT" : (err.code ?? "TRANSPORT_ERROR");
      resolve({
        ok: false,
        error: code === "EFORBIDDENADDRESS" ? err.message : `could not connect (${code})`,
      });
    });
    req.end(body);
  });
}
