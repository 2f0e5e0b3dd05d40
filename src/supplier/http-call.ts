import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";

// A supplier request over node:http rather than fetch. Every order is one request to a
// supplier, and undici's fetch (its Request, Response and web streams) cost 0.45 ms of CPU
// per request here against 0.11 ms for node:http (docs/performance.md). The transport keeps
// everything else (the timeout, the envelope, the retries); tests still hand it a fetch.
// As fetch did: the whole answer read as text, a gzip, deflate or br body decoded. Unlike
// fetch: a redirect is not followed (a 3xx is an answer without the envelope), as a request
// that moves money goes where it was configured to or nowhere.

export interface HeaderReader {
  get(name: string): string | null;
}

export interface HttpReply {
  status: number;
  headers: HeaderReader;
  text: string;
}

export interface HttpCallInit {
  method: string;
  headers: Record<string, string>;
  body?: string | undefined;
  /** aborts the request wherever it is: connecting, sending, or reading the answer */
  signal: AbortSignal;
}

/** one request and its whole answer; rejects on a transport failure or an abort */
export type HttpCall = (url: string, init: HttpCallInit) => Promise<HttpReply>;

/**
 * the most of an answer kept (as sent, before decoding): a price list is a few MiB, and an
 * answer without end would otherwise fill the heap
 */
export const MAX_ANSWER_BYTES = 32 * 2 ** 20;

/** an error with a code, as the socket's own are (the transport names the call by it) */
function failure(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

const answerTooLarge = () =>
  failure("ANSWER_TOO_LARGE", `the answer is larger than ${MAX_ANSWER_BYTES / 2 ** 20} MiB`);

function headerReader(res: IncomingMessage): HeaderReader {
  return {
    get(name) {
      const value = res.headers[name.toLowerCase()];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(", ") : value;
    },
  };
}

// a small compressed answer may decode to far more
const bounded = { maxOutputLength: MAX_ANSWER_BYTES };

function decoded(body: Buffer, encoding: string | undefined): Buffer {
  switch (encoding?.trim().toLowerCase()) {
    case "gzip":
    case "x-gzip":
      return gunzipSync(body, bounded);
    case "deflate":
      return inflateSync(body, bounded);
    case "br":
      return brotliDecompressSync(body, bounded);
    default:
      return body;
  }
}

/**
 * an HttpCall with its own keep-alive connections (one pool per supplier client, as each
 * fetch-based client shared undici's): the supplier's TLS handshake is paid once, not per
 * order
 */
export function createHttpCall(): HttpCall {
  const agents = {
    http: new HttpAgent({ keepAlive: true }),
    https: new HttpsAgent({ keepAlive: true }),
  };
  return (url, init) =>
    new Promise<HttpReply>((resolve, reject) => {
      const target = new URL(url);
      const https = target.protocol === "https:";
      if (!https && target.protocol !== "http:") {
        reject(new TypeError(`not an http(s) URL: ${target.protocol}`));
        return;
      }
      const headers: Record<string, string | number> = { "user-agent": "kios", ...init.headers };
      if (init.body !== undefined) headers["content-length"] = Buffer.byteLength(init.body);
      const options = {
        method: init.method,
        headers,
        signal: init.signal,
        agent: https ? agents.https : agents.http,
      };
      const onAnswer = (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) {
            req.destroy(answerTooLarge());
            return;
          }
          chunks.push(chunk);
        });
        res.on("error", reject);
        res.on("aborted", () => reject(new Error("the answer broke off")));
        res.on("end", () => {
          try {
            const body = decoded(Buffer.concat(chunks), res.headers["content-encoding"]);
            resolve({
              status: res.statusCode ?? 0,
              headers: headerReader(res),
              text: body.toString("utf8"),
            });
          } catch (err) {
            // a body that decodes past the limit, or not at all
            reject(
              err instanceof RangeError
                ? answerTooLarge()
                : failure("ANSWER_UNDECODABLE", "the answer could not be decoded"),
            );
          }
        });
      };
      const req = https
        ? httpsRequest(target, options, onAnswer)
        : httpRequest(target, options, onAnswer);
      req.on("error", reject);
      req.end(init.body);
    });
}

/** an HttpCall made of a fetch (tests hand the transport one to script the supplier) */
export function httpCallOf(fetchImpl: typeof fetch): HttpCall {
  return async (url, init) => {
    const response = await fetchImpl(url, init);
    // the timeout covers reading the body too
    const text = await response.text();
    return { status: response.status, headers: response.headers, text };
  };
}
