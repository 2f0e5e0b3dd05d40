// kios playground: a Telegram-like chat that acts as local users through the control API of
// the local Bot API server (/control/…, same origin). No framework, no build step.
//
// Safety: every text from the bot or the user is put into the page as text nodes or
// attributes built with the DOM API; nothing is ever parsed as HTML.

import { createInlineResults } from "./inline-results.js";
import { createWebAppPanel } from "./web-app-panel.js";

const POLL_TIMEOUT_MS = 25_000;
const MAX_BACKOFF_MS = 10_000;
const TYPING_MS = 5_000;
const PRESS_SPINNER_MS = 15_000;
/** chats watched in the background for unread badges, besides the open one */
const MAX_BACKGROUND_WATCHERS = 4;

const $ = (id) => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`missing #${id}`);
  return el;
};

const ui = {
  app: $("app"),
  botAvatar: $("bot-avatar"),
  botName: $("bot-name"),
  botStatus: $("bot-status"),
  switcher: $("user-switcher"),
  userMenu: $("user-menu"),
  currentAvatar: $("current-avatar"),
  currentName: $("current-name"),
  currentPersona: $("current-persona"),
  unreadTotal: $("unread-total"),
  moreButton: $("more-button"),
  moreMenu: $("more-menu"),
  blockItem: $("block-item"),
  scroller: $("scroller"),
  empty: $("empty"),
  emptyText: $("empty-text"),
  startButton: $("start-button"),
  messages: $("messages"),
  typing: $("typing"),
  toBottom: $("to-bottom"),
  toast: $("toast"),
  commands: $("commands"),
  replyKeyboard: $("reply-keyboard"),
  restart: $("restart"),
  restartButton: $("restart-button"),
  composer: $("composer"),
  commandsButton: $("commands-button"),
  menuWebApp: $("menu-web-app"),
  input: $("input"),
  keyboardToggle: $("keyboard-toggle"),
  send: $("send"),
  attachButton: $("attach-button"),
  attachMenu: $("attach-menu"),
  sendPhoto: $("send-photo"),
  sendSticker: $("send-sticker"),
  alert: $("alert"),
  alertTitle: $("alert-title"),
  alertText: $("alert-text"),
};

/** @type {{ title: string, bot: { id: number, username: string, name: string, description: string, short_description: string }, users: { id: number, name: string, persona: string }[] } | null} */
let config = null;
/** the user the page acts as now */
let currentUserId = 0;

/** one watched chat per user: its latest view and what the page has shown of it */
const chats = new Map();
/** the command menu of each user */
const commandsByUser = new Map();
/** callback query id -> { userId, messageId, data, timer } while waiting for the bot's answer */
const pendingPresses = new Map();

const rowsById = new Map(); // message_id -> { row, signature } for the open chat
const separators = new Map(); // day key -> separator element

/** the chat follows new messages while the user has not scrolled up */
let stuckToBottom = true;
let lastScrollTop = 0;
let typingTimer = 0;
let toastTimer = 0;
let replyKeyboardHidden = false;
let commandsOpen = false;
let commandFilter = null; // null: the menu was opened by the button; a string: typed "/…"
let commandIndex = 0;

// ---------------------------------------------------------------------------------------
// the control API

class ApiError extends Error {
  constructor(status, description) {
    super(description);
    this.status = status;
  }
}

async function api(path, init = {}) {
  const res = await fetch(path, {
    ...init,
    headers: {
      accept: "application/json",
      ...(init.body ? { "content-type": "application/json" } : {}),
    },
  });
  let body;
  try {
    body = await res.json();
  } catch {
    throw new ApiError(res.status, `HTTP ${res.status}`);
  }
  if (!res.ok || body.ok === false)
    throw new ApiError(res.status, body.description ?? `HTTP ${res.status}`);
  return body.result ?? body;
}

const post = (path, payload) => api(path, { method: "POST", body: JSON.stringify(payload) });

const botParam = () => (config ? `bot=${encodeURIComponent(config.bot.username)}` : "");

// ---------------------------------------------------------------------------------------
// links to the bot (deep links), Mini Apps, inline mode

const TELEGRAM_HOSTS = ["t.me", "telegram.me", "telegram.dog"];

/** a t.me (or tg://resolve) link to this bot: the page opens it itself, as Telegram does */
function isBotLink(href) {
  if (!config) return false;
  let url;
  try {
    url = new URL(href);
  } catch {
    return false;
  }
  const bot = config.bot.username.toLowerCase();
  if (url.protocol === "tg:")
    return url.searchParams.get("domain")?.toLowerCase() === bot && /resolve/.test(url.href);
  if (url.protocol !== "https:" && url.protocol !== "http:") return false;
  if (!TELEGRAM_HOSTS.includes(url.hostname.toLowerCase())) return false;
  return url.pathname.replace(/\/$/, "").toLowerCase() === `/${bot}`;
}

/** a deep link: /start <param> from the user when the link has one, else just the chat */
async function openBotLink(href) {
  try {
    const opened = await post("/control/open-link", {
      user_id: currentUserId,
      url: href,
      bot: config.bot.username,
    });
    if (opened.action === "start") requestAnimationFrame(scrollToBottom);
    else if (opened.action === "external") window.open(href, "_blank", "noopener,noreferrer");
  } catch (err) {
    toast(err instanceof ApiError ? err.message : "The link could not be opened");
  }
}

const webApp = createWebAppPanel({
  post,
  toast,
  botName: () => config?.bot.name ?? "Bot",
  botUsername: () => config?.bot.username,
  userId: () => currentUserId,
  isBotLink,
  openBotLink,
  startInlineQuery: (query) => startInlineQuery(query),
});

const inline = createInlineResults({
  post,
  toast,
  userId: () => currentUserId,
  bot: () => config?.bot,
  input: ui.input,
  clearInput() {
    ui.input.value = "";
    autoGrow();
  },
  sendText,
  openWebApp: (from) => webApp.open(from),
});

/** puts "@bot <query>" into the input, as switch_inline_query buttons do */
function startInlineQuery(query) {
  ui.input.value = `@${config.bot.username} ${query}`;
  autoGrow();
  ui.input.focus();
  // after the click that asked for it, which would otherwise close the results at once
  setTimeout(() => inline.onInput(), 0);
}

function sleep(ms, signal) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

// ---------------------------------------------------------------------------------------
// watching chats: one long poll per user, no busy polling, backoff on errors

function chatState(userId) {
  let state = chats.get(userId);
  if (!state) {
    state = {
      userId,
      version: -1,
      chat: null,
      failing: false,
      controller: null,
      seenAnswers: new Set(),
      lastSeenMessageId: 0,
      unread: 0,
      typingKey: "",
    };
    chats.set(userId, state);
  }
  return state;
}

function watch(userId) {
  const state = chatState(userId);
  if (state.controller) return;
  state.controller = new AbortController();
  void pollLoop(state, state.controller.signal);
}

function unwatch(userId) {
  const state = chats.get(userId);
  state?.controller?.abort();
  if (state) state.controller = null;
}

async function pollLoop(state, signal) {
  let backoff = 0;
  while (!signal.aborted) {
    try {
      const res = await fetch(
        `/control/chats/${state.userId}/wait?after=${state.version}&timeout=${POLL_TIMEOUT_MS}&${botParam()}`,
        { signal, headers: { accept: "application/json" } },
      );
      const body = await res.json();
      if (!res.ok || !body.ok)
        throw new ApiError(res.status, body.description ?? `HTTP ${res.status}`);
      backoff = 0;
      if (state.failing) {
        state.failing = false;
        updateStatus();
      }
      const { chat } = body.result;
      // a lower version than ours means the server was restarted: take its state as it is
      if (chat.version !== state.version || !state.chat) applyChat(state, chat);
    } catch (err) {
      if (signal.aborted) return;
      console.warn("playground: waiting for chat changes failed", err);
      state.failing = true;
      // the server may have restarted with new versions: load everything again, as at first
      state.version = -1;
      state.chat = null;
      updateStatus();
      backoff = Math.min(MAX_BACKOFF_MS, backoff ? backoff * 2 : 500);
      await sleep(backoff * (0.75 + Math.random() * 0.5), signal);
    }
  }
}

function applyChat(state, chat) {
  const first = state.chat === null;
  state.chat = chat;
  state.version = chat.version;
  const visible = chat.messages.filter((m) => !m.deleted);
  const maxId = visible.reduce((max, m) => Math.max(max, m.message_id), 0);

  // callback answers: toasts for new ones in the open chat; old ones are never replayed
  for (const answer of chat.callback_answers) {
    if (state.seenAnswers.has(answer.callback_query_id)) continue;
    state.seenAnswers.add(answer.callback_query_id);
    const pending = pendingPresses.get(answer.callback_query_id);
    if (pending) {
      clearTimeout(pending.timer);
      pendingPresses.delete(answer.callback_query_id);
      if (state.userId === currentUserId) stopSpinner(answer.message_id, answer.data);
    }
    if (!first && state.userId === currentUserId) showCallbackAnswer(answer);
  }

  if (state.userId === currentUserId) {
    state.lastSeenMessageId = maxId;
    state.unread = 0;
    renderChat(state, first);
  } else if (first) {
    state.lastSeenMessageId = maxId;
  } else {
    state.unread = visible.filter(
      (m) => m.sender === "bot" && m.message_id > state.lastSeenMessageId,
    ).length;
  }
  renderUnread();
}

// ---------------------------------------------------------------------------------------
// users

function userById(id) {
  return config?.users.find((u) => u.id === id);
}

/** "Sari (customer)" → "SC": the first letter or digit of the first two words that have one */
function initials(name) {
  const letters = String(name)
    .split(/\s+/)
    .map((word) => word.match(/[\p{L}\p{N}]/u)?.[0])
    .filter(Boolean)
    .slice(0, 2);
  return letters.join("").toUpperCase() || "?";
}

function paintAvatar(el, name, id) {
  el.textContent = initials(name);
  el.dataset.color = String(Math.abs(Number(id)) % 7);
}

function personaLabel(persona) {
  if (persona === "admin") return "Admin";
  return persona === "reseller" ? "Reseller" : "Customer";
}

function renderUserMenu() {
  ui.userMenu.replaceChildren();
  for (const user of config.users) {
    const item = document.createElement("button");
    item.type = "button";
    item.className = "menu__item menu__user";
    item.setAttribute("role", "menuitemradio");
    item.setAttribute("aria-checked", String(user.id === currentUserId));
    item.dataset.testid = "user-option";
    item.dataset.userId = String(user.id);
    const avatar = document.createElement("span");
    avatar.className = "avatar avatar--small";
    paintAvatar(avatar, user.name, user.id);
    const who = document.createElement("span");
    who.className = "menu__who";
    const name = document.createElement("span");
    name.className = "menu__name";
    name.textContent = user.name;
    const meta = document.createElement("span");
    meta.className = "menu__meta";
    meta.textContent = `${personaLabel(user.persona)} · id ${user.id}`;
    who.append(name, meta);
    const badge = document.createElement("span");
    badge.className = "badge";
    badge.dataset.unreadFor = String(user.id);
    badge.hidden = true;
    item.append(avatar, who, badge);
    item.addEventListener("click", () => {
      closeMenus();
      switchUser(user.id);
    });
    ui.userMenu.append(item);
  }
  renderUnread();
}

function renderUnread() {
  let total = 0;
  for (const badge of ui.userMenu.querySelectorAll("[data-unread-for]")) {
    const count = chats.get(Number(badge.dataset.unreadFor))?.unread ?? 0;
    badge.textContent = String(count);
    badge.hidden = count === 0;
  }
  for (const state of chats.values()) if (state.userId !== currentUserId) total += state.unread;
  ui.unreadTotal.textContent = String(total);
  ui.unreadTotal.hidden = total === 0;
}

function switchUser(userId) {
  const user = userById(userId);
  if (!user) return;
  const previous = currentUserId;
  currentUserId = userId;
  try {
    localStorage.setItem("kios-playground-user", String(userId));
  } catch {
    // storage may be unavailable; the choice is only a convenience
  }
  ui.app.dataset.userId = String(userId);
  ui.app.dataset.persona = user.persona;
  paintAvatar(ui.currentAvatar, user.name, user.id);
  ui.currentName.textContent = user.name;
  ui.currentPersona.textContent = personaLabel(user.persona);
  ui.currentPersona.dataset.persona = user.persona;
  for (const item of ui.userMenu.querySelectorAll("[data-user-id]"))
    item.setAttribute("aria-checked", String(Number(item.dataset.userId) === userId));

  // the open chat is drawn from scratch
  rowsById.clear();
  separators.clear();
  ui.messages.replaceChildren();
  ui.input.value = "";
  autoGrow();
  closeCommands();
  inline.hide();
  webApp.close();
  replyKeyboardHidden = false;
  hideTyping();
  hideToast();

  // keep the previous chat watched for unread badges (within limits)
  const background = config.users.filter((u) => u.id !== userId).slice(0, MAX_BACKGROUND_WATCHERS);
  for (const u of config.users) {
    if (u.id !== userId && !background.includes(u)) unwatch(u.id);
  }
  for (const u of background) watch(u.id);
  if (previous && previous !== userId) {
    const prev = chats.get(previous);
    if (prev) prev.unread = 0;
  }

  const state = chatState(userId);
  state.unread = 0;
  if (state.chat) {
    state.lastSeenMessageId = state.chat.messages.reduce((m, x) => Math.max(m, x.message_id), 0);
    renderChat(state, true);
  } else {
    renderChat(null, true);
  }
  watch(userId);
  renderUnread();
  void loadCommands(userId);
  ui.input.focus({ preventScroll: true });
}

// ---------------------------------------------------------------------------------------
// rendering a chat

function renderChat(state, jumpToBottom) {
  const chat = state?.chat ?? null;
  const messages = chat ? chat.messages.filter((m) => !m.deleted) : [];
  const byId = new Map(messages.map((m) => [m.message_id, m]));

  // removed or deleted messages disappear
  for (const [id, entry] of rowsById) {
    if (!byId.has(id)) {
      entry.row.remove();
      rowsById.delete(id);
    }
  }

  const wanted = [];
  const days = new Set();
  let botChanged = false;
  let previous = null;
  for (const view of messages) {
    const day = dayKey(view.date);
    if (!days.has(day)) {
      days.add(day);
      let sep = separators.get(day);
      if (!sep) {
        sep = document.createElement("div");
        sep.className = "day";
        const pill = document.createElement("span");
        pill.textContent = dayLabel(view.date);
        sep.append(pill);
        separators.set(day, sep);
      }
      wanted.push(sep);
      previous = null;
    }
    const signature = signatureOf(view);
    let entry = rowsById.get(view.message_id);
    if (!entry) {
      const row = document.createElement("div");
      row.dataset.testid = "message";
      row.dataset.messageId = String(view.message_id);
      entry = { row, signature: "" };
      rowsById.set(view.message_id, entry);
    }
    if (entry.signature !== signature) {
      if (view.sender === "bot") botChanged = true;
      // an edit is applied to the same element, in place
      fillMessage(entry.row, view, messages);
      entry.signature = signature;
    }
    const grouped = previous !== null && previous.sender === view.sender;
    entry.row.classList.toggle("msg-row--follow", grouped);
    wanted.push(entry.row);
    previous = view;
  }
  // tails go on the last message of each run by the same sender
  for (let i = 0; i < wanted.length; i++) {
    const el = wanted[i];
    if (!el.dataset.messageId) continue;
    const next = wanted[i + 1];
    const last = !next?.dataset.messageId || next.dataset.sender !== el.dataset.sender;
    el.classList.toggle("msg-row--last", last);
  }
  for (const [day, sep] of separators) {
    if (!days.has(day)) {
      sep.remove();
      separators.delete(day);
    }
  }
  // put the nodes in order, moving only what is out of place
  let cursor = ui.messages.firstChild;
  for (const node of wanted) {
    if (node === cursor) {
      cursor = cursor.nextSibling;
    } else {
      ui.messages.insertBefore(node, cursor);
    }
  }
  while (cursor) {
    const next = cursor.nextSibling;
    cursor.remove();
    cursor = next;
  }

  ui.empty.hidden = messages.length > 0;
  if (messages.length === 0) renderEmpty();
  renderReplyKeyboard(chat);
  renderMenuButton(chat);
  renderBlocked(chat);
  renderTyping(state, botChanged);
  updateStatus();
  if (jumpToBottom || stuckToBottom) scrollToBottom();
}

function renderEmpty() {
  const text = config?.bot.description || config?.bot.short_description || "";
  ui.emptyText.textContent =
    text || "No messages here yet. Send /start or press START to talk to the bot.";
}

function signatureOf(view) {
  return JSON.stringify([
    view.text,
    view.entities,
    view.caption,
    view.caption_entities,
    view.reply_markup,
    view.edit_date,
    view.photo?.at(-1)?.file_unique_id,
    view.document?.file_unique_id,
    view.sticker?.file_unique_id,
    view.reply_to_message_id,
  ]);
}

function flash(row) {
  row.classList.remove("msg-row--flash");
  // restarts the animation
  void row.offsetWidth;
  row.classList.add("msg-row--flash");
}

function dayKey(date) {
  const d = new Date(date * 1000);
  return `${d.getFullYear()}-${d.getMonth()}-${d.getDate()}`;
}

function dayLabel(date) {
  const d = new Date(date * 1000);
  const today = new Date();
  const yesterday = new Date(today);
  yesterday.setDate(today.getDate() - 1);
  if (dayKey(date) === dayKey(today.getTime() / 1000)) return "Today";
  if (dayKey(date) === dayKey(yesterday.getTime() / 1000)) return "Yesterday";
  return d.toLocaleDateString(undefined, {
    month: "long",
    day: "numeric",
    ...(d.getFullYear() === today.getFullYear() ? {} : { year: "numeric" }),
  });
}

function timeLabel(date) {
  return new Date(date * 1000).toLocaleTimeString(undefined, {
    hour: "2-digit",
    minute: "2-digit",
  });
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

const SVG_NS = "http://www.w3.org/2000/svg";

function svgIcon(className, viewBox, d) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", viewBox);
  svg.setAttribute("class", className);
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(SVG_NS, "path");
  path.setAttribute("d", d);
  svg.append(path);
  return svg;
}

// Telegram's bubble tail, in an 11×20 box whose right edge overlaps the bubble
const TAIL_PATH =
  "M3 19h6V2c-.193 2.84-.876 5.767-2.05 8.782-.904 2.325-2.446 4.485-4.625 6.48A1 1 0 0 0 3 19z";
const CHECKS_PATH =
  "M4.4 8.9 1.5 6l-1 1 3.9 3.9L12 3.3l-1-1zm4.3 2L7.6 9.8l-1 1 2.1 2.1L16.3 5.3l-1-1z";

function fillMessage(row, view, messages) {
  const mine = view.sender === "user";
  row.className = `msg-row msg-row--${mine ? "user" : "bot"}`;
  row.dataset.sender = view.sender;
  row.dataset.edited = String(view.edited);

  const stack = el("div", "msg");
  const bubble = el("div", `bubble bubble--${mine ? "user" : "bot"}`);
  const hasMedia = Boolean(view.photo || view.sticker);
  if (view.sticker) bubble.classList.add("bubble--sticker");

  if (view.via_bot) {
    const via = el("div", "via", "via ");
    via.dataset.testid = "via-bot";
    via.append(el("strong", undefined, `@${view.via_bot.username}`));
    bubble.append(via);
  }
  if (view.reply_to_message_id !== undefined) {
    bubble.append(replyQuote(view.reply_to_message_id, messages));
  }
  if (view.photo?.length) bubble.append(photoOf(view.photo));
  if (view.document) bubble.append(documentOf(view.document));
  if (view.sticker) bubble.append(el("div", "sticker", view.sticker.emoji ?? "🖼️"));

  const body = view.text ?? view.caption;
  const entities = view.text !== undefined ? view.entities : view.caption_entities;
  const meta = metaOf(view, mine);
  if (body !== undefined && body !== "") {
    const text = el("div", "text");
    text.dataset.testid = "message-text";
    text.append(renderEntities(body, entities ?? []));
    // room for the time at the end of the last line, as in Telegram: a pseudo-element, so the
    // message's text content stays the message's text
    const spacer = el("span", `meta-spacer${mine ? " meta-spacer--checks" : ""}`);
    spacer.dataset.meta = `${view.edited ? "edited " : ""}${timeLabel(view.date)}`;
    spacer.setAttribute("aria-hidden", "true");
    text.append(spacer);
    bubble.append(text);
  } else if (hasMedia) {
    bubble.classList.add("bubble--media-only");
  }
  bubble.append(meta);
  bubble.append(svgIcon("tail", "0 0 11 20", TAIL_PATH));
  stack.append(bubble);

  const keyboard = view.reply_markup?.inline_keyboard;
  if (keyboard?.length) stack.append(inlineKeyboardOf(view, keyboard));
  row.replaceChildren(stack);
}

function metaOf(view, mine) {
  const meta = el("span", "meta");
  if (view.edited) {
    const edited = el("span", "meta__edited", "edited");
    edited.dataset.testid = "edited";
    meta.append(edited);
  }
  const time = el("time", "meta__time", timeLabel(view.date));
  time.dateTime = new Date(view.date * 1000).toISOString();
  time.title = new Date((view.edit_date ?? view.date) * 1000).toLocaleString();
  meta.append(time);
  if (mine) meta.append(svgIcon("meta__checks", "0 0 17 13", CHECKS_PATH));
  return meta;
}

function replyQuote(messageId, messages) {
  const target = messages.find((m) => m.message_id === messageId);
  const quote = el("button", "quote");
  quote.type = "button";
  const who =
    target?.sender === "bot"
      ? (config?.bot.name ?? "Bot")
      : (userById(currentUserId)?.name ?? "You");
  quote.append(el("span", "quote__name", who));
  const snippet = target
    ? (target.text ??
      target.caption ??
      (target.photo ? "Photo" : target.sticker ? "Sticker" : "File"))
    : "Deleted message";
  quote.append(el("span", "quote__text", snippet.replace(/\s+/g, " ")));
  quote.addEventListener("click", () => {
    const row = rowsById.get(messageId)?.row;
    if (!row) return;
    row.scrollIntoView({ block: "center", behavior: "smooth" });
    flash(row);
  });
  return quote;
}

function fileUrl(fileId) {
  return `/control/files/${encodeURIComponent(fileId)}`;
}

function photoOf(sizes) {
  const largest = sizes.at(-1);
  const img = document.createElement("img");
  img.className = "photo";
  img.alt = "Photo";
  img.loading = "lazy";
  img.src = fileUrl(largest.file_id);
  if (largest.width > 0 && largest.height > 0) {
    img.width = largest.width;
    img.height = largest.height;
  }
  return img;
}

function formatSize(bytes) {
  if (!bytes) return "";
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function documentOf(doc) {
  const link = el("a", "document");
  link.href = fileUrl(doc.file_id);
  link.download = doc.file_name ?? "file";
  link.target = "_blank";
  link.rel = "noopener noreferrer";
  link.append(
    svgIcon(
      "document__icon",
      "0 0 24 24",
      "M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8zm-1 7V3.5L18.5 9z",
    ),
  );
  const info = el("span", "document__info");
  info.append(el("span", "document__name", doc.file_name ?? "file"));
  info.append(el("span", "document__size", formatSize(doc.file_size)));
  link.append(info);
  return link;
}

// ---------------------------------------------------------------------------------------
// formatted text: entities become DOM nodes (offsets and lengths are UTF-16 units, as JS strings)

function safeUrl(raw) {
  try {
    const url = new URL(raw, location.href);
    if (["http:", "https:", "mailto:", "tel:"].includes(url.protocol)) return url.href;
    // tg://resolve links to this bot are deep links the page opens itself
    if (url.protocol === "tg:" && isBotLink(url.href)) return url.href;
  } catch {
    // not a URL
  }
  return null;
}

function renderEntities(text, entities) {
  const fragment = document.createDocumentFragment();
  const list = entities
    .filter((e) => e && e.length > 0 && e.offset >= 0 && e.offset < text.length)
    .map((e) => ({ ...e, end: Math.min(text.length, e.offset + e.length) }));
  renderRange(fragment, text, 0, text.length, list);
  return fragment;
}

const byPosition = (a, b) => a.offset - b.offset || b.end - a.end;

/** renders text[start, end) with entities that lie inside it; a partly overlapping entity is split */
function renderRange(parent, text, start, end, entities) {
  let queue = [...entities].sort(byPosition);
  let pos = start;
  while (queue.length > 0) {
    const entity = queue.shift();
    if (entity.end <= pos) continue;
    const from = Math.max(entity.offset, pos);
    if (from > pos) parent.append(text.slice(pos, from));
    const inner = [];
    const rest = [];
    for (const other of queue) {
      if (other.offset >= entity.end) rest.push(other);
      else if (other.end <= entity.end) inner.push(other);
      else {
        inner.push({ ...other, end: entity.end });
        rest.push({ ...other, offset: entity.end });
      }
    }
    const node = entityElement(entity, text);
    const target = node.querySelector("[data-content]") ?? node;
    delete target.dataset.content;
    renderRange(target, text, from, entity.end, inner);
    parent.append(node);
    pos = entity.end;
    queue = rest.sort(byPosition);
  }
  if (pos < end) parent.append(text.slice(pos, end));
}

function link(href, className) {
  const a = el("a", className);
  a.href = href;
  if (isBotLink(href)) {
    // opened by the page itself: a deep link, no navigation
    a.dataset.botLink = "true";
  } else if (!href.startsWith("mailto:") && !href.startsWith("tel:")) {
    a.target = "_blank";
    a.rel = "noopener noreferrer";
  }
  return a;
}

function entityElement(entity, text) {
  const slice = text.slice(entity.offset, entity.end);
  switch (entity.type) {
    case "bold":
      return el("strong");
    case "italic":
      return el("em");
    case "underline":
      return el("u");
    case "strikethrough":
      return el("s");
    case "spoiler": {
      const span = el("span", "spoiler");
      span.dataset.testid = "spoiler";
      span.title = "Spoiler: click to reveal";
      span.addEventListener("click", (event) => {
        if (span.classList.contains("spoiler--revealed")) return;
        event.preventDefault();
        event.stopPropagation();
        span.classList.add("spoiler--revealed");
      });
      return span;
    }
    case "code": {
      const code = el("code", "code");
      code.title = "Click to copy";
      code.addEventListener("click", () => copyText(code.textContent ?? ""));
      return code;
    }
    case "pre": {
      const pre = el("pre", "pre");
      if (entity.language) pre.append(el("div", "pre__language", entity.language));
      const code = el("code");
      code.dataset.content = "";
      if (entity.language) code.className = `language-${entity.language}`;
      pre.append(code);
      return pre;
    }
    case "blockquote":
      return el("blockquote", "blockquote");
    case "expandable_blockquote": {
      const quote = el("blockquote", "blockquote blockquote--expandable");
      quote.addEventListener("click", () => quote.classList.toggle("blockquote--open"));
      return quote;
    }
    case "text_link": {
      const href = safeUrl(entity.url ?? "");
      if (!href) return el("span", "link");
      const a = link(href, "link");
      a.title = href;
      return a;
    }
    case "url": {
      const href = safeUrl(/^[a-z][a-z0-9+.-]*:/i.test(slice) ? slice : `http://${slice}`);
      return href ? link(href, "link") : el("span", "link");
    }
    case "email":
      return link(`mailto:${slice}`, "link");
    case "phone_number":
      return link(`tel:${slice.replace(/[^\d+]/g, "")}`, "link");
    case "bot_command": {
      const a = el("a", "link link--command");
      a.href = "#";
      a.title = `Send ${slice}`;
      a.addEventListener("click", (event) => {
        event.preventDefault();
        // in a private chat Telegram sends the command without the @bot suffix
        void sendText(slice.replace(/@\w+$/, ""));
      });
      return a;
    }
    case "mention":
    case "hashtag":
    case "cashtag":
    case "text_mention":
      return el("span", "link");
    default:
      return el("span");
  }
}

// ---------------------------------------------------------------------------------------
// inline keyboards

const UNSUPPORTED_BUTTONS = {
  login_url: "Login buttons",
  callback_game: "Games",
  pay: "Payments",
};

function inlineKeyboardOf(view, keyboard) {
  const wrap = el("div", "inline-keyboard");
  wrap.dataset.testid = "inline-keyboard";
  for (const buttons of keyboard) {
    const row = el("div", "inline-keyboard__row");
    for (const button of buttons) row.append(inlineButton(view, button));
    wrap.append(row);
  }
  return wrap;
}

function inlineButton(view, button) {
  const label = el("span", "kb-button__label", button.text);
  if (button.url !== undefined) {
    const href = safeUrl(button.url);
    const a = href ? link(href, "kb-button") : el("button", "kb-button");
    if (!href) {
      a.type = "button";
      a.addEventListener("click", () => toast(`${button.url} can't be opened in the browser`));
    }
    a.dataset.testid = "button";
    a.title = button.url;
    a.append(
      label,
      svgIcon("kb-button__corner", "0 0 24 24", "M9 5v2h6.59L4 18.59 5.41 20 17 8.41V15h2V5z"),
    );
    return a;
  }
  const node = el("button", "kb-button");
  node.type = "button";
  node.dataset.testid = "button";
  node.append(label);
  if (button.callback_data !== undefined) {
    node.dataset.callbackData = button.callback_data;
    const pending = [...pendingPresses.values()].some(
      (p) =>
        p.messageId === view.message_id &&
        p.data === button.callback_data &&
        p.userId === currentUserId,
    );
    if (pending) node.classList.add("kb-button--loading");
    node.addEventListener("click", () => void press(view.message_id, button.callback_data, node));
  } else if (button.copy_text !== undefined) {
    node.dataset.kind = "copy_text";
    node.append(
      svgIcon(
        "kb-button__corner",
        "0 0 24 24",
        "M16 1H4a2 2 0 0 0-2 2v14h2V3h12zm3 4H8a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h11a2 2 0 0 0 2-2V7a2 2 0 0 0-2-2zm0 16H8V7h11z",
      ),
    );
    // copying sends nothing to the bot, as in Telegram
    node.addEventListener("click", () => copyText(button.copy_text.text ?? ""));
  } else if (button.web_app !== undefined) {
    node.dataset.kind = "web_app";
    node.append(
      svgIcon(
        "kb-button__corner",
        "0 0 24 24",
        "M19 3H5a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2V5a2 2 0 0 0-2-2zm0 16H5V7h14z",
      ),
    );
    node.addEventListener(
      "click",
      () => void webApp.open({ message_id: view.message_id, button_text: button.text }),
    );
  } else if (
    button.switch_inline_query !== undefined ||
    button.switch_inline_query_current_chat !== undefined ||
    button.switch_inline_query_chosen_chat !== undefined
  ) {
    // there is one chat here, so "choose a chat" is this one
    const query =
      button.switch_inline_query_current_chat ??
      button.switch_inline_query ??
      button.switch_inline_query_chosen_chat?.query ??
      "";
    node.addEventListener("click", () => startInlineQuery(query));
  } else {
    const kind = Object.keys(UNSUPPORTED_BUTTONS).find((k) => button[k] !== undefined);
    node.addEventListener("click", () =>
      toast(
        `${kind ? UNSUPPORTED_BUTTONS[kind] : "This button"} are not available in the playground`,
      ),
    );
  }
  return node;
}

async function press(messageId, data, node) {
  const userId = currentUserId;
  if (node.classList.contains("kb-button--loading")) return;
  node.classList.add("kb-button--loading");
  try {
    const pressed = await post("/control/press", {
      user_id: userId,
      message_id: messageId,
      callback_data: data,
      bot: config.bot.username,
    });
    const id = pressed.callback_query.id;
    // the answer may already have arrived with the long poll
    if (chatState(userId).seenAnswers.has(id)) {
      node.classList.remove("kb-button--loading");
      return;
    }
    // a bot that never answers: the spinner stops after a while, as in Telegram
    const timer = setTimeout(() => {
      pendingPresses.delete(id);
      stopSpinner(messageId, data);
    }, PRESS_SPINNER_MS);
    pendingPresses.set(id, { userId, messageId, data, timer });
  } catch (err) {
    node.classList.remove("kb-button--loading");
    toast(err instanceof ApiError ? err.message : "The button could not be pressed");
  }
}

function stopSpinner(messageId, data) {
  const row = rowsById.get(messageId)?.row;
  if (!row) return;
  for (const button of row.querySelectorAll(".kb-button--loading")) {
    if (button.dataset.callbackData === data) button.classList.remove("kb-button--loading");
  }
}

function showCallbackAnswer(answer) {
  stopSpinner(answer.message_id, answer.data);
  if (!answer.text) return;
  if (answer.show_alert) showAlert(answer.text);
  else toast(answer.text, "callback");
}

// ---------------------------------------------------------------------------------------
// reply keyboards, blocked chats, typing

function renderReplyKeyboard(chat) {
  const markup = chat?.reply_keyboard;
  ui.keyboardToggle.hidden = !markup;
  const placeholder =
    markup?.input_field_placeholder || chat?.force_reply?.input_field_placeholder || "Message";
  ui.input.placeholder = placeholder;
  const signature = markup ? JSON.stringify(markup) : "";
  if (ui.replyKeyboard.dataset.signature !== signature) {
    ui.replyKeyboard.dataset.signature = signature;
    ui.replyKeyboard.replaceChildren();
    replyKeyboardHidden = false;
    if (markup) {
      ui.replyKeyboard.classList.toggle("reply-keyboard--compact", Boolean(markup.resize_keyboard));
      for (const buttons of markup.keyboard) {
        const row = el("div", "reply-keyboard__row");
        for (const raw of buttons) {
          const button = typeof raw === "string" ? { text: raw } : raw;
          const node = el("button", "reply-button", button.text);
          node.type = "button";
          node.dataset.testid = "reply-button";
          const unsupported = [
            "request_contact",
            "request_location",
            "request_poll",
            "request_users",
            "request_chat",
          ].find((k) => button[k] !== undefined);
          node.addEventListener("click", () => {
            if (button.web_app) void webApp.open({ keyboard_button: button.text });
            else if (unsupported) toast("This button is not available in the playground");
            else void sendText(button.text);
          });
          row.append(node);
        }
        ui.replyKeyboard.append(row);
      }
    }
  }
  ui.replyKeyboard.hidden = !markup || replyKeyboardHidden;
  ui.keyboardToggle.classList.toggle("active", Boolean(markup) && !replyKeyboardHidden);
}

/** the chat's menu button: a Mini App's button, or the command list (the Menu button) */
function renderMenuButton(chat) {
  const button = chat?.menu_button;
  const isApp = button?.type === "web_app";
  ui.menuWebApp.hidden = !isApp;
  if (isApp) {
    ui.menuWebApp.textContent = button.text;
    ui.menuWebApp.title = button.web_app.url;
  }
  ui.commandsButton.hidden = isApp || (commandsByUser.get(currentUserId) ?? []).length === 0;
}

function renderBlocked(chat) {
  const blocked = Boolean(chat?.blocked);
  ui.restart.hidden = !blocked;
  ui.composer.hidden = blocked;
  ui.blockItem.textContent = blocked ? "Restart bot" : "Stop and block bot";
}

/** botChanged: a bot message appeared or changed in this update, which ends the action */
function renderTyping(state, botChanged) {
  if (!state) return;
  const action = state.chat?.chat_action;
  const key = action ? `${action.action}:${action.date}` : "";
  if (key === state.typingKey) {
    if (botChanged && !ui.typing.hidden) hideTyping();
    return;
  }
  state.typingKey = key;
  if (!action) {
    hideTyping();
    return;
  }
  // a stale action seen on first load is not shown
  if (Date.now() / 1000 - action.date > TYPING_MS / 1000) return;
  ui.typing.hidden = false;
  ui.typing.dataset.action = action.action;
  ui.app.dataset.typing = action.action;
  clearTimeout(typingTimer);
  typingTimer = setTimeout(hideTyping, TYPING_MS);
  updateStatus();
}

function hideTyping() {
  clearTimeout(typingTimer);
  ui.typing.hidden = true;
  delete ui.app.dataset.typing;
  updateStatus();
}

const ACTION_LABELS = {
  typing: "typing",
  upload_photo: "sending a photo",
  upload_document: "sending a file",
  upload_video: "sending a video",
  record_video: "recording a video",
  record_voice: "recording a voice message",
  upload_voice: "sending a voice message",
  choose_sticker: "choosing a sticker",
  find_location: "finding a location",
  record_video_note: "recording a video message",
  upload_video_note: "sending a video message",
};

function updateStatus() {
  const state = chats.get(currentUserId);
  let text = "bot";
  let kind = "";
  if (state?.failing) {
    text = "connecting";
    kind = "connecting";
  } else if (ui.app.dataset.typing) {
    text = ACTION_LABELS[ui.app.dataset.typing] ?? "typing";
    kind = "typing";
  }
  ui.botStatus.textContent = text;
  ui.botStatus.dataset.kind = kind;
}

// ---------------------------------------------------------------------------------------
// sending

async function sendText(text) {
  const trimmed = text.trim();
  if (!trimmed) return false;
  const userId = currentUserId;
  const payload = { user_id: userId, text: trimmed, bot: config.bot.username };
  try {
    try {
      await post("/control/send", payload);
    } catch (err) {
      // after a control reset the users are gone; the config endpoint creates them again
      if (!(err instanceof ApiError) || err.status !== 404) throw err;
      await loadConfig();
      await post("/control/send", payload);
    }
    closeCommands();
    // what I send scrolls the chat down, as in Telegram
    requestAnimationFrame(scrollToBottom);
    return true;
  } catch (err) {
    toast(err instanceof ApiError ? err.message : "Not sent: the server did not answer");
    return false;
  }
}

/** a photo (the server's sample picture) or a sticker, to try how the bot takes them */
async function sendMedia(kind) {
  closeMenus();
  const payload = { user_id: currentUserId, bot: config.bot.username };
  if (kind === "photo") payload.photo = true;
  else payload.sticker = { emoji: "🎉" };
  try {
    await post("/control/send", payload);
    requestAnimationFrame(scrollToBottom);
  } catch (err) {
    toast(err instanceof ApiError ? err.message : "Not sent: the server did not answer");
  }
}

async function submitInput() {
  if (commandsOpen && commandFilter !== null) {
    const picked = visibleCommands()[commandIndex];
    const typed = ui.input.value.trim();
    if (picked && typed !== `/${picked.command}`) {
      ui.input.value = `/${picked.command}`;
    }
  }
  const text = ui.input.value;
  if (!text.trim()) return;
  ui.input.value = "";
  autoGrow();
  closeCommands();
  inline.hide();
  const sent = await sendText(text);
  if (!sent && !ui.input.value) {
    ui.input.value = text;
    autoGrow();
  }
}

function autoGrow() {
  ui.input.style.height = "auto";
  ui.input.style.height = `${Math.min(ui.input.scrollHeight, 160)}px`;
  ui.send.classList.toggle("send--ready", ui.input.value.trim() !== "");
}

// ---------------------------------------------------------------------------------------
// the "/" command menu

async function loadCommands(userId) {
  try {
    const commands = await api(`/control/chats/${userId}/commands?${botParam()}`);
    commandsByUser.set(userId, commands);
  } catch (err) {
    console.warn("playground: loading commands failed", err);
  }
  if (userId === currentUserId) {
    renderMenuButton(chats.get(userId)?.chat ?? null);
    if (commandsOpen) renderCommands();
  }
}

function visibleCommands() {
  const all = commandsByUser.get(currentUserId) ?? [];
  if (commandFilter === null) return all;
  const prefix = commandFilter.toLowerCase();
  return all.filter((c) => c.command.startsWith(prefix));
}

function renderCommands() {
  const list = visibleCommands();
  ui.commands.replaceChildren();
  if (list.length === 0) {
    if (commandFilter !== null) {
      ui.commands.hidden = true;
      return;
    }
    ui.commands.append(el("div", "commands__empty", "This bot has no commands for you."));
  }
  commandIndex = Math.min(commandIndex, Math.max(0, list.length - 1));
  list.forEach((command, index) => {
    const item = el("button", "command");
    item.type = "button";
    item.dataset.testid = "command";
    item.dataset.command = command.command;
    item.classList.toggle("command--active", index === commandIndex && commandFilter !== null);
    item.append(el("span", "command__name", `/${command.command}`));
    item.append(el("span", "command__description", command.description));
    item.addEventListener("click", () => {
      closeCommands();
      ui.input.value = "";
      autoGrow();
      void sendText(`/${command.command}`);
    });
    ui.commands.append(item);
  });
  ui.commands.hidden = false;
}

function openCommands(filter) {
  commandFilter = filter;
  commandsOpen = true;
  commandIndex = 0;
  ui.commandsButton.setAttribute("aria-expanded", "true");
  ui.commandsButton.classList.add("menu-button--open");
  renderCommands();
  void loadCommands(currentUserId);
}

function closeCommands() {
  commandsOpen = false;
  ui.commands.hidden = true;
  ui.commandsButton.setAttribute("aria-expanded", "false");
  ui.commandsButton.classList.remove("menu-button--open");
}

function onInputChanged() {
  autoGrow();
  const match = /^\/(\w*)$/.exec(ui.input.value);
  if (match) openCommands(match[1]);
  else if (commandsOpen && commandFilter !== null) closeCommands();
  inline.onInput();
}

// ---------------------------------------------------------------------------------------
// toasts, alerts, menus, scrolling

function toast(text, kind = "info") {
  ui.toast.textContent = text;
  ui.toast.dataset.kind = kind;
  ui.toast.hidden = false;
  ui.toast.classList.remove("toast--out");
  clearTimeout(toastTimer);
  const ms = Math.min(7000, 2500 + text.length * 40);
  toastTimer = setTimeout(hideToast, ms);
}

function hideToast() {
  clearTimeout(toastTimer);
  ui.toast.hidden = true;
}

function showAlert(text) {
  ui.alertTitle.textContent = config?.bot.name ?? "Bot";
  ui.alertText.textContent = text;
  if (!ui.alert.open) ui.alert.showModal();
}

async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    toast("Copied to clipboard.");
  } catch {
    toast("Copying is not allowed here.");
  }
}

function closeMenus() {
  ui.userMenu.hidden = true;
  ui.moreMenu.hidden = true;
  ui.attachMenu.hidden = true;
  ui.switcher.setAttribute("aria-expanded", "false");
  ui.moreButton.setAttribute("aria-expanded", "false");
  ui.attachButton.setAttribute("aria-expanded", "false");
}

function toggleMenu(menu, button) {
  const open = menu.hidden;
  closeMenus();
  closeCommands();
  menu.hidden = !open;
  button.setAttribute("aria-expanded", String(open));
}

function scrollToBottom() {
  stuckToBottom = true;
  ui.scroller.scrollTop = ui.scroller.scrollHeight;
}

// ---------------------------------------------------------------------------------------
// start

async function loadConfig() {
  config = await api("/playground/config");
  document.title = config.title;
  ui.botName.textContent = config.bot.name;
  ui.botName.title = `@${config.bot.username}`;
  paintAvatar(ui.botAvatar, config.bot.name, config.bot.id);
  ui.alertTitle.textContent = config.bot.name;
  const links = $("links");
  links.replaceChildren(
    ...(config.links ?? []).map((link) => {
      const a = document.createElement("a");
      a.className = "links__item";
      a.href = link.href;
      a.target = "_blank";
      a.rel = "noopener";
      a.textContent = link.label;
      return a;
    }),
  );
}

function wire() {
  ui.composer.addEventListener("submit", (event) => {
    event.preventDefault();
    void submitInput();
  });
  ui.input.addEventListener("input", onInputChanged);
  ui.input.addEventListener("keydown", (event) => {
    if (commandsOpen && commandFilter !== null) {
      const count = visibleCommands().length;
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        commandIndex =
          (commandIndex + (event.key === "ArrowDown" ? 1 : count - 1)) % Math.max(1, count);
        renderCommands();
        return;
      }
      if (event.key === "Tab" && count > 0) {
        event.preventDefault();
        ui.input.value = `/${visibleCommands()[commandIndex].command}`;
        autoGrow();
        return;
      }
    }
    if (event.key === "Escape") {
      closeCommands();
      closeMenus();
      inline.hide();
      return;
    }
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      void submitInput();
    }
  });
  ui.commandsButton.addEventListener("click", () => {
    if (commandsOpen) closeCommands();
    else openCommands(null);
  });
  ui.menuWebApp.addEventListener("click", () => void webApp.open({ menu: true }));
  // links to this bot are deep links: the page sends /start <param> instead of navigating
  ui.messages.addEventListener("click", (event) => {
    const target =
      event.target instanceof Element ? event.target.closest("a[data-bot-link]") : null;
    if (!target) return;
    event.preventDefault();
    void openBotLink(target.getAttribute("href"));
  });
  ui.keyboardToggle.addEventListener("click", () => {
    replyKeyboardHidden = !replyKeyboardHidden;
    renderReplyKeyboard(chats.get(currentUserId)?.chat ?? null);
  });
  ui.startButton.addEventListener("click", () => void sendText("/start"));
  ui.restartButton.addEventListener("click", async () => {
    try {
      await post("/control/block", {
        user_id: currentUserId,
        blocked: false,
        bot: config.bot.username,
      });
      await sendText("/start");
    } catch (err) {
      toast(err instanceof ApiError ? err.message : "The bot could not be restarted");
    }
  });
  ui.switcher.addEventListener("click", (event) => {
    event.stopPropagation();
    toggleMenu(ui.userMenu, ui.switcher);
  });
  ui.attachButton.addEventListener("click", (event) => {
    event.stopPropagation();
    toggleMenu(ui.attachMenu, ui.attachButton);
  });
  ui.sendPhoto.addEventListener("click", () => void sendMedia("photo"));
  ui.sendSticker.addEventListener("click", () => void sendMedia("sticker"));
  ui.moreButton.addEventListener("click", (event) => {
    event.stopPropagation();
    toggleMenu(ui.moreMenu, ui.moreButton);
  });
  ui.blockItem.addEventListener("click", async () => {
    closeMenus();
    const blocked = Boolean(chats.get(currentUserId)?.chat?.blocked);
    try {
      await post("/control/block", {
        user_id: currentUserId,
        blocked: !blocked,
        bot: config.bot.username,
      });
    } catch (err) {
      toast(err instanceof ApiError ? err.message : "Not done: the server did not answer");
    }
  });
  document.addEventListener("click", (event) => {
    const target = event.target;
    if (!(target instanceof Node)) return;
    if (![ui.userMenu, ui.moreMenu, ui.attachMenu].some((menu) => menu.contains(target)))
      closeMenus();
    if (
      commandsOpen &&
      !ui.commands.contains(target) &&
      !ui.commandsButton.contains(target) &&
      target !== ui.input
    )
      closeCommands();
    if (
      inline.isOpen() &&
      !document.getElementById("inline-results")?.contains(target) &&
      target !== ui.input
    )
      inline.hide();
  });
  ui.toast.addEventListener("click", hideToast);
  ui.scroller.addEventListener("scroll", () => {
    const top = ui.scroller.scrollTop;
    const distance = ui.scroller.scrollHeight - top - ui.scroller.clientHeight;
    // only scrolling up leaves the bottom: content growing below (a photo loading) does not
    if (top < lastScrollTop - 1) stuckToBottom = distance < 60;
    else if (distance < 60) stuckToBottom = true;
    lastScrollTop = top;
    ui.toBottom.hidden = distance < 200;
  });
  // content that grows later (photos loading, a reply keyboard) keeps the latest message in view
  new ResizeObserver(() => {
    if (stuckToBottom) scrollToBottom();
  }).observe(ui.messages);
  new ResizeObserver(() => {
    if (stuckToBottom) scrollToBottom();
  }).observe(ui.scroller);
  ui.toBottom.addEventListener("click", () =>
    ui.scroller.scrollTo({ top: ui.scroller.scrollHeight, behavior: "smooth" }),
  );
}

function initialUser() {
  const fromQuery = Number(new URLSearchParams(location.search).get("user"));
  if (userById(fromQuery)) return fromQuery;
  try {
    const stored = Number(localStorage.getItem("kios-playground-user"));
    if (userById(stored)) return stored;
  } catch {
    // no storage: the first user
  }
  return config.users[0].id;
}

async function main() {
  wire();
  let backoff = 500;
  for (;;) {
    try {
      await loadConfig();
      break;
    } catch (err) {
      console.warn("playground: loading the config failed", err);
      ui.botStatus.textContent = "connecting";
      ui.botStatus.dataset.kind = "connecting";
      await sleep(backoff);
      backoff = Math.min(MAX_BACKOFF_MS, backoff * 2);
    }
  }
  renderUserMenu();
  switchUser(initialUser());
  ui.app.dataset.ready = "true";
}

void main();
