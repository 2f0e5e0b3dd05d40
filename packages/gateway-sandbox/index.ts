// the gateway sandbox: a local payment gateway that speaks Midtrans's Core API shapes for
// QRIS (charge, status, cancel, HTTP notifications), for tests, the playground and the
// zero-configuration start. Depends on nothing of kios but `@kios/kit`.

export { midtransSignature } from "@kios/kit";
export {
  createGatewaySandbox,
  DEFAULT_GATEWAY_CREDENTIALS,
  type GatewaySandbox,
  NO_GATEWAY_FAULTS,
  type RunningGatewaySandbox,
  startGatewaySandbox,
} from "./src/sandbox.ts";
export type {
  Charge,
  GatewayFaults,
  GatewaySandboxOptions,
  SentNotification,
} from "./src/types.ts";
