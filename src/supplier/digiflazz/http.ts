import { createHash } from "node:crypto";
import {
  createTransport,
  type Dialect,
  type TransportReply,
  type TransportSettings,
} from "../transport.ts";
import { DIGIFLAZZ_NAMING } from "./codes.ts";
import { type DigiflazzEnvelope, digiflazzEnvelopeSchema } from "./wire.ts";

// Digiflazz's requests: POST JSON with the username and an md5 sign in the body (no
// timestamp, no header), sent through the shared transport (timeout, the read retry loop).
// The caller interprets the envelope's rc.

/** the endpoints, as logged */
type DigiflazzEndpoint =
  | "POST /cek-saldo"
  | "POST /price-list"
  | "POST /transaction"
  | "POST /deposit";

/** md5(username + apiKey + what): "depo", "pricelist", "deposit", or the ref_id */
function digiflazzSign(username: string, apiKey: string, what: string): string {
  return createHash("md5").update(`${username}${apiKey}${what}`).digest("hex");
}

export interface DigiflazzRequest {
  endpoint: DigiflazzEndpoint;
  /** what the sign covers after username and key */
  signs: string;
  /** the body without username and sign */
  body: Record<string, unknown>;
}

export type DigiflazzReply = TransportReply<DigiflazzEnvelope>;

export interface DigiflazzWireOptions extends TransportSettings {
  baseUrl: string;
  username: string;
  apiKey: string;
  scrub: (text: string) => string;
}

export interface DigiflazzWire {
  send(request: DigiflazzRequest, retries: number): Promise<DigiflazzReply>;
}

const DIALECT: Dialect<DigiflazzEnvelope> = {
  ...DIGIFLAZZ_NAMING,
  schema: digiflazzEnvelopeSchema,
  codeOf: (envelope) => envelope.rc,
  // no rc is a transport fault: a limit (83) or a refusal is read by the caller, once
  meaning: () => undefined,
  hint: "is SUPPLIER_BASE_URL Digiflazz's (https://api.digiflazz.com/v1)?",
};

export function createDigiflazzWire(options: DigiflazzWireOptions): DigiflazzWire {
  const transport = createTransport(DIALECT, options);
  return {
    send(request, retries) {
      const path = request.endpoint.slice("POST ".length);
      const body = JSON.stringify({
        ...request.body,
        username: options.username,
        sign: digiflazzSign(options.username, options.apiKey, request.signs),
      });
      return transport.send(
        {
          where: request.endpoint,
          logFields: { endpoint: request.endpoint },
          attemptFields: { ref_id: request.body.ref_id },
          build: () => ({
            url: `${options.baseUrl}${path}`,
            init: {
              method: "POST",
              headers: {
                accept: "application/json",
                "content-type": "application/json; charset=utf-8",
              },
              body,
            },
            scrub: options.scrub,
          }),
        },
        retries,
      );
    },
  };
}
