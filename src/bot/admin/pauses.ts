import { Composer } from "grammy";
import { resumeProduct } from "../../commerce/catalogue/pauses.ts";
import type { BotContext } from "../context.ts";
import { words } from "../ui/args.ts";
import { CB, cbPattern, parseCb } from "../ui/callback-data.ts";
import { editPressed } from "../ui/edit.ts";
import { escapeHtml } from "../ui/format.ts";

// a product kios paused (the supplier called it inactive, or its orders kept failing)
// opens by itself when the pause ends; an admin who knows it works again opens it now,
// with /resume CODE or the button under the pause notice.

export function adminPauses(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.command("resume", async (ctx) => {
    const [code] = words(ctx.match as string);
    if (code === undefined) {
      await ctx.reply(ctx.t("admin-resume-usage"));
      return;
    }
    const resumed = await resumeProduct(ctx.deps.db, code, new Date(ctx.deps.clock.now()));
    await ctx.reply(
      resumed
        ? ctx.t("admin-resume-done", { code: escapeHtml(resumed.code) })
        : ctx.t("admin-resume-not-paused", { code: escapeHtml(code.toUpperCase()) }),
    );
  });
  return composer;
}

/** ▶️ under a pause notice: opens the product, and the notice says who did */
export function adminPauseButtons(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.callbackQuery(cbPattern(CB.productResume), async (ctx) => {
    const code = parseCb(ctx.callbackQuery.data)?.parts[0] ?? "";
    const resumed = await resumeProduct(ctx.deps.db, code, new Date(ctx.deps.clock.now()));
    await ctx.answerCallbackQuery({
      text: resumed
        ? ctx.t("admin-resume-toast", { code: resumed.code })
        : ctx.t("admin-resume-not-paused", { code }),
    });
    // the notice as it reads, plain (its bold title is not kept), and who opened it
    const shown = ctx.callbackQuery.message?.text ?? "";
    const line = resumed
      ? ctx.t("admin-resume-by", { admin: ctx.from.first_name })
      : ctx.t("admin-resume-already");
    await editPressed(ctx, `${shown}\n${line}`, { plain: true });
  });
  return composer;
}
