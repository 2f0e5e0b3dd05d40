// the sandbox supplier: a local server that behaves as supplier-api.md and DESIGN.md say,
// for tests, demos and the zero-configuration start.

export { CALLBACK_EVENT } from "./callbacks.ts";
export type { Catalogue, CatalogueEntry } from "./catalogue.ts";
export { SANDBOX_PRODUCT_CODES } from "./catalogue.ts";
export { NO_FAULTS } from "./faults.ts";
export { KEY_RC, trxIdFor } from "./key-format.ts";
export {
  createSandbox,
  DEFAULT_SANDBOX_BALANCE,
  DEFAULT_SANDBOX_CREDENTIALS,
  startSandbox,
} from "./sandbox.ts";
export type {
  Envelope,
  KeyEnvelope,
  OutcomeName,
  ProductType,
  RunningSandbox,
  Sandbox,
  SandboxAccountHandle,
  SandboxAccountInit,
  SandboxFaults,
  SandboxOptions,
  SandboxRequest,
  SandboxTransaction,
  TransactionKind,
  TransactionState,
  WireProduct,
} from "./types.ts";
