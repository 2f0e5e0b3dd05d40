import { checkCallbackUrl } from "../commerce/h2h/callback-url.ts";
import { recentCallbackFailures } from "../commerce/h2h/callbacks.ts";
import { createSecretBox } from "../commerce/h2h/cipher.ts";
import {
  createKey,
  type H2hKeyRow,
  type KeySettings,
  keyOfUser,
  revokeKey,
  rotateKey,
  updateKeySettings,
} from "../commerce/h2h/keys.ts";
import { callbackLoopbackAllowed, loadConfig } from "../config.ts";
import { type Command, parseFlags, UsageError } from "./command.ts";
import { withDatabase } from "./database.ts";

// the owner's hand on resellers' H2H keys (docs/h2h.md#keys). create and rotate print the
// secrets once, as JSON for the owner to hand over; nothing else ever shows them.

const USAGE =
  "kios api-key create|rotate|revoke|show <user_id>\n" +
  "       kios api-key set <user_id> [--callback-url URL|none] [--ips A,B|none] [--rate N] [--on|--off] [--chat-results on|off]";

function publicView(row: H2hKeyRow) {
  return {
    user_id: row.userId,
    api_id: row.apiId,
    callback_url: row.callbackUrl,
    ip_allowlist: row.ipAllowlist,
    rate_per_minute: row.ratePerMinute,
    enabled: row.enabled,
    chat_results: row.chatResults,
    revoked_at: row.revokedAt?.toISOString() ?? null,
    rotated_at: row.rotatedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

/** --ips, --rate, --on/--off: the access settings every reseller door's key has */
export function accessSettingsOf(values: Record<string, string | boolean | undefined>): {
  ipAllowlist?: string[];
  ratePerMinute?: number;
  enabled?: boolean;
} {
  const s: { ipAllowlist?: string[]; ratePerMinute?: number; enabled?: boolean } = {};
  const ips = values.ips;
  if (typeof ips === "string") {
    const list =
      ips === "none"
        ? []
        : ips
            .split(",")
            .map((ip) => ip.trim())
            .filter(Boolean);
    if (list.some((ip) => !/^[0-9a-fA-F.:]{2,45}$/.test(ip)))
      throw new UsageError("--ips takes IP addresses separated by commas");
    s.ipAllowlist = list;
  }
  const rate = values.rate;
  if (typeof rate === "string") {
    if (!/^\d{1,6}$/.test(rate))
      throw new UsageError("--rate is requests per minute (0: no limit)");
    s.ratePerMinute = Number(rate);
  }
  if (values.on && values.off) throw new UsageError("--on or --off, not both");
  if (values.on) s.enabled = true;
  if (values.off) s.enabled = false;
  return s;
}

function settingsOf(
  values: Record<string, string | boolean | undefined>,
  allowLoopbackHttp: boolean,
): KeySettings {
  const s: KeySettings = {};
  const url = values["callback-url"];
  if (typeof url === "string") {
    if (url === "none") s.callbackUrl = null;
    else {
      const verdict = checkCallbackUrl(url, { allowLoopbackHttp });
      if (!verdict.ok) throw new UsageError(`--callback-url ${verdict.reason}`);
      s.callbackUrl = verdict.url.toString();
    }
  }
  Object.assign(s, accessSettingsOf(values));
  const chat = values["chat-results"];
  if (typeof chat === "string") {
    if (chat !== "on" && chat !== "off") throw new UsageError("--chat-results is on or off");
    s.chatResults = chat === "on";
  }
  return s;
}

export const apiKeyCommand: Command = {
  name: "api-key",
  summary: "a reseller's H2H key: create, rotate, revoke, show, set (JSON)",
  usage: USAGE,
  async run(argv, deps) {
    const { values, positionals } = parseFlags(
      argv,
      {
        "callback-url": { type: "string" },
        ips: { type: "string" },
        rate: { type: "string" },
        on: { type: "boolean" },
        off: { type: "boolean" },
        "chat-results": { type: "string" },
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
      throw new UsageError("H2H_ENCRYPTION_KEY is not set: the H2H API is off (docs/h2h.md)");
    const box = createSecretBox(config.h2h.encryptionKey);
    const settings = action === "set" ? settingsOf(values, callbackLoopbackAllowed(config)) : {};
    const out = await withDatabase(deps, async ({ db }) => {
      const now = new Date();
      switch (action) {
        case "create": {
          const r = await createKey(db, box, userId);
          return r.ok ? keyJson(r.key) : { error: "this user has a key already: rotate it" };
        }
        case "rotate": {
          const r = await rotateKey(db, box, userId, now);
          return r.ok ? keyJson(r.key) : { error: "this user has no key: create one" };
        }
        case "revoke": {
          const r = await revokeKey(db, userId, now);
          return r.ok
            ? { user_id: userId, api_id: r.apiId, revoked: true }
            : { error: "this user has no key" };
        }
        case "set": {
          const row = await updateKeySettings(db, userId, settings);
          return row ? publicView(row) : { error: "this user has no key: create one" };
        }
        default: {
          const row = await keyOfUser(db, userId);
          if (!row) return { error: "this user has no key" };
          const failures = await recentCallbackFailures(db, userId);
          return { ...publicView(row), recent_callback_failures: failures };
        }
      }
    });
    console.log(JSON.stringify(out, null, 2));
    return "error" in out ? 1 : 0;
  },
};

function keyJson(k: { userId: number; apiId: string; apiKey: string; secretKey: string }) {
  return { user_id: k.userId, api_id: k.apiId, api_key: k.apiKey, secret_key: k.secretKey };
}
