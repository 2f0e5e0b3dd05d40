import { GatewayError } from "./types.ts";

// a gateway's picture of a QR (Midtrans's generate-qr-code link), fetched to be sent as the
// photo: only a small PNG, quickly, and without the server key (the link needs none).

const PNG_SIGNATURE = Buffer.from("89504e470d0a1a0a", "hex");
/** a QR picture is a few kilobytes; anything near this is not one */
const QR_IMAGE_MAX_BYTES = 512 * 1024;
export const QR_IMAGE_TIMEOUT_MS = 5_000;

export async function fetchQrImage(
  link: string,
  o: {
    /** the gateway's API base: a plain-http link is fetched only from it (a local sandbox) */
    baseUrl: string;
    timeoutMs?: number;
    fetch?: typeof fetch;
  },
): Promise<Buffer> {
  const fail = (why: string) => new GatewayError(`midtrans: the QR picture ${why}`, true);
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    throw fail("link is not a URL");
  }
  if (url.protocol !== "https:" && url.origin !== new URL(o.baseUrl).origin) {
    throw fail(`link is neither https nor the gateway's own (${url.origin})`);
  }
  const doFetch = o.fetch ?? fetch;
  const signal = AbortSignal.timeout(o.timeoutMs ?? QR_IMAGE_TIMEOUT_MS);
  try {
    const res = await doFetch(url, { headers: { accept: "image/png" }, signal });
    if (!res.ok) {
      await res.body?.cancel();
      throw fail(`answered HTTP ${res.status}`);
    }
    const declared = Number(res.headers.get("content-length") ?? 0);
    if (declared > QR_IMAGE_MAX_BYTES) {
      await res.body?.cancel();
      throw fail(`is too large (${declared} bytes)`);
    }
    const png = await readCapped(res, signal, () => fail("is too large"));
    if (!png.subarray(0, 8).equals(PNG_SIGNATURE)) throw fail("is not a PNG");
    return png;
  } catch (err) {
    if (err instanceof GatewayError) throw err;
    throw fail(`could not be fetched: ${(err as Error).message}`);
  }
}

/** the body, up to the cap (more is refused without reading it all), within the deadline */
async function readCapped(
  res: Response,
  signal: AbortSignal,
  tooLarge: () => Error,
): Promise<Buffer> {
  if (!res.body) return Buffer.alloc(0);
  const reader = res.body.getReader();
  // the deadline holds even for a body its fetch does not tie to the signal
  const aborted = new Promise<never>((_, reject) => {
    const stop = () => reject(new Error("timed out"));
    if (signal.aborted) stop();
    else signal.addEventListener("abort", stop, { once: true });
  });
  aborted.catch(() => {});
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), aborted]);
      if (done) break;
      size += value.byteLength;
      if (size > QR_IMAGE_MAX_BYTES) throw tooLarge();
      chunks.push(Buffer.from(value));
    }
  } catch (err) {
    await reader.cancel().catch(() => {});
    throw err;
  }
  return Buffer.concat(chunks);
}
