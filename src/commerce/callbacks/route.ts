import type { Clock } from "@kios/kit";
import { CALLBACK_SIGNATURE_HEADER, CALLBACK_TIMESTAMP_HEADER, verifyCallback } from "@kios/kit";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { Database } from "../../db/client.ts";
import type { Logger } from "../../logger.ts";
import type { AppEnv } from "../../server/app.ts";
import { parseCallback } from "../../supplier/callback.ts";
import { storeCallback } from "./inbox.ts";

const CALLBACK_PATH = "/supplier/callback";

export interface CallbackRouteDeps {
  db: Database;
  /** the supplier account's secret_key, which signs callbacks */
  secretKey: string;
  clock: Clock;
  logger: Logger;
  /** a new callback is stored: process it (a job) */
  onStored(callbackId: number): Promise<void>;
  onReceived?(result: "accepted" | "duplicate" | "unauthorized" | "malformed"): void;
}

/**
 * POST /supplier/callback: verify the signature on the raw body (constant time, 5-minute
 * tolerance), store it once, answer at once; the work happens in a job.
 */
export function createSupplierCallbackRoute(deps: CallbackRouteDeps): Hono<AppEnv> {
  const log = deps.logger.child({ component: "callbacks" });
  const count = deps.onReceived ?? (() => {});
  return new Hono<AppEnv>().post(
    CALLBACK_PATH,
    bodyLimit({ maxSize: 64 * 1024, onError: (c) => c.json({ error: "payload_too_large" }, 413) }),
    async (c) => {
      const raw = await c.req.text();
      const verdict = verifyCallback(
        deps.secretKey,
        raw,
        c.req.header(CALLBACK_TIMESTAMP_HEADER),
        c.req.header(CALLBACK_SIGNATURE_HEADER),
        deps.clock.now(),
      );
      if (!verdict.ok) {
        log.warn({ reason: verdict.reason, requestId: c.get("requestId") }, "callback refused");
        count("unauthorized");
        return c.json({ error: "unauthorized", reason: verdict.reason }, 401);
      }
      let parsed: ReturnType<typeof parseCallback>;
      try {
        parsed = parseCallback(raw);
      } catch {
        count("malformed");
        return c.json({ error: "malformed_callback" }, 400);
      }
      const { id, duplicate } = await storeCallback(deps.db, {
        rawBody: raw,
        refId: parsed.transaction.refId,
        reportedStatus: parsed.transaction.status,
      });
      count(duplicate ? "duplicate" : "accepted");
      if (!duplicate) {
        log.info(
          { refId: parsed.transaction.refId, status: parsed.transaction.status },
          "callback",
        );
        await deps.onStored(id);
      }
      return c.json({ ok: true, duplicate });
    },
  );
}
