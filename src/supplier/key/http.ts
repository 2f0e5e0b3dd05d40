import {
  createTransport,
  type Dialect,
  type TransportReply,
  type TransportSettings,
} from "../transport.ts";
import { errorCodeOfRc, KEY_NAMING } from "./codes.ts";
import { type KeyEnvelope, keyEnvelopeSchema } from "./wire.ts";

// the key-based interface's requests (Authorization: Bearer, no body signature), sent
// through the shared transport (timeout, faults, the read retry loop). The caller
// interprets the envelope's rc.

/** the endpoints, as logged and as named in deprecation notices */
type KeyEndpoint =
  | "GET /v1/balance"
  | "GET /v1/products"
  | "POST /v1/transaction"
  | "GET /v1/transaction"
  | "GET /v1/transaction/{trx_id}"
  | "POST /v1/inquiry";

export interface KeyRequest {
  endpoint: KeyEndpoint;
  /** under the base URL, e.g. "/transaction/T123" */
  path: string;
  query?: Record<string, string>;
  /** POST only */
  body?: Record<string, unknown>;
}

export type KeyReply = TransportReply<KeyEnvelope>;

export interface KeyWireOptions extends TransportSettings {
  /** ends in /v1 */
  baseUrl: string;
  apiKey: string;
  /** removes the key from text the supplier sent */
  scrub: (text: string) => string;
}

export interface KeyWire {
  /** retries: how many more attempts after the first (0 for anything that moves money) */
  send(request: KeyRequest, retries: number): Promise<KeyReply>;
}

const DIALECT: Dialect<KeyEnvelope> = {
  ...KEY_NAMING,
  schema: keyEnvelopeSchema,
  codeOf: (envelope) => envelope.rc,
  meaning: errorCodeOfRc,
  hint: "is SUPPLIER_BASE_URL right, and does the account speak SUPPLIER_INTERFACE=key?",
};

export function createKeyWire(options: KeyWireOptions): KeyWire {
  const transport = createTransport(DIALECT, options);
  return {
    send(request, retries) {
      const query = request.query ? `?${new URLSearchParams(request.query).toString()}` : "";
      const { body } = request;
      return transport.send(
        {
          where: request.endpoint,
          logFields: { endpoint: request.endpoint },
          attemptFields: { ref_id: body?.ref_id ?? request.query?.ref_id },
          build: () => ({
            url: `${options.baseUrl}${request.path}${query}`,
            init: {
              method: body ? "POST" : "GET",
              headers: {
                authorization: `Bearer ${options.apiKey}`,
                accept: "application/json",
                // a header with an undefined value would be sent as "undefined": kept out instead
                ...(body ? { "content-type": "application/json; charset=utf-8" } : {}),
              },
              body: body ? JSON.stringify(body) : undefined,
            },
            scrub: options.scrub,
          }),
        },
        retries,
      );
    },
  };
}
