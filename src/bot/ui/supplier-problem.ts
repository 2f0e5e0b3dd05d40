import { SupplierError } from "../../supplier/types.ts";

/** supplier trouble as an admin may see it: the code, never the request */
export function supplierProblem(err: unknown): string {
  if (err instanceof SupplierError) return err.code;
  const cause = err instanceof Error ? err.cause : undefined;
  return cause instanceof SupplierError ? cause.code : "ERROR";
}
