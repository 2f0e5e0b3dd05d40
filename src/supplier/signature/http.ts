import type { Clock } from "@kios/kit";
import { type SigningCredentials, signedBody } from "@kios/kit";
import { redactor } from "../redact.ts";
import {
  createTransport,
  type Dialect,
  type TransportReply,
  type TransportSettings,
} from "../transport.ts";
import { SIGNATURE_NAMING } from "./codes.ts";
import { type Envelope, envelopeSchema } from "./wire.ts";

// the signature-based interface's requests: one signed POST per attempt (signed afresh, the
// signature carries the time), sent through the shared transport (timeout, faults, the read
// retry loop). The caller interprets the envelope's code.

type SupplierPath = "/balance" | "/products" | "/order" | "/status";

export type WireReply = TransportReply<Envelope>;

export interface WireOptions extends TransportSettings {
  /** ends in /v1 */
  baseUrl: string;
  credentials: SigningCredentials;
  clock: Clock;
}

export interface Wire {
  /** retries: how many more attempts after the first (0 for anything that moves money) */
  post(
    path: SupplierPath,
    params: Record<string, unknown>,
    retries: number,
    /** sign with this instant (ms) instead of now: the order stored it before the call */
    signedAtMs?: number,
  ): Promise<WireReply>;
}

const DIALECT: Dialect<Envelope> = {
  ...SIGNATURE_NAMING,
  schema: envelopeSchema,
  codeOf: (envelope) => envelope.code,
  // this interface's fault codes are kios's own names
  meaning: (code) => code,
  hint: "is SUPPLIER_BASE_URL right?",
};

export function createWire(options: WireOptions): Wire {
  const { credentials, clock } = options;
  const transport = createTransport(DIALECT, options);
  return {
    post(path, params, retries, signedAtMs) {
      return transport.send(
        {
          where: `POST ${path}`,
          logFields: { path },
          attemptFields: { cmd: params.cmd, ref_id: params.ref_id },
          build: () => {
            const body = signedBody(credentials, params, signedAtMs ?? clock.now());
            return {
              url: `${options.baseUrl}${path}`,
              init: {
                method: "POST",
                headers: {
                  "content-type": "application/json; charset=utf-8",
                  accept: "application/json",
                },
                body: JSON.stringify(body),
              },
              // the supplier's text must not carry back a secret, nor this attempt's signature
              scrub: redactor([credentials.apiKey, credentials.secretKey, String(body.signature)]),
            };
          },
        },
        retries,
      );
    },
  };
}
