import { monotonicFactory } from "ulid";

const next = monotonicFactory();

/**
 * kios's own transaction reference: "K" + a ULID (27 characters, under the 64 of docs/supplier.md#ref_id),
 * unique and sortable by creation time, so every order can be looked up by it.
 */
export function newRefId(now: number = Date.now()): string {
  return `K${next(now)}`;
}

export const REF_ID_PATTERN = /^[A-Za-z0-9._/-]{1,64}$/;
