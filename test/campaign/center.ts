import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Random } from "./rng.ts";

// resellers whose own server software (the OtomaX family) orders through kios's GET door,
// `/h2h/otomax/trx` (docs/center.md): signed with the campaign's own signer, each refID sent
// several times at once and once more later (as such software does when an answer is late),
// every reply read with the documented parsing pattern, and each final's report received
// at the reseller's report URL, a server of the campaign's own.
//
// One actor kind among the customers; another (text commands in chat) joins by adding a
// runner beside runCenterReseller and its journal fields.

export interface CenterReseller {
  userId: number;
  memberId: string;
  pin: string;
  password: string;
}

/** one request to the door and what came back */
export interface CenterReply {
  memberId: string;
  refId: string;
  /** the product and dest sent (a repeat may name others: the stored order must answer) */
  product: string;
  dest: string;
  /** HTTP status; 0: no answer (a killed web process) */
  status: number;
  text: string;
  /** when the request was sent (ms since the epoch) */
  sentAt: number;
}

/** one GET that reached the report URL */
export interface CenterReport {
  memberId: string;
  refid: string;
  message: string;
  status: string;
  sn: string;
}

export interface CenterJournal {
  replies: CenterReply[];
  reports: CenterReport[];
  /** refIDs sent, per member, with the product and dest of their first request */
  sent: Map<string, { memberId: string; refId: string; product: string; dest: string }>;
}

export const emptyCenterJournal = (): CenterJournal => ({
  replies: [],
  reports: [],
  sent: new Map(),
});

/** docs/center.md's one pattern for every order reply (groups: refID, product, dest, status, SN, reason, price, balance) */
export const REPLY_PATTERN =
  /^R#(\S+) ([^.\s]+)\.(\S+) (SUKSES|GAGAL|PROSES)\.(?: SN: (.*?)\.)?(?: Alasan: (.*?)\.)?(?: Harga ([\d.]+)\.)? Saldo (-?[\d.]+)/;

/** the sign as the reseller's software computes it (docs/center.md), not kios's own code */
export function centerSign(
  r: CenterReseller,
  fields: { product: string; dest: string; refId: string },
): string {
  const text = `OtomaX|${r.memberId}|${fields.product}|${fields.dest}|${fields.refId}|${r.pin}|${r.password}`;
  return createHash("sha1").update(text).digest("base64url");
}

/** the resellers' report URLs: one server, a path per memberID, every GET recorded */
export async function startReportServer(journal: CenterJournal): Promise<{
  urlFor(memberId: string): string;
  close(): Promise<void>;
}> {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const memberId = decodeURIComponent(url.pathname.replace(/^\/report\//, ""));
    journal.reports.push({
      memberId,
      refid: url.searchParams.get("refid") ?? "",
      message: url.searchParams.get("message") ?? "",
      status: url.searchParams.get("status") ?? "",
      sn: url.searchParams.get("sn") ?? "",
    });
    res.writeHead(200, { "content-type": "text/plain" }).end("OK");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    urlFor: (memberId) => `http://127.0.0.1:${port}/report/${encodeURIComponent(memberId)}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface CenterRun {
  /** the web process's base URL */
  webUrl: string;
  journal: CenterJournal;
  takeOrder(): boolean;
  /** the campaign's wait between a reseller's orders (think time), ms */
  pauseMs: number;
}

const CENTER_CODES = ["TSEL5", "TSEL10", "TSEL50"] as const;
/** the seed sandbox's endings (Digiflazz succeeds on each): success, failure, pending, out of stock, the destination's fault */
const CENTER_ENDINGS = ["901", "902", "903", "904", "123", "941", "946"] as const;

async function ask(
  run: CenterRun,
  r: CenterReseller,
  reply: Omit<CenterReply, "status" | "text" | "sentAt">,
) {
  const sign = centerSign(r, reply);
  const q = new URLSearchParams({
    memberID: r.memberId,
    product: reply.product,
    dest: reply.dest,
    refID: reply.refId,
    sign,
  });
  let status = 0;
  let text = "";
  const sentAt = Date.now();
  try {
    const res = await fetch(`${run.webUrl}/h2h/otomax/trx?${q}`, {
      signal: AbortSignal.timeout(30_000),
    });
    status = res.status;
    text = await res.text();
  } catch (err) {
    text = err instanceof Error ? err.message : String(err);
  }
  run.journal.replies.push({ ...reply, status, text, sentAt });
  return status;
}

export async function runCenterReseller(
  run: CenterRun,
  r: CenterReseller,
  rng: Random,
): Promise<void> {
  for (let n = 1; run.takeOrder(); n++) {
    const refId = `${r.memberId}-${n}`;
    const product = rng.pick(CENTER_CODES);
    const dest = `0812${String(10_000 + Math.floor(rng.next() * 89_999)).padStart(5, "0")}${rng.pick(CENTER_ENDINGS)}`;
    run.journal.sent.set(`${r.memberId} ${refId}`, { memberId: r.memberId, refId, product, dest });
    // the software's first request and its impatient repeats, at once
    const burst = 1 + Math.floor(rng.next() * 3);
    const first = await Promise.all(
      Array.from({ length: burst }, () =>
        ask(run, r, { memberId: r.memberId, refId, product, dest }),
      ),
    );
    // once more later: the same refID (sometimes naming another product: the stored order
    // answers), again until a web process answers after a kill
    await new Promise((resolve) => setTimeout(resolve, run.pauseMs));
    const other = rng.next() < 0.2 ? CENTER_CODES.find((c) => c !== product)! : product;
    let tries = first.every((s) => s === 0) ? 5 : 1;
    while (tries-- > 0) {
      const status = await ask(run, r, { memberId: r.memberId, refId, product: other, dest });
      if (status !== 0) break;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}
