// the sandbox supplier: a local server that behaves as kios's upstream supplier documents it
// (docs/supplier.md), for tests, demos and the zero-configuration start. Depends on nothing of kios.

export type { Catalogue, CatalogueEntry } from "./src/catalogue.ts";
export { SANDBOX_PRODUCT_CODES } from "./src/catalogue.ts";
export { NO_FAULTS } from "./src/faults.ts";
export { KEY_RC, trxIdFor } from "./src/key-format.ts";
export { CALLBACK_EVENT } from "./src/reports.ts";
export { hashString, type Rng, seededRng } from "./src/rng.ts";
export {
  createSandbox,
  DEFAULT_SANDBOX_BALANCE,
  DEFAULT_SANDBOX_CREDENTIALS,
  startSandbox,
} from "./src/sandbox.ts";
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
  SandboxRefusal,
  SandboxRequest,
  SandboxTransaction,
  TransactionKind,
  TransactionState,
  WireProduct,
} from "./src/types.ts";
