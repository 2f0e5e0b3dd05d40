import { autoRetry } from "@grammyjs/auto-retry";
import { listen } from "@kios/kit";
import { Bot, InlineKeyboard, Keyboard } from "grammy";
import { Hono } from "hono";
import {
  type BotApiServer,
  createBotApiServer,
  createPlaygroundRoutes,
  DEFAULT_BOT,
  type PlaygroundUser,
} from "../index.ts";
import { DEMO_PRODUCTS, demoMiniAppRoutes } from "./demo-mini-app.ts";

// a small grammY bot for developing and testing the playground page, and a server that puts
// the Bot API server, the page and the bot on one port, as the real app is meant to

export const DEMO_CUSTOMER: PlaygroundUser = {
  id: 5001,
  name: "Budi Santoso",
  persona: "customer",
};
export const DEMO_ADMIN: PlaygroundUser = { id: 5002, name: "Sari Wulandari", persona: "admin" };

export const FINAL_TEXT = "✅ berhasil SN: 1234";
export const PROCESSING_TEXT = "⏳ diproses";

const HTML = { parse_mode: "HTML" } as const;

const escapeHtml = (text: string) =>
  text.replace(/[&<>]/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;" })[ch]!);

function menu(): InlineKeyboard {
  return new InlineKeyboard()
    .text("📱 Pulsa 10.000", "buy:pulsa10")
    .text("📱 Pulsa 25.000", "buy:pulsa25")
    .row()
    .text("🌐 Paket Data 5 GB", "buy:data5")
    .row()
    .text("💰 Saldo", "saldo")
    .text("ℹ️ Bantuan", "help")
    .row()
    .url("📄 Syarat & ketentuan", "https://example.com/syarat");
}

/** the demo bot's deep links */
const PROMO_LINK = `https://t.me/${DEFAULT_BOT.username}?start=promo_HEMAT10`;
export const PROMO_CODE = "HEMAT10";

export interface DemoBotOptions {
  /** how long "⏳ diproses" stays before the final edit; default 700 ms */
  processingMs?: number;
  /** when set, the final edit waits for this instead (read at each press, so tests can gate it) */
  beforeFinalEdit?: () => Promise<void>;
  /** the demo Mini App's URL (set by startDemoPlayground) */
  appUrl?: string;
  /** chosen_inline_result updates the bot got, newest last */
  chosen?: { result_id: string; query: string; from: number }[];
}

/** the demo bot: /start menu, a purchase that edits its message, toasts, an alert, commands */
function createDemoBot(token: string, apiRoot: string, options: DemoBotOptions = {}): Bot {
  const bot = new Bot(token, { client: { apiRoot } });
  bot.api.config.use(autoRetry({ maxRetryAttempts: 3, maxDelaySeconds: 5 }));
  bot.catch((err) => console.error("demo bot:", err.error));

  bot.command("start", async (ctx) => {
    // a deep link: t.me/<bot>?start=promo_<code> arrives as "/start promo_<code>"
    const promo = /^promo_(\w+)$/.exec(ctx.match)?.[1];
    if (promo) {
      await ctx.reply(`🎁 Kode promo <b>${escapeHtml(promo)}</b> aktif.`, HTML);
      return;
    }
    const name = escapeHtml(ctx.from?.first_name ?? "kamu");
    if (ctx.from?.id === DEMO_ADMIN.id) {
      await ctx.reply(
        `<b>Panel admin</b> 🛠\nHalo ${name}. Hari ini: <b>3</b> pesanan, omzet <code>Rp35.000</code>.`,
        {
          ...HTML,
          reply_markup: new InlineKeyboard()
            .text("📦 Pesanan", "admin:orders")
            .text("📊 Statistik", "admin:stats"),
        },
      );
      return;
    }
    await ctx.reply(
      `Halo <b>${name}</b>! 👋\nSelamat datang di <i>Kios Demo</i>.\n` +
        `Saldo kamu: <code>Rp50.000</code> (saldo uji coba)\n` +
        `Kode promo: <tg-spoiler>HEMAT10</tg-spoiler> · <a href="https://example.com/promo">info</a>\n\n` +
        "Mau beli apa hari ini?",
      { ...HTML, reply_markup: menu() },
    );
  });

  bot.command("saldo", (ctx) =>
    ctx.reply("Saldo kamu: <b>Rp50.000</b>", {
      ...HTML,
      reply_markup: new Keyboard()
        .text("Isi saldo")
        .text("Riwayat")
        .row()
        .text("Tutup")
        .resized()
        .oneTime()
        .placeholder("Pilih menu saldo"),
    }),
  );
  bot.hears("Tutup", (ctx) => ctx.reply("Oke 👍", { reply_markup: { remove_keyboard: true } }));
  bot.hears(["Isi saldo", "Riwayat"], (ctx) =>
    ctx.reply(`<i>${escapeHtml(ctx.message?.text ?? "")}</i> belum tersedia di demo.`, HTML),
  );

  bot.command("format", (ctx) =>
    ctx.reply(
      "<b>tebal</b> <i>miring</i> <u>garis</u> <s>coret</s> <code>kode</code> " +
        '<tg-spoiler>rahasia</tg-spoiler> <a href="https://example.com">tautan</a> ' +
        '<a href="javascript:alert(1)">jahat</a> <b>&lt;img src=x onerror=alert(1)&gt;</b>\n' +
        '<pre><code class="language-json">{"sn": "1234"}</code></pre>' +
        "<blockquote>kutipan</blockquote>",
      HTML,
    ),
  );

  bot.command("hapus", async (ctx) => {
    await ctx.reply("Pesan ini bisa dihapus.", {
      reply_markup: new InlineKeyboard().text("🗑 Hapus", "delete"),
    });
  });

  // Telegram-native tools: a Mini App, a copy button, a deep link and inline mode
  bot.command("toko", (ctx) =>
    ctx.reply(`Belanja lewat Mini App, atau pakai promo: ${PROMO_LINK}`, {
      reply_markup: new InlineKeyboard()
        .webApp("🛍 Katalog", options.appUrl ?? "https://example.com/app")
        .row()
        .copyText(`📋 Salin kode ${PROMO_CODE}`, PROMO_CODE)
        .row()
        .url("🎁 Pakai promo", `https://t.me/${DEFAULT_BOT.username}?start=promo_TOMBOL`)
        .row()
        .switchInlineCurrent("🔎 Cari pulsa", "pulsa"),
    }),
  );

  bot.on("inline_query", async (ctx) => {
    const words = ctx.inlineQuery.query.toLowerCase().split(/\s+/).filter(Boolean);
    const found = DEMO_PRODUCTS.filter((p) =>
      words.every((w) => `${p.code} ${p.name} pulsa`.toLowerCase().includes(w)),
    );
    await ctx.answerInlineQuery(
      found.map((p) => ({
        type: "article" as const,
        id: p.code,
        title: p.name,
        description: `${p.price} · harga kamu`,
        input_message_content: {
          message_text: `<b>${escapeHtml(p.name)}</b>\nHarga: <code>${p.price}</code>`,
          parse_mode: "HTML" as const,
        },
        reply_markup: new InlineKeyboard().url(
          "Beli di bot",
          `https://t.me/${DEFAULT_BOT.username}?start=promo_${p.code}`,
        ),
      })),
      {
        cache_time: 0,
        is_personal: true,
        button: { text: "Bantuan belanja", start_parameter: "promo_INLINE" },
      },
    );
  });

  bot.on("chosen_inline_result", (ctx) => {
    options.chosen?.push({
      result_id: ctx.chosenInlineResult.result_id,
      query: ctx.chosenInlineResult.query,
      from: ctx.chosenInlineResult.from.id,
    });
  });

  bot.command("bantuan", (ctx) =>
    ctx.reply("Ketik /start untuk menu, /saldo untuk saldo, /format untuk contoh format."),
  );

  bot.callbackQuery(/^buy:(.+)$/, async (ctx) => {
    await ctx.answerCallbackQuery({ text: "Pesanan dibuat, sedang diproses…" });
    await ctx.editMessageText(PROCESSING_TEXT);
    await ctx.replyWithChatAction("typing");
    const gate = options.beforeFinalEdit;
    if (gate) await gate();
    else await new Promise((resolve) => setTimeout(resolve, options.processingMs ?? 700));
    await ctx.editMessageText(FINAL_TEXT, {
      reply_markup: new InlineKeyboard().text("🔁 Beli lagi", "again"),
    });
  });

  bot.callbackQuery("again", async (ctx) => {
    await ctx.answerCallbackQuery();
    await ctx.editMessageText("Mau beli apa hari ini?", { reply_markup: menu() });
  });

  bot.callbackQuery("saldo", (ctx) => ctx.answerCallbackQuery({ text: "Saldo kamu Rp50.000" }));

  bot.callbackQuery("help", (ctx) =>
    ctx.answerCallbackQuery({
      text: "Pilih produk, lalu tunggu status ✅. Saldo uji coba tidak bisa dicairkan.",
      show_alert: true,
    }),
  );

  bot.callbackQuery("delete", async (ctx) => {
    await ctx.answerCallbackQuery({ text: "Dihapus" });
    await ctx.deleteMessage();
  });

  bot.callbackQuery(/^admin:(.+)$/, (ctx) =>
    ctx.answerCallbackQuery({ text: `Admin: ${ctx.match[1]} belum tersedia di demo` }),
  );

  bot.on("message", async (ctx) => {
    // a result the user sent via this bot is not something they typed to it
    if (ctx.message.via_bot) return;
    await ctx.reply("Maaf, aku belum paham. Ketik /start untuk menu.");
  });

  return bot;
}

const CUSTOMER_COMMANDS = [
  { command: "start", description: "Menu utama" },
  { command: "saldo", description: "Cek saldo" },
  { command: "format", description: "Contoh format pesan" },
  { command: "hapus", description: "Pesan yang bisa dihapus" },
  { command: "bantuan", description: "Bantuan" },
];

const ADMIN_COMMANDS = [
  { command: "start", description: "Panel admin" },
  { command: "pesanan", description: "Pesanan terbaru" },
  { command: "statistik", description: "Statistik penjualan" },
  { command: "siaran", description: "Kirim pengumuman" },
];

/** what the bot sets on itself at start: its commands (the admin's own menu) and description */
async function configureDemoBot(bot: Bot, admin: PlaygroundUser = DEMO_ADMIN) {
  await bot.api.setMyCommands(CUSTOMER_COMMANDS);
  await bot.api.setMyCommands(ADMIN_COMMANDS, { scope: { type: "chat", chat_id: admin.id } });
  await bot.api.setMyDescription(
    "Kios Demo menjual pulsa, paket data dan token listrik. Tekan START untuk mulai belanja.",
  );
}

export interface DemoPlayground {
  /** the page, the Bot API (apiRoot) and the control API, all on this origin */
  url: string;
  port: number;
  botApi: BotApiServer;
  bot: Bot;
  /** the demo bot's options; changes apply to the next press */
  demo: DemoBotOptions;
  close(): Promise<void>;
}

/** the Bot API server, the playground page and the demo bot, on one port */
export async function startDemoPlayground(
  options: { port?: number; hostname?: string } & DemoBotOptions = {},
): Promise<DemoPlayground> {
  const botApi = createBotApiServer();
  const app = new Hono();
  app.route(
    "/",
    createPlaygroundRoutes({ botApi, users: [DEMO_CUSTOMER, DEMO_ADMIN], title: "Kios Demo" }),
  );
  let orders: (userId: number, code: string) => Promise<void> = async () => {};
  app.route(
    "/",
    demoMiniAppRoutes({
      token: DEFAULT_BOT.token,
      onOrder: (userId, code) => orders(userId, code),
    }),
  );
  app.route("/", botApi.app);
  const hostname = options.hostname ?? "127.0.0.1";
  const running = await listen(app, options.port ?? 0, hostname);
  const url = `http://${hostname}:${running.port}`;

  const demo: DemoBotOptions = { ...options, appUrl: `${url}/demo-app`, chosen: [] };
  const bot = createDemoBot(DEFAULT_BOT.token, url, demo);
  orders = async (userId, code) => {
    await bot.api.sendMessage(userId, `🧾 Pesanan dari Mini App: <b>${code}</b> ✅`, HTML);
  };
  await bot.init();
  await configureDemoBot(bot);
  const polling = new Promise<void>((resolve, reject) => {
    bot
      .start({ timeout: 10, drop_pending_updates: true, onStart: () => resolve() })
      .catch((err: unknown) => {
        console.error("demo bot: polling stopped", err);
        reject(err);
      });
  });
  await polling;

  return {
    url,
    port: running.port,
    botApi,
    bot,
    demo,
    async close() {
      await bot.stop();
      botApi.dispose();
      await running.close();
    },
  };
}
