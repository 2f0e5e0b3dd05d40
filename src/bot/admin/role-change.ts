import { findUser } from "../../commerce/users.ts";
import type { BotContext } from "../context.ts";
import { rolesOf, setChatMenu } from "../ui/commands.ts";

// a role an admin changed (/promote, /role) happened to the user too: they are told, in their
// own language, what they can do now, and their chat's command menu follows

/** tells the user of their new role and sets their menu; a blocked bot is no reason to fail */
export async function tellRoleChange(
  ctx: BotContext,
  userId: number,
  tier: "customer" | "reseller",
): Promise<void> {
  const user = await findUser(ctx.deps.db, userId);
  // a user who never opened the bot has no chat to tell or menu to set
  if (!user) return;
  const t = ctx.translatorFor(user.language);
  try {
    await ctx.api.sendMessage(
      userId,
      t(tier === "reseller" ? "role-now-reseller" : "role-now-customer"),
    );
  } catch (err) {
    ctx.deps.logger.info({ err, userId }, "could not tell the user about a role change");
  }
  try {
    await setChatMenu(ctx.api, (lang) => ctx.translatorFor(lang), {
      chatId: userId,
      language: user.language === "en" ? "en" : "id",
      roles: rolesOf({
        reseller: tier === "reseller",
        admin: ctx.deps.config.adminIds.includes(userId),
      }),
      miniAppUrl: ctx.deps.config.miniAppUrl,
    });
  } catch (err) {
    ctx.deps.logger.warn(
      { err, userId },
      "setting a chat's command menu after a role change failed",
    );
  }
}
