import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { isForbiddenAddress, type UrlPolicy } from "./callback-url.ts";

// one request kios makes to a reseller's server (a callback's POST today; a report URL's
// GET for an OtomaX-style door later): one total deadline over connect, headers and body
// (a server that answers a byte at a time can't hold it longer), no redirect followed (a
// 3xx is a failure), and the address checked inside the connection's own DNS look-up, so
// the name can't resolve to a public address for the check and a private one for the
// connection.

export type PostResult =
  | { ok: true; status: number }
  | { ok: false; status?: number; error: string };

/** what is sent to a reseller's URL: a POST with a body, or a GET (its query in the URL) */
interface ResellerRequest {
  method: "POST" | "GET";
  url: URL;
  /** POST only */
  body?: string;
  headers: Record<string, string>;
}

export interface SendOptions {
  policy: UrlPolicy;
  /** the whole exchange's limit: connect, headers and the answer's last byte */
  deadlineMs: number;
}

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

/**
 * sends one request to a reseller's server and says how it went; never throws, and never
 * takes longer than the deadline (the timer destroys the request wherever it is)
 */
export function sendToReseller(r: ResellerRequest, options: SendOptions): Promise<PostResult> {
  const send = r.url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const req = send(
      r.url,
      {
        method: r.method,
        headers: {
          ...r.headers,
          ...(r.body === undefined
            ? {}
            : {
                "Content-Type": "application/json",
                "Content-Length": Buffer.byteLength(r.body),
              }),
          "User-Agent": "kios-h2h-callback",
        },
        lookup: guardedLookup(options.policy),
      },
      (res) => {
        const status = res.statusCode ?? 0;
        // the answer's body is drained, never kept
        res.resume();
        res.on("end", () =>
          finish(
            status >= 200 && status < 300
              ? { ok: true, status }
              : {
                  ok: false,
                  status,
                  error: `HTTP ${status}${status >= 300 && status < 400 ? " (redirects are not followed)" : ""}`,
                },
          ),
        );
        res.on("error", () => finish({ ok: false, status, error: "the answer broke off" }));
      },
    );
    // the deadline's answer first, so what the destroyed request reports after it is moot
    const timer = setTimeout(() => {
      finish({
        ok: false,
        error: `no complete answer within ${Math.round(options.deadlineMs / 1000)} s (TIMEOUT)`,
      });
      req.destroy();
    }, options.deadlineMs);
    timer.unref();
    req.on("error", (err: NodeJS.ErrnoException) => {
      const code = err.code ?? "TRANSPORT_ERROR";
      finish({
        ok: false,
        error: code === "EFORBIDDENADDRESS" ? err.message : `could not connect (${code})`,
      });
    });
    req.end(r.body);
  });
}
