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

export interface DemoBotOptions {
  /** how long "⏳ diproses" stays before the final edit; default 700 ms */
  processingMs?: number;
  /** when set, the final edit waits for this instead (read at each press, so tests can gate it) */
  beforeFinalEdit?: () => Promise<void>;
}

/** the demo bot: /start menu, a purchase that edits its message, toasts, an alert, commands */
function createDemoBot(token: string, apiRoot: string, options: DemoBotOptions = {}): Bot {
  const bot = new Bot(token, { client: { apiRoot } });
  bot.api.config.use(autoRetry({ maxRetryAttempts: 3, maxDelaySeconds: 5 }));
  bot.catch((err) => console.error("demo bot:", err.error));

  bot.command("start", async (ctx) => {
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

  bot.on("message", (ctx) => ctx.reply("Maaf, aku belum paham. Ketik /start untuk menu."));

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
  app.route("/", botApi.app);
  const hostname = options.hostname ?? "127.0.0.1";
  const running = await listen(app, options.port ?? 0, hostname);
  const url = `http://${hostname}:${running.port}`;

  const demo: DemoBotOptions = { ...options };
  const bot = createDemoBot(DEFAULT_BOT.token, url, demo);
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
