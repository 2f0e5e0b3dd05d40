// The playground's stand-in for Telegram's telegram-web-app.js: a Mini App that includes it
// finds window.Telegram.WebApp as it would inside Telegram. It reads the launch parameters
// from the URL fragment (tgWebAppData, tgWebAppThemeParams, …) and talks to the chat page
// around it with the same postMessage events Telegram Web uses: a JSON string
// { eventType, eventData } to window.parent, and events back from it.
(() => {
  const STORAGE_KEY = "__telegram__initParams";
  const POPUP_BUTTON_TYPES = ["default", "ok", "close", "cancel", "destructive"];

  /** launch parameters: the fragment, or what an earlier page of the app saved */
  function launchParams() {
    const hash = location.hash.slice(1);
    if (/(^|&)tgWebApp/.test(hash)) {
      const params = Object.fromEntries(new URLSearchParams(hash));
      try {
        sessionStorage.setItem(STORAGE_KEY, JSON.stringify(params));
      } catch {
        // no storage: the parameters live as long as this page
      }
      return params;
    }
    try {
      return JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? "{}") ?? {};
    } catch {
      return {};
    }
  }

  function parseInitData(raw) {
    const out = {};
    if (!raw) return out;
    for (const [key, value] of new URLSearchParams(raw)) {
      if (key === "user" || key === "receiver" || key === "chat") {
        try {
          out[key] = JSON.parse(value);
        } catch {
          out[key] = value;
        }
      } else {
        out[key] = value;
      }
    }
    return out;
  }

  const params = launchParams();
  const initData = params.tgWebAppData ?? "";
  let themeParams = {};
  try {
    themeParams = JSON.parse(params.tgWebAppThemeParams ?? "{}") ?? {};
  } catch {
    themeParams = {};
  }

  // ------------------------------------------------------------------------------------
  // events to and from the chat page

  const handlers = new Map();

  function postEvent(eventType, eventData = {}) {
    if (window.parent === window) {
      console.info("[Telegram.WebApp] not opened inside a chat:", eventType, eventData);
      return;
    }
    window.parent.postMessage(JSON.stringify({ eventType, eventData }), "*");
  }

  function emit(name, ...args) {
    for (const handler of [...(handlers.get(name) ?? [])]) {
      try {
        handler.apply(WebApp, args);
      } catch (err) {
        console.error(`[Telegram.WebApp] ${name} handler failed`, err);
      }
    }
  }

  function onEvent(name, handler) {
    if (typeof handler !== "function") return;
    if (!handlers.has(name)) handlers.set(name, []);
    handlers.get(name).push(handler);
  }

  function offEvent(name, handler) {
    const list = handlers.get(name) ?? [];
    const index = list.indexOf(handler);
    if (index >= 0) list.splice(index, 1);
  }

  window.addEventListener("message", (event) => {
    if (event.source !== window.parent) return;
    let message;
    try {
      message = typeof event.data === "string" ? JSON.parse(event.data) : event.data;
    } catch {
      return;
    }
    if (!message || typeof message.eventType !== "string") return;
    const data = message.eventData ?? {};
    switch (message.eventType) {
      case "main_button_pressed":
        emit("mainButtonClicked");
        break;
      case "back_button_pressed":
        emit("backButtonClicked");
        break;
      case "theme_changed":
        if (data.theme_params) {
          themeParams = data.theme_params;
          applyTheme();
          emit("themeChanged");
        }
        break;
      case "viewport_changed":
        setViewport(data);
        break;
      case "popup_closed":
        closePopup(data.button_id ?? null);
        break;
      default:
        break;
    }
  });

  // ------------------------------------------------------------------------------------
  // theme and viewport: Telegram's CSS variables on <html>

  function setCss(name, value) {
    document.documentElement.style.setProperty(name, value);
  }

  function isDark(color) {
    const match = /^#([0-9a-f]{6})$/i.exec(color ?? "");
    if (!match) return false;
    const n = Number.parseInt(match[1], 16);
    const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
    return Math.sqrt(0.299 * r * r + 0.587 * g * g + 0.114 * b * b) < 120;
  }

  function applyTheme() {
    for (const [key, value] of Object.entries(themeParams)) {
      if (typeof value === "string") setCss(`--tg-theme-${key.replaceAll("_", "-")}`, value);
    }
    WebApp.colorScheme = isDark(themeParams.bg_color) ? "dark" : "light";
    WebApp.themeParams = { ...themeParams };
    setCss("--tg-color-scheme", WebApp.colorScheme);
  }

  function setViewport(data) {
    const height = Number(data.height) || window.innerHeight;
    WebApp.viewportHeight = height;
    if (data.is_state_stable !== false) WebApp.viewportStableHeight = height;
    WebApp.isExpanded = data.is_expanded !== false;
    setCss("--tg-viewport-height", `${height}px`);
    setCss("--tg-viewport-stable-height", `${WebApp.viewportStableHeight}px`);
    emit("viewportChanged", { isStateStable: data.is_state_stable !== false });
  }

  // ------------------------------------------------------------------------------------
  // the bottom button and the back button

  function bottomButton() {
    const button = {
      text: "",
      color: themeParams.button_color ?? "#3390ec",
      textColor: themeParams.button_text_color ?? "#ffffff",
      isVisible: false,
      isActive: true,
      isProgressVisible: false,
    };
    const update = () =>
      postEvent("web_app_setup_main_button", {
        is_visible: button.isVisible && button.text !== "",
        is_active: button.isActive,
        is_progress_visible: button.isProgressVisible,
        text: button.text,
        color: button.color,
        text_color: button.textColor,
      });
    const api = {
      setText(text) {
        return api.setParams({ text });
      },
      onClick(callback) {
        onEvent("mainButtonClicked", callback);
        return api;
      },
      offClick(callback) {
        offEvent("mainButtonClicked", callback);
        return api;
      },
      show() {
        return api.setParams({ is_visible: true });
      },
      hide() {
        return api.setParams({ is_visible: false });
      },
      enable() {
        return api.setParams({ is_active: true });
      },
      disable() {
        return api.setParams({ is_active: false });
      },
      showProgress(leaveActive) {
        button.isProgressVisible = true;
        if (!leaveActive) button.isActive = false;
        update();
        return api;
      },
      hideProgress() {
        button.isProgressVisible = false;
        button.isActive = true;
        update();
        return api;
      },
      setParams(p = {}) {
        if (p.text !== undefined) {
          const text = String(p.text).trim();
          if (text.length > 64) throw new Error("WebAppMainButtonParamInvalid");
          button.text = text;
        }
        if (p.color !== undefined) button.color = String(p.color);
        if (p.text_color !== undefined) button.textColor = String(p.text_color);
        if (p.is_visible !== undefined) {
          if (p.is_visible && button.text === "") throw new Error("WebAppMainButtonParamInvalid");
          button.isVisible = Boolean(p.is_visible);
        }
        if (p.is_active !== undefined) button.isActive = Boolean(p.is_active);
        update();
        return api;
      },
    };
    for (const [name, key] of [
      ["text", "text"],
      ["color", "color"],
      ["textColor", "textColor"],
      ["isVisible", "isVisible"],
      ["isActive", "isActive"],
      ["isProgressVisible", "isProgressVisible"],
    ]) {
      Object.defineProperty(api, name, {
        get: () => button[key],
        set: (value) => {
          if (name === "text") api.setText(value);
          else if (name === "color") api.setParams({ color: value });
          else if (name === "textColor") api.setParams({ text_color: value });
          else if (name === "isVisible") api.setParams({ is_visible: value });
          else if (name === "isActive") api.setParams({ is_active: value });
        },
        enumerable: true,
      });
    }
    return api;
  }

  function backButton() {
    let visible = false;
    const update = () => postEvent("web_app_setup_back_button", { is_visible: visible });
    const api = {
      onClick(callback) {
        onEvent("backButtonClicked", callback);
        return api;
      },
      offClick(callback) {
        offEvent("backButtonClicked", callback);
        return api;
      },
      show() {
        visible = true;
        update();
        return api;
      },
      hide() {
        visible = false;
        update();
        return api;
      },
    };
    Object.defineProperty(api, "isVisible", {
      get: () => visible,
      set: (value) => (value ? api.show() : api.hide()),
      enumerable: true,
    });
    return api;
  }

  // ------------------------------------------------------------------------------------
  // popups

  let popupCallback = null;
  let popupOpen = false;

  function closePopup(buttonId) {
    if (!popupOpen) return;
    popupOpen = false;
    const callback = popupCallback;
    popupCallback = null;
    emit("popupClosed", { button_id: buttonId });
    if (callback) callback(buttonId);
  }

  function showPopup(p, callback) {
    if (popupOpen) throw new Error("WebAppPopupOpened");
    const title = String(p?.title ?? "").trim();
    const message = String(p?.message ?? "").trim();
    if (title.length > 64) throw new Error("WebAppPopupParamInvalid");
    if (message.length < 1 || message.length > 256) throw new Error("WebAppPopupParamInvalid");
    const buttons = (p?.buttons ?? [{ type: "close" }]).map((b) => {
      const type = b.type ?? "default";
      if (!POPUP_BUTTON_TYPES.includes(type)) throw new Error("WebAppPopupParamInvalid");
      const text = String(b.text ?? "").trim();
      if ((type === "default" || type === "destructive") && text === "")
        throw new Error("WebAppPopupParamInvalid");
      return { id: String(b.id ?? ""), type, ...(text ? { text } : {}) };
    });
    if (buttons.length < 1 || buttons.length > 3) throw new Error("WebAppPopupParamInvalid");
    popupOpen = true;
    popupCallback = typeof callback === "function" ? callback : null;
    postEvent("web_app_open_popup", { title, message, buttons });
  }

  // ------------------------------------------------------------------------------------
  // links

  function openTelegramLink(url) {
    const parsed = new URL(url, "https://t.me");
    if (parsed.hostname !== "t.me") throw new Error("WebAppTgUrlInvalid");
    postEvent("web_app_open_tg_link", { path_full: parsed.pathname + parsed.search });
  }

  function openLink(url) {
    const parsed = new URL(url);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
      throw new Error("WebAppTgUrlInvalid");
    postEvent("web_app_open_link", { url: parsed.href });
  }

  // ------------------------------------------------------------------------------------

  const haptic = {
    impactOccurred(style) {
      postEvent("web_app_trigger_haptic_feedback", { type: "impact", impact_style: style });
      return haptic;
    },
    notificationOccurred(type) {
      postEvent("web_app_trigger_haptic_feedback", {
        type: "notification",
        notification_type: type,
      });
      return haptic;
    },
    selectionChanged() {
      postEvent("web_app_trigger_haptic_feedback", { type: "selection_change" });
      return haptic;
    },
  };

  const WebApp = {
    initData,
    initDataUnsafe: parseInitData(initData),
    version: params.tgWebAppVersion ?? "6.0",
    platform: params.tgWebAppPlatform ?? "unknown",
    colorScheme: "light",
    themeParams: {},
    isExpanded: true,
    viewportHeight: window.innerHeight,
    viewportStableHeight: window.innerHeight,
    headerColor: themeParams.header_bg_color ?? "#ffffff",
    backgroundColor: themeParams.bg_color ?? "#ffffff",
    isClosingConfirmationEnabled: false,
    MainButton: bottomButton(),
    BackButton: backButton(),
    HapticFeedback: haptic,
    isVersionAtLeast(version) {
      const a = String(WebApp.version).split(".").map(Number);
      const b = String(version).split(".").map(Number);
      for (let i = 0; i < Math.max(a.length, b.length); i++) {
        const d = (a[i] ?? 0) - (b[i] ?? 0);
        if (d !== 0) return d > 0;
      }
      return true;
    },
    onEvent,
    offEvent,
    ready() {
      postEvent("web_app_ready");
    },
    expand() {
      postEvent("web_app_expand");
    },
    close() {
      postEvent("web_app_close");
    },
    sendData(data) {
      const text = String(data ?? "");
      if (text === "" || new TextEncoder().encode(text).length > 4096)
        throw new Error("WebAppDataInvalid");
      postEvent("web_app_data_send", { data: text });
    },
    switchInlineQuery(query, chatTypes) {
      postEvent("web_app_switch_inline_query", {
        query: String(query ?? ""),
        chat_types: chatTypes ?? [],
      });
    },
    openLink,
    openTelegramLink,
    showPopup,
    showAlert(message, callback) {
      showPopup({ message, buttons: [{ type: "close" }] }, () => callback?.());
    },
    showConfirm(message, callback) {
      showPopup({ message, buttons: [{ id: "ok", type: "ok" }, { type: "cancel" }] }, (id) =>
        callback?.(id === "ok"),
      );
    },
    setHeaderColor(color) {
      WebApp.headerColor = color;
      postEvent("web_app_set_header_color", { color });
    },
    setBackgroundColor(color) {
      WebApp.backgroundColor = color;
      postEvent("web_app_set_background_color", { color });
    },
    enableClosingConfirmation() {
      WebApp.isClosingConfirmationEnabled = true;
      postEvent("web_app_setup_closing_behavior", { need_confirmation: true });
    },
    disableClosingConfirmation() {
      WebApp.isClosingConfirmationEnabled = false;
      postEvent("web_app_setup_closing_behavior", { need_confirmation: false });
    },
  };

  window.Telegram = { ...(window.Telegram ?? {}), WebApp };
  applyTheme();
  setViewport({ height: window.innerHeight, is_expanded: true, is_state_stable: true });
  // the chat page answers with theme_changed and viewport_changed
  postEvent("web_app_request_theme");
  postEvent("web_app_request_viewport");
})();
