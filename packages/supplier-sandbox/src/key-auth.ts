import type { Accounts } from "./accounts.ts";
import { keyFailure } from "./key-format.ts";
import type { Caller } from "./orders.ts";
import type { KeyReply } from "./types.ts";

// the key interface's authentication: `Authorization: Bearer <api_key>`, no signature. The
// key names the account; a revoked key is told apart from an unknown one by the message only.

export type KeyAuthResult = { ok: true; caller: Caller } | { ok: false; reply: KeyReply };

const BEARER = /^Bearer[ \t]+([^\s]+)[ \t]*$/i;

export function authenticateBearer(
  accounts: Accounts,
  authorization: string | undefined,
): KeyAuthResult {
  const token = authorization ? BEARER.exec(authorization)?.[1] : undefined;
  if (!token) {
    return {
      ok: false,
      reply: keyFailure(401, "UNAUTHORIZED", "missing header Authorization: Bearer <api_key>"),
    };
  }
  const found = accounts.byApiKey(token);
  if (!found) {
    return { ok: false, reply: keyFailure(401, "INVALID_API_KEY", "api key not recognised") };
  }
  if (found.key.revoked) {
    return {
      ok: false,
      reply: keyFailure(401, "INVALID_API_KEY", "api key is revoked or disabled"),
    };
  }
  return { ok: true, caller: { account: found.account, key: found.key } };
}
