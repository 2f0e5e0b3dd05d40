import { createHash, timingSafeEqual } from "node:crypto";
import type { SandboxAccountHandle, SandboxAccountInit } from "./types.ts";

// the supplier-side accounts: api_id, its keys (some may be revoked), the deposit balance
// and where callbacks go.

export interface AccountKey {
  apiKey: string;
  secretKey: string;
  revoked: boolean;
}

export interface Account {
  apiId: string;
  keys: AccountKey[];
  balance: number;
  callbackUrl: string | null;
}

export interface Accounts {
  get(apiId: string): Account | undefined;
  /** the account and key an api key (the key interface's Bearer token) belongs to, revoked or not */
  byApiKey(apiKey: string): { account: Account; key: AccountKey } | undefined;
  /** the handle tests and the CLI use; the first account when apiId is omitted */
  handle(apiId?: string): SandboxAccountHandle;
}

function checkAmount(n: number): void {
  if (!Number.isSafeInteger(n) || n < 0)
    throw new Error("balance must be a whole, non-negative rupiah amount");
}

export function createAccounts(inits: readonly SandboxAccountInit[]): Accounts {
  if (inits.length === 0) throw new Error("the sandbox needs at least one account");
  const accounts = new Map<string, Account>();
  for (const init of inits) {
    if (accounts.has(init.apiId)) throw new Error(`duplicate sandbox account ${init.apiId}`);
    checkAmount(init.balance);
    accounts.set(init.apiId, {
      apiId: init.apiId,
      keys: init.keys.map((k) => ({
        apiKey: k.apiKey,
        secretKey: k.secretKey,
        revoked: !!k.revoked,
      })),
      balance: init.balance,
      callbackUrl: init.callbackUrl ?? null,
    });
  }
  const first = inits[0]!.apiId;

  function handle(apiId: string = first): SandboxAccountHandle {
    const account = accounts.get(apiId);
    if (!account) throw new Error(`no sandbox account ${apiId}`);
    return {
      apiId,
      get balance() {
        return account.balance;
      },
      setBalance(n) {
        checkAmount(n);
        account.balance = n;
      },
      get callbackUrl() {
        return account.callbackUrl;
      },
      setCallbackUrl(url) {
        account.callbackUrl = url;
      },
      revokeKey(apiKey) {
        const key = account.keys.find((k) => k.apiKey === apiKey);
        if (!key) throw new Error(`account ${apiId} has no such key`);
        key.revoked = true;
      },
      addKey(key) {
        const existing = account.keys.find((k) => k.apiKey === key.apiKey);
        if (existing) {
          existing.secretKey = key.secretKey;
          existing.revoked = false;
        } else account.keys.push({ ...key, revoked: false });
      },
    };
  }

  const digest = (s: string) => createHash("sha256").update(s, "utf8").digest();

  function byApiKey(apiKey: string): { account: Account; key: AccountKey } | undefined {
    // every key is compared, in constant time per key, so timing tells nothing of a near miss
    const wanted = digest(apiKey);
    let found: { account: Account; key: AccountKey } | undefined;
    for (const account of accounts.values()) {
      for (const key of account.keys) {
        if (timingSafeEqual(digest(key.apiKey), wanted) && !found) found = { account, key };
      }
    }
    return found;
  }

  return { get: (apiId) => accounts.get(apiId), byApiKey, handle };
}
