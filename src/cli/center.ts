import { loadAliases, removeAlias, setAlias } from "../commerce/center/aliases.ts";
import { KEYWORDS } from "../commerce/center/commands.ts";
import { type Command, parseFlags, UsageError } from "./command.ts";
import { withDatabase } from "./database.ts";

// the owner's words for the center's text commands (docs/center.md#aliases)

const USAGE =
  "kios center alias <KEYWORD> <ALIAS>   (e.g. kios center alias SAL SALDO)\n" +
  "       kios center alias --remove <ALIAS>\n" +
  "       kios center alias                 (the list)";

const REFUSED = {
  unknown_keyword: `the keywords are: ${KEYWORDS.join(", ")}`,
  bad_alias: "an alias is a letter, then up to 15 letters, digits, - or _",
  is_keyword: "a keyword can't be an alias of another",
  is_product: "a product has this code: its text orders would become the keyword's",
} as const;

export const centerCommand: Command = {
  name: "center",
  summary: "the center's text commands: keyword aliases (JSON)",
  usage: USAGE,
  async run(argv, deps) {
    const { values, positionals } = parseFlags(argv, { remove: { type: "string" } }, true);
    const [sub, ...args] = positionals;
    if (sub !== "alias") throw new UsageError("the subcommand is: alias");
    const out = await withDatabase(deps, async ({ db }) => {
      if (typeof values.remove === "string") {
        if (args.length > 0) throw new UsageError("--remove takes one alias");
        return (await removeAlias(db, values.remove))
          ? { removed: values.remove.toUpperCase() }
          : { error: "no such alias" };
      }
      if (args.length === 2) {
        const r = await setAlias(db, args[0]!, args[1]!);
        return r.ok ? { alias: r.alias, keyword: r.keyword } : { error: REFUSED[r.reason] };
      }
      if (args.length !== 0) throw new UsageError("give a keyword and its alias");
      return { aliases: Object.fromEntries(await loadAliases(db)) };
    });
    console.log(JSON.stringify(out, null, 2));
    return "error" in out ? 1 : 0;
  },
};
