import { verifyLedger } from "../commerce/wallet/verify.ts";
import { type Command, parseFlags, UsageError } from "./command.ts";
import { withDatabase } from "./database.ts";

export const ledgerCommand: Command = {
  name: "ledger",
  summary: "ledger verify: recompute every balance from its entries",
  usage: "kios ledger verify [--json]",
  async run(argv, deps) {
    const { values, positionals } = parseFlags(argv, { json: { type: "boolean" } }, true);
    if (positionals[0] !== "verify" || positionals.length !== 1) {
      throw new UsageError("the only subcommand is: verify");
    }
    const report = await withDatabase(deps, verifyLedger);
    if (values.json) {
      console.log(JSON.stringify(report, null, 2));
    } else {
      console.log(
        `${report.accounts} accounts, ${report.transfers} transfers, ${report.entries} entries`,
      );
      for (const problem of report.problems) console.log(`MISMATCH ${problem}`);
      console.log(report.ok ? "ledger ok" : `ledger has ${report.problems.length} problem(s)`);
    }
    return report.ok ? 0 : 1;
  },
};
