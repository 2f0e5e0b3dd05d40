// a local Digiflazz: the buyer API as its documentation describes it (md5 signs per
// endpoint, rc codes, the {data: …} envelope, the price list's full-list limit, pending then
// final with a signed webhook, and the trap: an unknown ref_id re-sent forms a transaction).
// Depends on nothing of kios.

export { defaultPrepaid, type PascaItem, type PrepaidItem } from "./src/catalogue.ts";
export { type DigiflazzFaults, NO_DIGIFLAZZ_FAULTS } from "./src/faults.ts";
export {
  createDigiflazzSandbox,
  DIGIFLAZZ_SANDBOX_ACCOUNT,
  DIGIFLAZZ_SANDBOX_BALANCE,
  type DigiflazzSandbox,
  type DigiflazzSandboxOptions,
  type RunningDigiflazzSandbox,
  startDigiflazzSandbox,
} from "./src/sandbox.ts";
export { hubSignature, md5Sign } from "./src/sign.ts";
export type { SandboxCall as DigiflazzCall, Txn as DigiflazzTxn } from "./src/state.ts";
