import {
  type CenterKeyRow,
  type CenterKeySettings,
  centerKeyOfUser,
  createCenterKey,
  revokeCenterKey,
  rotateCenterKey,
  updateCenterKeySettings,
} from "../commerce/center/keys.ts";
import { checkCallbackUrl } from "../commerce/h2h/callback-url.ts";
import { createSecretBox } from "../commerce/h2h/cipher.ts";
import { callbackLoopbackAllowed, loadConfig } from "../config.ts";
import { accessSettingsOf } from "./api-key.ts";
import { type Command, parseFlags, UsageError } from "./command.ts";
import { withDatabase } from "./database.ts";

// the owner's hand on resellers' OtomaX-door credentials (docs/center.md#credentials):
// create and rotate print memberID, pin and password once, as JSON; nothing else shows them.

const USAGE =
  "kios center-key create|rotate|revoke|show <user_id>\n" +
  "       kios center-key set <user_id> [--report-url URL|none] [--ips A,B|none] [--rate N] [--on|--off]";

function publicView(row: CenterKeyRow) {
  return {
    user_id: row.userId,
    memberID: row.memberId,
    report_url: row.reportUrl,
    ip_allowlist: row.ipAllowlist,
    rate_per_minute: row.ratePerMinute,
    enabled: row.enabled,
    revoked_at: row.revokedAt?.toISOString() ?? null,
    rotated_at: row.rotatedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

function settingsOf(
  values: Record<string, string | boolean | undefined>,
  allowLoopbackHttp: boolean,
): CenterKeySettings {
  const s: CenterKeySettings = accessSettingsOf(values);
  const url = values["report-url"];
  if (typeof url === "string") {
    if (url === "none") s.reportUrl = null;
    else {
      // the H2H callbacks' URL rules: https, a public host
      const verdict = checkCallbackUrl(url, { allowLoopbackHttp });
      if (!verdict.ok) throw new UsageError(`--report-url ${verdict.reason}`);
      s.reportUrl = verdict.url.toString();
    }
  }
  return s;
}

const REFUSED = {
  has_key: "this user has credentials already: rotate them",
  no_key: "this user has no credentials: create them",
  not_reseller: "only a reseller can hold center credentials (kios reseller promote)",
} as const;

export const centerKeyCommand: Command = {
  name: "center-key",
  summary: "a reseller's OtomaX-door credentials: create, rotate, revoke, show, set (JSON)",
  usage: USAGE,
  async run(argv, deps) {
    const { values, positionals } = parseFlags(
      argv,
      {
        "report-url": { type: "string" },
        ips: { type: "string" },
        rate: { type: "string" },
        on: { type: "boolean" },
        off: { type: "boolean" },
      },
      true,
    );
    const [action, id, ...rest] = positionals;
    if (!action || !["create", "rotate", "revoke", "show", "set"].includes(action)) {
      throw new UsageError("the subcommands are: create, rotate, revoke, show, set");
    }
    if (!id || !/^\d{1,20}$/.test(id) || rest.length > 0)
      throw new UsageError("give one Telegram user id");
    const userId = Number(id);
    const config = await loadConfig(deps.env);
    if (!config.h2h)
      throw new UsageError("H2H_ENCRYPTION_KEY is not set: the H2H doors are off (docs/center.md)");
    const box = createSecretBox(config.h2h.encryptionKey);
    const settings = action === "set" ? settingsOf(values, callbackLoopbackAllowed(config)) : {};
    const out = await withDatabase(deps, async ({ db }) => {
      const now = new Date();
      switch (action) {
        case "create": {
          const r = await createCenterKey(db, box, userId);
          return r.ok ? keyJson(r.key) : { error: REFUSED[r.reason] };
        }
        case "rotate": {
          const r = await rotateCenterKey(db, box, userId, now);
          return r.ok ? keyJson(r.key) : { error: REFUSED[r.reason] };
        }
        case "revoke": {
          const r = await revokeCenterKey(db, userId, now);
          return r.ok
            ? { user_id: userId, memberID: r.memberId, revoked: true }
            : { error: REFUSED[r.reason] };
        }
        case "set": {
          const row = await updateCenterKeySettings(db, userId, settings);
          return row ? publicView(row) : { error: REFUSED.no_key };
        }
        default: {
          const row = await centerKeyOfUser(db, userId);
          return row ? publicView(row) : { error: "this user has no credentials" };
        }
      }
    });
    console.log(JSON.stringify(out, null, 2));
    return "error" in out ? 1 : 0;
  },
};

function keyJson(k: { userId: number; memberId: string; pin: string; password: string }) {
  return { user_id: k.userId, memberID: k.memberId, pin: k.pin, password: k.password };
}
