// the key-based alternate interface (SUPPLIER_INTERFACE=key)

export { createKeySupplier, type KeySupplier, type KeySupplierOptions } from "./client.ts";
export { RC_ERRORS, TRANSACTION_RCS } from "./codes.ts";
