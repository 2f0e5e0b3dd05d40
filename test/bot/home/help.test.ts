import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  COMMANDS,
  type CommandRole,
  registerCommands,
  rolesOf,
} from "../../../src/bot/ui/commands.ts";
import { createI18n } from "../../../src/bot/ui/i18n.ts";
import { setTier } from "../../../src/commerce/users.ts";
import { ADMIN_ID, type BotHarness, startBotHarness } from "../../helpers/bot.ts";

// /help and the "/" menu come from one command table: what a person can type is what their
// help lists, per role and per language, and every listed command is answered

/** the commands a help text lists: the /word starting each line */
const listed = (help: string) =>
  help
    .split("\n")
    .map((line) => /^\/([a-z_]+)/.exec(line)?.[1])
    .filter((c): c is string => c !== undefined);

describe("help and the command menu, from one table", () => {
  let h: BotHarness;
  const RESELLER = 2101;
  const CUSTOMER = 2102;
  const MINI_APP = "https://shop.example/app";
  beforeAll(async () => {
    h = await startBotHarness({ miniAppUrl: MINI_APP });
    // the language-wide default menu, as the service sets it at start
    await registerCommands(h.bot.api, createI18n(), []);
    h.user(CUSTOMER);
    h.user(RESELLER);
    h.user(ADMIN_ID);
    await h.waitMessage(RESELLER, /Halo/, h.say(RESELLER, "/start"));
    await setTier(h.db, RESELLER, "reseller");
  });
  afterAll(() => h?.stop());

  it("every command in the table has a menu line and a help line in both languages", () => {
    const i18n = createI18n();
    for (const lang of ["id", "en"]) {
      for (const role of Object.keys(COMMANDS) as CommandRole[]) {
        expect(i18n.t(lang, `help-${role}-title`)).not.toBe(`help-${role}-title`);
        for (const command of COMMANDS[role]) {
          expect(i18n.t(lang, `cmd-${command}`), `${lang} cmd-${command}`).not.toMatch(/^cmd-/);
          expect(i18n.t(lang, `help-${command}`), `${lang} help-${command}`).toMatch(
            new RegExp(`^/${command}\\b`),
          );
        }
      }
    }
  });

  async function helpOf(userId: number): Promise<string> {
    const help = await h.waitMessage(userId, /^(Bantuan|Help)\n/, h.say(userId, "/help"));
    return help.text ?? "";
  }

  it("a customer's help lists what their menu lists, /pin included", async () => {
    await h.waitMessage(CUSTOMER, /Halo/, h.say(CUSTOMER, "/start"));
    const help = await helpOf(CUSTOMER);
    expect(listed(help)).toEqual(h.telegram.commandsFor(CUSTOMER).map((c) => c.command));
    expect(listed(help)).toContain("pin");
    expect(help).not.toContain("Reseller");
  });

  it("a reseller's help and menu list the reseller commands, /api included", async () => {
    await h.waitMessage(RESELLER, /Halo/, h.say(RESELLER, "/start"));
    const help = await helpOf(RESELLER);
    expect(help).toContain("Pesan cepat: kirim KODE.TUJUAN");
    // the center's text commands (docs/center.md), one line
    expect(help).toMatch(/\nPerintah teks dengan PIN di akhir: KODE\.TUJUAN\.PIN .*\n/);
    await expect
      .poll(() => h.telegram.commandsFor(RESELLER).map((c) => c.command))
      .toEqual(listed(help));
    expect(listed(help)).toEqual(
      expect.arrayContaining(["downline", "markup", "komisi", "transfer", "struk", "api"]),
    );
  });

  it("an admin's help and menu list every admin command", async () => {
    await h.waitMessage(ADMIN_ID, /Halo/, h.say(ADMIN_ID, "/start"));
    const help = await helpOf(ADMIN_ID);
    for (const command of [
      "routes",
      "promote",
      "upline",
      "minmargin",
      "unlinked",
      "link",
      "transfer",
      "api",
    ]) {
      expect(listed(help), command).toContain(command);
    }
    await expect
      .poll(() => h.telegram.commandsFor(ADMIN_ID).map((c) => c.command))
      .toEqual(listed(help));
    // each command once, even where two roles list it
    expect(new Set(listed(help)).size).toBe(listed(help).length);
  });

  it("each listed command is answered for its role, never as an unknown command", async () => {
    const who: Record<CommandRole, number> = {
      customer: CUSTOMER,
      reseller: RESELLER,
      admin: ADMIN_ID,
    };
    // /sync runs a whole catalogue sync and /cancel, /start, /help are tested elsewhere
    const skip = new Set(["sync", "start", "help"]);
    for (const role of Object.keys(COMMANDS) as CommandRole[]) {
      for (const command of COMMANDS[role].filter((c) => !skip.has(c))) {
        const reply = await h.waitMessage(who[role], /./, h.say(who[role], `/${command}`));
        expect(reply.text ?? reply.caption, `/${command} for a ${role}`).not.toMatch(
          /Perintah tidak dikenal/,
        );
        // a flow a command opened must not swallow the next command
        await h.waitMessage(who[role], /./, h.say(who[role], "/cancel"));
      }
    }
  });

  it("/lang en turns the chat's menu and menu button English, /lang id back", async () => {
    await h.waitMessage(CUSTOMER, /Language switched/, h.say(CUSTOMER, "/lang en"));
    await expect
      .poll(() => h.telegram.commandsFor(CUSTOMER).find((c) => c.command === "saldo"))
      .toEqual({ command: "saldo", description: "Your balance" });
    await expect
      .poll(() => h.chat(CUSTOMER).menu_button)
      .toMatchObject({
        type: "web_app",
        text: "🛍 Catalogue",
        web_app: { url: MINI_APP },
      });
    const help = await helpOf(CUSTOMER);
    expect(help).toMatch(/^Help\n/);
    expect(listed(help)).toEqual(h.telegram.commandsFor(CUSTOMER).map((c) => c.command));
    await h.waitMessage(CUSTOMER, /Bahasa diganti/, h.say(CUSTOMER, "/lang id"));
    await expect
      .poll(() => h.telegram.commandsFor(CUSTOMER).find((c) => c.command === "saldo"))
      .toEqual({ command: "saldo", description: "Cek saldo" });
    await expect.poll(() => h.chat(CUSTOMER).menu_button).toMatchObject({ text: "🛍 Katalog" });
  });

  it("roles are the table's: a person with every role sees customer, reseller, admin", () => {
    expect(rolesOf({ reseller: true, admin: true })).toEqual(["customer", "reseller", "admin"]);
  });
});
