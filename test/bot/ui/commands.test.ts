import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { COMMANDS, HIDDEN_COMMANDS } from "../../../src/bot/ui/commands.ts";

// every command the bot answers is either in the command table (the "/" menu and /help, per
// role) or named in the hidden list with why it is not shown: a new command can't be
// answered yet left out of both

const ROOT = join(import.meta.dirname, "../../..");
const SRC = join(ROOT, "src/bot");

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return files(path);
    return d.name.endsWith(".ts") ? [path] : [];
  });
}

/** the names every `.command(…)` call in the bot's source registers, with where */
function registeredCommands(): Map<string, string> {
  const found = new Map<string, string>();
  for (const path of files(SRC)) {
    const sf = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
    const visit = (n: ts.Node) => {
      if (
        ts.isCallExpression(n) &&
        ts.isPropertyAccessExpression(n.expression) &&
        n.expression.name.text === "command" &&
        n.arguments[0]
      ) {
        const arg = n.arguments[0];
        const at = `${relative(ROOT, path)}:${sf.getLineAndCharacterOfPosition(n.getStart()).line + 1}`;
        const names = ts.isArrayLiteralExpression(arg) ? [...arg.elements] : [arg];
        for (const e of names) {
          if (!ts.isStringLiteral(e)) throw new Error(`${at}: a command named by an expression`);
          found.set(e.text, at);
        }
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return found;
}

describe("the command table", () => {
  it("lists every registered command, or the hidden list names it", () => {
    const registered = registeredCommands();
    expect(registered.size).toBeGreaterThan(30);
    const listed = new Set(Object.values(COMMANDS).flat());
    const hidden = new Set(Object.keys(HIDDEN_COMMANDS));
    const neither = [...registered]
      .filter(([name]) => !listed.has(name) && !hidden.has(name))
      .map(([name, at]) => `/${name} (${at})`);
    expect(neither).toEqual([]);
    // a hidden command is one the bot answers, and never one the table shows as well
    for (const name of hidden) {
      expect(registered.has(name), `/${name} is hidden but not registered`).toBe(true);
      expect(listed.has(name), `/${name} is both listed and hidden`).toBe(false);
    }
  });
});
