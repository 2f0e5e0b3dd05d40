import { loadConfig } from "../config.ts";
import { formatRupiah } from "../supplier/amounts.ts";
import {
  type ProductCmd,
  type Supplier,
  SupplierError,
  type SupplierProduct,
  type SupplierTransaction,
} from "../supplier/types.ts";
import { type CliDeps, type Command, parseFlags, UsageError } from "./command.ts";
import { cliLogger, print, withSupplier } from "./io.ts";

// `kios balance`, `kios products`, `kios status`: the supplier from SUPPLIER_*, or the
// embedded sandbox when none is configured (so the commands work straight after install).

const CMDS: readonly ProductCmd[] = ["prepaid", "game", "pasca"];

/** runs fn against the configured supplier or the embedded sandbox */
async function withConfiguredSupplier(
  deps: CliDeps,
  fn: (supplier: Supplier) => Promise<number>,
): Promise<number> {
  const config = await loadConfig(deps.env);
  return withSupplier(config, cliLogger(config), (supplier) => report(() => fn(supplier)));
}

/** a supplier refusal or failure prints its code and message and exits 1 */
async function report(fn: () => Promise<number>): Promise<number> {
  try {
    return await fn();
  } catch (err) {
    if (!(err instanceof SupplierError)) throw err;
    console.error(`${err.code}: ${err.message}`);
    if (err.details.errors) {
      for (const [field, messages] of Object.entries(err.details.errors)) {
        console.error(`  ${field}: ${messages.join("; ")}`);
      }
    }
    return 1;
  }
}

export const balanceCommand: Command = {
  name: "balance",
  summary: "show the supplier account balance",
  usage: "kios balance [--json]",
  async run(argv, deps) {
    const { values } = parseFlags(argv, { json: { type: "boolean", default: false } });
    return withConfiguredSupplier(deps, async (supplier) => {
      const balance = await supplier.balance();
      await print(
        values.json
          ? JSON.stringify(balance, null, 2)
          : `balance: ${formatRupiah(balance.balance)}`,
      );
      return 0;
    });
  },
};

export const productsCommand: Command = {
  name: "products",
  summary: "list the supplier's products of one kind",
  usage: "kios products --cmd prepaid|game|pasca [--json]",
  async run(argv, deps) {
    const { values } = parseFlags(argv, {
      cmd: { type: "string" },
      json: { type: "boolean", default: false },
    });
    const cmd = values.cmd as ProductCmd | undefined;
    if (cmd === undefined) throw new UsageError("--cmd is required");
    if (!CMDS.includes(cmd)) throw new UsageError(`--cmd must be one of ${CMDS.join(", ")}`);
    return withConfiguredSupplier(deps, async (supplier) => {
      const products = await supplier.products(cmd);
      await print(
        values.json
          ? JSON.stringify(products, null, 2)
          : `${productTable(products)}\n${products.length} ${cmd} products`,
      );
      return 0;
    });
  },
};

export const statusCommand: Command = {
  name: "status",
  summary: "ask the supplier for a transaction's status by its ref_id",
  usage: "kios status <ref_id> [--json]",
  async run(argv, deps) {
    const { values, positionals } = parseFlags(
      argv,
      { json: { type: "boolean", default: false } },
      true,
    );
    const [refId, ...extra] = positionals;
    if (refId === undefined) throw new UsageError("a ref_id is required");
    if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
    return withConfiguredSupplier(deps, async (supplier) => {
      const result = await supplier.status(refId);
      if (!result.found) {
        console.error(
          `TRANSACTION_NOT_FOUND: the supplier has no transaction with ref_id ${refId}`,
        );
        return 1;
      }
      await print(
        values.json
          ? JSON.stringify(result.transaction, null, 2)
          : describeTransaction(result.transaction),
      );
      return 0;
    });
  },
};

const NAME_WIDTH = 40;

function productTable(products: SupplierProduct[]): string {
  const rows = products.map((p) => [
    p.code,
    p.name.length > NAME_WIDTH ? `${p.name.slice(0, NAME_WIDTH - 1)}…` : p.name,
    p.brand,
    p.category,
    formatRupiah(p.price),
    p.active ? "active" : "inactive",
  ]);
  const header = ["CODE", "NAME", "BRAND", "CATEGORY", "PRICE", "STATUS"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 4 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [line(header), ...rows.map(line)].join("\n");
}

function describeTransaction(t: SupplierTransaction): string {
  const lines: [string, string][] = [
    ["ref_id", t.refId],
    ["kind", t.kind],
    ["status", t.status],
    ["product", t.name ? `${t.code} (${t.name})` : t.code],
    ["customer", t.customerNo],
    ["price", formatRupiah(t.price)],
    ["sn", t.sn ?? "-"],
    ["created", t.createdAt || "-"],
    ["supplier", t.message ? `${t.supplierCode}: ${t.message}` : t.supplierCode],
  ];
  if (t.bill) {
    lines.splice(
      5,
      0,
      ["name", t.bill.customerName],
      [
        "bill",
        `${formatRupiah(t.bill.tagihan)} + admin ${formatRupiah(t.bill.admin)} = ${formatRupiah(t.bill.total)}`,
      ],
    );
  }
  const width = Math.max(...lines.map(([k]) => k.length));
  return lines.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join("\n");
}
