// kios's Mini App: the catalogue searched as you type at the buyer's own price, and the same
// checkout as the chat (a quote, then Pay). Every API call carries Telegram's signed initData;
// the server trusts nothing else. Texts from the server go into the page as text, never HTML.

const tg = window.Telegram?.WebApp;
const $ = (id) => document.querySelector(`[data-testid="${id}"]`);

const TEXTS = {
  id: {
    title: "Katalog",
    "destination-label": "Nomor HP",
    "destination-placeholder": "0812 3456 7890",
    "search-label": "Cari produk",
    "search-placeholder": "mis. tsel 10, free fire 140, data 10gb",
    more: "Muat lagi",
    "zone-label": "Zone ID",
    balance: "Saldo {0}",
    "hint-start": "Ketik nama produk atau pilih kategori.",
    "hint-none": "Tidak ada produk yang cocok.",
    "hint-count": "{0} produk",
    "hint-loading": "Katalog sedang dimuat, coba sebentar lagi.",
    "closed-until": "tutup s/d {0}",
    "cut-off": "Jam tutup harian: {0}–{1} WIB",
    "ask-phone": "Nomor HP",
    "ask-meter": "Nomor meter / ID pelanggan PLN",
    "ask-game_id": "ID akun game",
    "ask-customer_no": "Nomor pelanggan",
    "btn-next": "Lanjut",
    "btn-pay": "Bayar {0}",
    "btn-again": "Belanja lagi",
    "btn-copy": "📋 Salin",
    copied: "Tersalin",
    "q-product": "Produk",
    "q-destination": "Tujuan",
    "q-name": "Nama",
    "q-bill": "Tagihan",
    "q-admin": "Admin",
    "q-price": "Harga",
    "q-balance": "Saldo",
    "q-testing": "🧪 Mode uji: tidak ada uang yang berpindah",
    "q-short": "Saldo kurang {0}. Isi saldo lewat /deposit di chat.",
    "q-repeat":
      "⚠️ Kamu sudah membeli ini untuk nomor ini hari ini pukul {0}. Bayar berarti beli lagi.",
    processing: "⏳ Diproses",
    success: "✅ Berhasil",
    failed: "❌ Gagal",
    "r-ref": "Ref: {0}",
    "r-sn": "SN: {0}",
    "r-token": "Token: {0}",
    "r-refunded": "Saldo dikembalikan {0}",
    "r-wait": "Hasilnya juga masuk ke chat.",
    "fail-destination": "nomor tujuan tidak valid untuk produk ini",
    "fail-product": "produk sedang tidak tersedia",
    "fail-bill": "sesi tagihan sudah habis; cek ulang tagihannya",
    "fail-service": "layanan supplier sedang terganggu; coba lagi nanti",
    "fail-not-processed": "pesanan tidak diproses supplier",
    "fail-supplier": "supplier tidak dapat memproses pesanan ini",
    "fail-unknown": "tidak diketahui",
    "e-unauthorized":
      "Sesi Telegram tidak sah atau sudah lewat sehari. Tutup dan buka lagi Katalog dari chat.",
    "e-no-telegram": "Buka Katalog dari Telegram: tombol 🛍 Katalog di chat bot.",
    "e-network": "Koneksi gagal. Coba lagi.",
    "e-server": "Terjadi kesalahan. Cek /riwayat di chat sebelum mencoba lagi.",
    "e-invalid_phone": "Nomor HP tidak dikenali. Contoh: 0812 3456 7890.",
    "e-invalid_destination": "Tujuan tidak valid untuk produk ini. Periksa lagi.",
    "e-product_unavailable": "Produk ini sedang tidak tersedia.",
    "e-not_for_sale": "Produk ini sedang tidak tersedia.",
    "e-product_closed": "Produk sedang tutup sampai {0}.",
    "e-no_bill": "Tidak ada tagihan untuk nomor ini.",
    "e-supplier_error": "Supplier sedang terganggu. Coba lagi nanti.",
    "e-supplier_unavailable": "Layanan sedang tidak bisa memproses pesanan. Coba lagi nanti.",
    "e-bill_already_paid": "Tagihan ini sudah dibayar atau sedang dibayar.",
    "e-bought_today":
      "Belum dibayar: ini sudah dibeli untuk nomor ini hari ini pukul {0}, setelah harga ini dibuat. Pilih produknya lagi untuk membeli lagi.",
    "e-quote_expired": "Harga sudah kedaluwarsa. Pilih produknya lagi.",
    "e-quote_cancelled": "Pesanan ini sudah dibatalkan.",
    "e-quote_not_found": "Pesanan ini tidak ditemukan. Pilih produknya lagi.",
    "e-insufficient_balance": "Saldo kurang {0}. Isi saldo lewat /deposit di chat.",
    "e-bad_request": "Permintaan tidak valid.",
    "e-need-destination": "Isi tujuannya dulu.",
    "e-need-zone": "Isi Zone ID dulu.",
  },
  en: {
    title: "Catalogue",
    "destination-label": "Phone number",
    "destination-placeholder": "0812 3456 7890",
    "search-label": "Search products",
    "search-placeholder": "e.g. tsel 10, free fire 140, data 10gb",
    more: "Load more",
    "zone-label": "Zone ID",
    balance: "Balance {0}",
    "hint-start": "Type a product's name or pick a category.",
    "hint-none": "No products match.",
    "hint-count": "{0} products",
    "hint-loading": "The catalogue is loading, try again shortly.",
    "closed-until": "closed until {0}",
    "cut-off": "Daily cut-off: {0}–{1} WIB",
    "ask-phone": "Phone number",
    "ask-meter": "PLN meter / customer ID",
    "ask-game_id": "Game account ID",
    "ask-customer_no": "Customer number",
    "btn-next": "Continue",
    "btn-pay": "Pay {0}",
    "btn-again": "Shop again",
    "btn-copy": "📋 Copy",
    copied: "Copied",
    "q-product": "Product",
    "q-destination": "Destination",
    "q-name": "Name",
    "q-bill": "Bill",
    "q-admin": "Fee",
    "q-price": "Price",
    "q-balance": "Balance",
    "q-testing": "🧪 Test mode: no money moves",
    "q-short": "{0} short. Top up with /deposit in the chat.",
    "q-repeat": "⚠️ You bought this for this number today at {0}. Pay buys it again.",
    processing: "⏳ Processing",
    success: "✅ Success",
    failed: "❌ Failed",
    "r-ref": "Ref: {0}",
    "r-sn": "SN: {0}",
    "r-token": "Token: {0}",
    "r-refunded": "Refunded {0}",
    "r-wait": "The result also arrives in the chat.",
    "fail-destination": "the destination is not valid for this product",
    "fail-product": "the product is not available right now",
    "fail-bill": "the bill's session ended; check the bill again",
    "fail-service": "the supplier's service is disrupted; try again later",
    "fail-not-processed": "the supplier did not process the order",
    "fail-supplier": "the supplier could not process this order",
    "fail-unknown": "unknown",
    "e-unauthorized":
      "The Telegram session is not valid or older than a day. Close and open the Catalogue again from the chat.",
    "e-no-telegram": "Open the Catalogue from Telegram: the 🛍 Catalogue button in the bot's chat.",
    "e-network": "Connection failed. Try again.",
    "e-server": "Something went wrong. Check /riwayat in the chat before trying again.",
    "e-invalid_phone": "Phone number not recognised. Example: 0812 3456 7890.",
    "e-invalid_destination": "The destination is not valid for this product. Check it.",
    "e-product_unavailable": "This product is not available right now.",
    "e-not_for_sale": "This product is not available right now.",
    "e-product_closed": "The product is closed until {0}.",
    "e-no_bill": "There is no bill for this number.",
    "e-supplier_error": "The supplier is disrupted. Try again later.",
    "e-supplier_unavailable": "Orders can't be processed right now. Try again later.",
    "e-bill_already_paid": "This bill is paid or being paid.",
    "e-bought_today":
      "Not paid: this was already bought for this number today at {0}, after this price was made. Pick the product again to buy it again.",
    "e-quote_expired": "The price expired. Pick the product again.",
    "e-quote_cancelled": "This order was cancelled.",
    "e-quote_not_found": "This order was not found. Pick the product again.",
    "e-insufficient_balance": "{0} short. Top up with /deposit in the chat.",
    "e-bad_request": "The request is not valid.",
    "e-need-destination": "Fill in the destination first.",
    "e-need-zone": "Fill in the Zone ID first.",
  },
};

let lang = tg?.initDataUnsafe?.user?.language_code?.startsWith("en") ? "en" : "id";

function t(key, ...args) {
  const text = TEXTS[lang][key] ?? TEXTS.id[key] ?? key;
  return text.replace(/\{(\d)\}/g, (_, i) => String(args[Number(i)] ?? ""));
}

function applyTexts() {
  document.documentElement.lang = lang;
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of document.querySelectorAll("[data-i18n-placeholder]")) {
    el.placeholder = t(el.dataset.i18nPlaceholder);
  }
}

/** Rp10.000 */
function rupiah(n) {
  const digits = String(Math.abs(Math.trunc(n))).replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  return `${n < 0 ? "-" : ""}Rp${digits}`;
}

/** "14:05 WIB" */
function wibTime(ms) {
  const d = new Date(ms + 7 * 3600_000);
  const pad = (n) => String(n).padStart(2, "0");
  return `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} WIB`;
}

function show(el, visible) {
  el.hidden = !visible;
}

// ---- the API ----------------------------------------------------------------------------

class ApiError extends Error {
  constructor(status, body) {
    super(body?.error ?? `HTTP ${status}`);
    this.status = status;
    this.body = body ?? {};
  }
}

async function api(path, init = {}) {
  let res;
  try {
    res = await fetch(`/app/api${path}`, {
      ...init,
      headers: {
        authorization: `tma ${tg?.initData ?? ""}`,
        ...(init.body ? { "content-type": "application/json" } : {}),
      },
    });
  } catch (err) {
    if (err?.name === "AbortError") throw err;
    throw new ApiError(0, { error: "network" });
  }
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new ApiError(res.status, body);
  return body;
}

/** what a failed call tells the buyer */
function errorText(err) {
  if (!(err instanceof ApiError)) return t("e-server");
  if (err.status === 401) return t("e-unauthorized");
  if (err.status === 0) return t("e-network");
  const refusal = err.body.refusal ?? {};
  switch (err.body.error) {
    case "product_closed":
      return t("e-product_closed", wibTime(refusal.until));
    case "insufficient_balance":
      return t("e-insufficient_balance", rupiah(refusal.missing ?? 0));
    case "bought_today":
      return t("e-bought_today", wibTime(Date.parse(refusal.at)));
    case undefined:
      return t("e-server");
    default:
      return TEXTS[lang][`e-${err.body.error}`] ? t(`e-${err.body.error}`) : t("e-server");
  }
}

function notice(text) {
  $("notice").textContent = text ?? "";
  show($("notice"), Boolean(text));
}

// ---- the main button: Telegram's, or the page's own outside Telegram -----------------------

const pageButton = $("action");
let mainAction = null;
const main = {
  set(text, action) {
    mainAction = action;
    if (tg) {
      tg.MainButton.setText(text);
      tg.MainButton.enable();
      tg.MainButton.show();
    } else {
      pageButton.textContent = text;
      pageButton.disabled = false;
      show(pageButton, true);
    }
  },
  hide() {
    mainAction = null;
    if (tg) tg.MainButton.hide();
    else show(pageButton, false);
  },
  busy(on) {
    if (tg) {
      if (on) tg.MainButton.showProgress(false);
      else tg.MainButton.hideProgress();
    } else pageButton.disabled = on;
  },
};
let running = false;
async function onMain() {
  // one tap at a time: a double tap does not run the action twice
  if (!mainAction || running) return;
  running = true;
  main.busy(true);
  try {
    await mainAction();
  } finally {
    running = false;
    main.busy(false);
  }
}
if (tg) tg.MainButton.onClick(onMain);
pageButton.addEventListener("click", onMain);

// ---- the list: destination, search, categories ---------------------------------------------

const state = {
  phone: null, // { phone, operator, operators } when the destination is a known phone number
  category: null,
  brand: null,
  outline: [],
  items: [],
  total: 0,
  query: 0,
  controller: null,
};

const OPERATOR_NAMES = {
  telkomsel: "Telkomsel",
  indosat: "Indosat",
  xl: "XL",
  axis: "Axis",
  tri: "Tri",
  smartfren: "Smartfren",
  byu: "by.U",
};

function debounce(fn, ms) {
  let timer;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
}

async function readPhone() {
  const value = $("destination").value.trim();
  const looksLikePhone = /^(\+?62|0)8[\d\s.-]{7,}$/.test(value);
  let phone = null;
  if (looksLikePhone) {
    try {
      phone = await api(`/phone?number=${encodeURIComponent(value)}`);
    } catch {
      phone = null;
    }
  }
  if ($("destination").value.trim() !== value) return; // typed on meanwhile
  const changed = state.phone?.phone !== phone?.phone;
  state.phone = phone;
  const chip = $("operator");
  chip.textContent = phone ? (OPERATOR_NAMES[phone.operator] ?? phone.operator) : "";
  show(chip, Boolean(phone));
  if (changed) await search();
}

const FIRST_CATEGORIES = ["Pulsa", "Data", "E-Money", "PLN", "Games"];

/** a catalogue category in the shop's words, as the API names it (the chat's words) */
function categoryName(category) {
  return state.outline.find((e) => e.category === category)?.categoryName ?? category;
}

function renderCategories() {
  const nav = $("categories");
  nav.replaceChildren();
  // what most buyers want first: airtime, data, e-wallets, PLN, games, then the bills
  const rank = (c) => {
    const i = FIRST_CATEGORIES.indexOf(c);
    return i === -1 ? FIRST_CATEGORIES.length : i;
  };
  const categories = [...new Set(state.outline.map((e) => e.category))].sort(
    (a, b) => rank(a) - rank(b) || a.localeCompare(b),
  );
  for (const category of categories) {
    const chip = document.createElement("button");
    chip.type = "button";
    chip.className = "chip";
    chip.dataset.testid = "category";
    chip.textContent = categoryName(category);
    chip.setAttribute("aria-pressed", String(state.category === category));
    chip.addEventListener("click", () => {
      state.category = state.category === category ? null : category;
      state.brand = null;
      renderCategories();
      search();
    });
    nav.append(chip);
  }
  const brands = $("brands");
  brands.replaceChildren();
  const inCategory = state.outline.filter((e) => e.category === state.category);
  show(brands, inCategory.length > 1);
  for (const entry of inCategory.length > 1 ? inCategory : []) {
    const chip = document.createElement("button");
    chip.type = "button";
    chip.className = "chip";
    chip.dataset.testid = "brand";
    chip.textContent = entry.brandName ?? entry.brand;
    chip.setAttribute("aria-pressed", String(state.brand === entry.brand));
    chip.addEventListener("click", () => {
      state.brand = state.brand === entry.brand ? null : entry.brand;
      renderCategories();
      search();
    });
    brands.append(chip);
  }
}

function productButton(item) {
  const li = document.createElement("li");
  const button = document.createElement("button");
  button.type = "button";
  button.className = item.closedUntil ? "product product--closed" : "product";
  button.dataset.testid = "product";
  button.dataset.code = item.code;
  const text = document.createElement("span");
  text.className = "product__text";
  const name = document.createElement("span");
  name.className = "product__name";
  name.textContent = item.name;
  const meta = document.createElement("span");
  meta.className = "product__meta";
  meta.textContent = item.closedUntil
    ? `⛔ ${t("closed-until", wibTime(item.closedUntil))}`
    : `${item.brandName ?? item.brand} · ${item.categoryName ?? item.category}`;
  text.append(name, meta);
  const price = document.createElement("span");
  price.className = "product__price";
  price.dataset.testid = "product-price";
  price.textContent = item.type === "pasca" ? `+${rupiah(item.price)}` : rupiah(item.price);
  button.append(text, price);
  button.addEventListener("click", () => openProduct(item));
  li.append(button);
  return li;
}

function renderList() {
  const list = $("products");
  list.replaceChildren(...state.items.map(productButton));
  show($("more"), state.items.length < state.total);
  const hint = $("list-hint");
  const idle = !$("search").value.trim() && !state.category;
  hint.textContent = idle
    ? t("hint-start")
    : state.total === 0
      ? t("hint-none")
      : t("hint-count", state.total);
}

async function search(append = false) {
  const q = $("search").value.trim();
  if (!q && !state.category && !state.brand) {
    state.items = [];
    state.total = 0;
    renderList();
    return;
  }
  // only the latest key press's answer is shown
  state.controller?.abort();
  const controller = new AbortController();
  state.controller = controller;
  const params = new URLSearchParams();
  if (q) params.set("q", q);
  if (state.category) params.set("category", state.category);
  if (state.brand) params.set("brand", state.brand);
  if (state.phone) params.set("phone", state.phone.phone);
  if (append) params.set("offset", String(state.items.length));
  $("app").dataset.searching = "true";
  try {
    const page = await api(`/products?${params}`, { signal: controller.signal });
    if (state.controller !== controller) return;
    state.items = append ? [...state.items, ...page.items] : page.items;
    state.total = page.total;
    notice(null);
    renderList();
  } catch (err) {
    if (err?.name === "AbortError") return;
    notice(errorText(err));
  } finally {
    if (state.controller === controller) $("app").dataset.searching = "false";
  }
}

// ---- checkout: a quote, then Pay ------------------------------------------------------------

const sheet = { product: null, quote: null, order: null, creating: false };

function openSheet(product) {
  sheet.product = product;
  sheet.quote = null;
  sheet.order = null;
  show($("list-view"), false);
  show($("sheet"), true);
  $("sheet-name").textContent = product.name;
  $("sheet-meta").textContent =
    `${product.brandName ?? product.brand} · ${product.categoryName ?? product.category}`;
  $("sheet-description").textContent = product.description;
  const cutoff = $("sheet-cutoff");
  cutoff.textContent = product.cutOff
    ? t("cut-off", product.cutOff.start, product.cutOff.end)
    : product.closedUntil
      ? `⛔ ${t("closed-until", wibTime(product.closedUntil))}`
      : "";
  show(cutoff, Boolean(cutoff.textContent));
  show($("quote"), false);
  show($("result"), false);
  sheetError(null);
  if (tg) tg.BackButton.show();
  window.scrollTo(0, 0);
}

function closeSheet() {
  const { quote, order } = sheet;
  // a quote left unpaid is cancelled, so its card in the chat says so too
  if (quote && !order) api(`/quotes/${quote.id}/cancel`, { method: "POST" }).catch(() => {});
  sheet.product = null;
  sheet.quote = null;
  sheet.order = null;
  show($("sheet"), false);
  show($("list-view"), true);
  main.hide();
  if (tg) tg.BackButton.hide();
  refreshBalance();
}

function sheetError(text) {
  $("sheet-error").textContent = text ?? "";
  show($("sheet-error"), Boolean(text));
}

/**
 * the destination for a product from what the buyer typed, or what is missing. The phone
 * number above the list is only ever a phone product's destination: never a game account,
 * a meter or a bill's customer number
 */
function destinationFor(product) {
  const phone = product.destination === "phone" ? $("destination").value.trim() : "";
  const typed = $("ask-destination").value.trim() || phone;
  if (!typed) return { missing: "e-need-destination" };
  if (product.zone && !/\(\d+\)$/.test(typed)) {
    const zone = $("ask-zone").value.trim();
    if (!zone) return { missing: "e-need-zone" };
    return { destination: `${typed}(${zone})` };
  }
  return { destination: typed };
}

function askDestination(product, prefill) {
  show($("sheet-ask"), true);
  $("ask-label").textContent = t(`ask-${product.destination}`);
  const input = $("ask-destination");
  input.inputMode = product.destination === "game_id" ? "text" : "numeric";
  if (prefill !== undefined) input.value = prefill;
  show($("ask-zone-field"), product.zone);
  main.set(t("btn-next"), () => requestQuote(product));
}

async function openProduct(product) {
  if (sheet.creating) return;
  openSheet(product);
  $("ask-destination").value = "";
  $("ask-zone").value = "";
  show($("sheet-ask"), false);
  if (product.closedUntil) {
    main.hide();
    return;
  }
  if (destinationFor(product).missing) {
    askDestination(product);
    return;
  }
  await requestQuote(product);
}

async function requestQuote(product) {
  const wanted = destinationFor(product);
  if (wanted.missing) {
    sheetError(t(wanted.missing));
    return;
  }
  sheet.creating = true;
  main.busy(true);
  try {
    const { quote } = await api("/quotes", {
      method: "POST",
      body: JSON.stringify({ code: product.code, destination: wanted.destination }),
    });
    if (sheet.product !== product) {
      // the buyer went back meanwhile: the quote is not wanted
      api(`/quotes/${quote.id}/cancel`, { method: "POST" }).catch(() => {});
      return;
    }
    sheetError(null);
    show($("sheet-ask"), false);
    showQuote(quote);
  } catch (err) {
    sheetError(errorText(err));
    if (err?.body?.error === "invalid_destination" || err?.body?.error === "no_bill") {
      askDestination(product);
    } else {
      main.hide();
    }
  } finally {
    sheet.creating = false;
    main.busy(false);
  }
}

function row(list, label, value, testid) {
  const dt = document.createElement("dt");
  dt.textContent = label;
  const dd = document.createElement("dd");
  dd.textContent = value;
  if (testid) dd.dataset.testid = testid;
  list.append(dt, dd);
}

function showQuote(quote) {
  sheet.quote = quote;
  const list = $("quote");
  list.replaceChildren();
  row(list, t("q-product"), quote.productName);
  row(list, t("q-destination"), quote.destination, "quote-destination");
  if (quote.bill) {
    if (quote.bill.customerName) row(list, t("q-name"), quote.bill.customerName);
    row(list, t("q-bill"), rupiah(quote.bill.tagihan));
    row(list, t("q-admin"), rupiah(quote.bill.admin));
  }
  row(list, t("q-price"), rupiah(quote.price), "quote-price");
  const short = quote.balanceAfter < 0 && !quote.testing;
  row(
    list,
    t("q-balance"),
    short ? rupiah(quote.balance) : `${rupiah(quote.balance)} → ${rupiah(quote.balanceAfter)}`,
  );
  if (quote.testing || short) {
    const note = document.createElement("dd");
    note.className = "quote__short";
    note.textContent = quote.testing ? t("q-testing") : t("q-short", rupiah(-quote.balanceAfter));
    list.append(note);
  }
  // the same-day repeat rule: the sheet asks, as the chat's card does; Pay is the yes
  if (quote.sameDay) {
    const note = document.createElement("dd");
    note.className = "quote__short";
    note.dataset.testid = "quote-repeat";
    note.textContent = t("q-repeat", wibTime(quote.sameDay.last));
    list.append(note);
  }
  show(list, true);
  main.set(t("btn-pay", rupiah(quote.price)), () => pay(quote));
}

async function pay(quote) {
  try {
    const { order } = await api(`/quotes/${quote.id}/pay`, { method: "POST" });
    showOrder(order);
    if (!order.final) await follow(quote);
  } catch (err) {
    sheetError(errorText(err));
    if (err?.body?.error === "insufficient_balance") return; // Pay again after a top-up
    main.set(t("btn-again"), async () => closeSheet());
  }
}

/** waits for an open order's result, as the chat's card does */
async function follow(quote) {
  for (let i = 0; i < 400 && sheet.quote === quote; i++) {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    try {
      const { order } = await api(`/quotes/${quote.id}`);
      if (order && sheet.quote === quote) showOrder(order);
      if (order?.final) return;
    } catch {
      // a lost poll is retried; the chat gets the result either way
    }
  }
}

function line(parent, text, className = "result__line", testid) {
  const p = document.createElement("p");
  p.className = className;
  p.textContent = text;
  if (testid) p.dataset.testid = testid;
  parent.append(p);
  return p;
}

/** a PLN token's 20 digits, grouped in fours, or null */
function plnToken(order) {
  const first = (order.sn ?? "").split("/")[0].replace(/[\s-]/g, "");
  return /^\d{20}$/.test(first) && /PLN/i.test(order.productName)
    ? first.replace(/(\d{4})(?=\d)/g, "$1 ")
    : null;
}

function copyButton(parent, text) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "copy";
  button.dataset.testid = "copy";
  button.textContent = t("btn-copy");
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = t("copied");
    } catch {
      // no clipboard in this webview: the text is shown to select by hand
    }
  });
  parent.append(button);
}

function showOrder(order) {
  sheet.order = order;
  show($("quote"), false);
  sheetError(null);
  const box = $("result");
  box.replaceChildren();
  box.dataset.status = order.status;
  const head =
    order.status === "success"
      ? t("success")
      : order.status === "failed"
        ? t("failed")
        : t("processing");
  line(box, head, "result__head", "result-head");
  line(box, order.productName);
  line(box, order.destination);
  line(box, rupiah(order.price));
  line(box, t("r-ref", order.refId));
  if (order.status === "success" && order.sn) {
    const token = plnToken(order);
    line(
      box,
      token ? t("r-token", token) : t("r-sn", order.sn),
      "result__line result__serial",
      "result-serial",
    );
    copyButton(box, token ? token.replaceAll(" ", "") : order.sn);
  }
  if (order.status === "failed") {
    const reason = t(`fail-${order.failure?.kind ?? "unknown"}`);
    line(box, reason);
    if (!order.testing) line(box, t("r-refunded", rupiah(order.price)));
  }
  if (!order.final) line(box, t("r-wait"));
  show(box, true);
  if (order.final) {
    main.set(t("btn-again"), async () => closeSheet());
    // the wallet moved (or came back, on a refund)
    refreshBalance();
  } else main.hide();
}

// ---- start ----------------------------------------------------------------------------------

async function refreshBalance() {
  try {
    const me = await api("/me");
    $("balance").textContent = t("balance", rupiah(me.balance));
    return me;
  } catch (err) {
    notice(errorText(err));
    return null;
  }
}

async function start() {
  applyTexts();
  if (!tg?.initData) {
    notice(t("e-no-telegram"));
    $("app").dataset.ready = "true";
    return;
  }
  tg.ready();
  tg.expand();
  tg.BackButton.onClick(closeSheet);
  const me = await refreshBalance();
  if (!me) {
    $("app").dataset.ready = "true";
    return;
  }
  lang = me.language === "en" ? "en" : "id";
  applyTexts();
  $("balance").textContent = t("balance", rupiah(me.balance));
  for (const phone of me.recentPhones) {
    const chip = document.createElement("button");
    chip.type = "button";
    chip.className = "chip";
    chip.dataset.testid = "recent-phone";
    chip.textContent = phone;
    chip.addEventListener("click", () => {
      $("destination").value = phone;
      readPhone();
    });
    $("recent-phones").append(chip);
  }
  if (!me.catalogueReady) notice(t("hint-loading"));
  try {
    state.outline = (await api("/catalogue")).entries;
  } catch (err) {
    notice(errorText(err));
  }
  renderCategories();
  renderList();
  $("destination").addEventListener("input", debounce(readPhone, 250));
  $("search").addEventListener(
    "input",
    debounce(() => search(), 150),
  );
  $("more").addEventListener("click", () => search(true));
  $("app").dataset.ready = "true";
}

start();
