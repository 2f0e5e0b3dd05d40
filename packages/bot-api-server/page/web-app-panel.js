// The Mini App panel of the chat page: the app in an iframe beside the chat (over it on a
// phone), as Telegram Web shows it. The app's Telegram.WebApp (telegram-web-app.js) and this
// panel talk with Telegram Web's postMessage events, { eventType, eventData } as JSON strings.
//
// Safety: messages are taken only from the panel's own iframe, and sent only to the origin of
// the app that was opened. Texts from the app are put into the page as text, never as HTML.

const $ = (id) => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`missing #${id}`);
  return el;
};

/**
 * host: { api(path, init), post(path, body), toast(text), botName(), userId(), botUsername(),
 *         openBotLink(url) → handled?, startInlineQuery(query) }
 */
export function createWebAppPanel(host) {
  const ui = {
    panel: $("webapp"),
    title: $("webapp-title"),
    back: $("webapp-back"),
    close: $("webapp-close"),
    frame: $("webapp-frame"),
    loading: $("webapp-loading"),
    mainButton: $("webapp-main-button"),
    popup: $("webapp-popup"),
    popupTitle: $("webapp-popup-title"),
    popupText: $("webapp-popup-text"),
    popupButtons: $("webapp-popup-buttons"),
  };

  /** the app open now: its launch (from the control API) and the origin it runs on */
  let current = null;
  let popupAnswered = false;

  function send(eventType, eventData = {}) {
    if (!current || !ui.frame.contentWindow) return;
    ui.frame.contentWindow.postMessage(JSON.stringify({ eventType, eventData }), current.origin);
  }

  function sendViewport() {
    send("viewport_changed", {
      height: ui.frame.clientHeight,
      is_expanded: true,
      is_state_stable: true,
    });
  }

  /** opens an app: `from` is what POST /control/web-app takes besides user and bot */
  async function open(from) {
    let launch;
    try {
      launch = await host.post("/control/web-app", {
        user_id: host.userId(),
        bot: host.botUsername(),
        ...from,
      });
    } catch (err) {
      host.toast(err?.message ?? "The Mini App could not be opened");
      return null;
    }
    closeNow();
    current = { launch, origin: new URL(launch.url).origin, userId: host.userId() };
    ui.title.textContent = host.botName();
    ui.panel.dataset.source = launch.source;
    ui.panel.dataset.launchId = launch.id;
    ui.loading.hidden = false;
    ui.back.hidden = true;
    ui.mainButton.hidden = true;
    ui.panel.hidden = false;
    document.body.classList.add("with-webapp");
    ui.frame.src = launch.launch_url;
    return launch;
  }

  function closeNow() {
    if (ui.popup.open) ui.popup.close();
    current = null;
    ui.panel.hidden = true;
    document.body.classList.remove("with-webapp");
    delete ui.panel.dataset.launchId;
    // the app stops at once, as when Telegram closes it
    ui.frame.src = "about:blank";
  }

  function renderMainButton(data) {
    const visible = Boolean(data.is_visible) && String(data.text ?? "") !== "";
    ui.mainButton.hidden = !visible;
    if (!visible) return;
    ui.mainButton.textContent = String(data.text);
    ui.mainButton.disabled = data.is_active === false;
    ui.mainButton.classList.toggle(
      "webapp__main-button--progress",
      Boolean(data.is_progress_visible),
    );
    ui.mainButton.style.background = /^#[0-9a-f]{3,8}$/i.test(data.color ?? "") ? data.color : "";
    ui.mainButton.style.color = /^#[0-9a-f]{3,8}$/i.test(data.text_color ?? "")
      ? data.text_color
      : "";
  }

  function openPopup(data) {
    const buttons = Array.isArray(data.buttons) ? data.buttons : [{ type: "close" }];
    ui.popupTitle.textContent = String(data.title || host.botName());
    ui.popupText.textContent = String(data.message ?? "");
    ui.popupButtons.replaceChildren();
    popupAnswered = false;
    for (const button of buttons) {
      const node = document.createElement("button");
      node.type = "button";
      node.className = `alert__ok${button.type === "destructive" ? " alert__ok--destructive" : ""}`;
      node.dataset.testid = "web-app-popup-button";
      node.dataset.buttonId = String(button.id ?? "");
      node.textContent =
        button.text ||
        { ok: "OK", close: "Close", cancel: "Cancel" }[button.type] ||
        String(button.type ?? "");
      node.addEventListener("click", () => {
        popupAnswered = true;
        ui.popup.close();
        send("popup_closed", { button_id: String(button.id ?? "") });
      });
      ui.popupButtons.append(node);
    }
    if (!ui.popup.open) ui.popup.showModal();
  }

  async function sendData(data) {
    if (current?.launch.source !== "keyboard_button") {
      // Telegram ignores sendData outside a keyboard button's app
      console.warn("playground: sendData works only in a Mini App opened from a keyboard button");
      return;
    }
    const { launch, userId } = current;
    closeNow();
    try {
      await host.post("/control/web-app/data", {
        user_id: userId,
        launch_id: launch.id,
        data,
        bot: host.botUsername(),
      });
    } catch (err) {
      host.toast(err?.message ?? "The data could not be sent");
    }
  }

  function openTelegramLink(pathFull) {
    const url = `https://t.me${String(pathFull ?? "").startsWith("/") ? "" : "/"}${pathFull}`;
    // a link to this bot closes the app and acts as the deep link, as in Telegram
    if (host.isBotLink(url)) {
      closeNow();
      void host.openBotLink(url);
      return;
    }
    window.open(url, "_blank", "noopener,noreferrer");
  }

  const handlers = {
    web_app_ready() {
      ui.loading.hidden = true;
    },
    web_app_expand: sendViewport,
    web_app_request_viewport: sendViewport,
    web_app_request_theme() {
      send("theme_changed", { theme_params: current?.launch.theme_params ?? {} });
    },
    web_app_close: closeNow,
    web_app_setup_main_button: renderMainButton,
    web_app_setup_back_button(data) {
      ui.back.hidden = !data.is_visible;
    },
    web_app_open_popup: openPopup,
    web_app_open_tg_link(data) {
      openTelegramLink(data.path_full);
    },
    web_app_open_link(data) {
      try {
        const url = new URL(String(data.url));
        if (url.protocol === "http:" || url.protocol === "https:")
          window.open(url.href, "_blank", "noopener,noreferrer");
      } catch {
        // not a URL: nothing to open
      }
    },
    web_app_data_send(data) {
      void sendData(String(data.data ?? ""));
    },
    web_app_switch_inline_query(data) {
      closeNow();
      host.startInlineQuery(String(data.query ?? ""));
    },
  };

  window.addEventListener("message", (event) => {
    if (!current || event.source !== ui.frame.contentWindow) return;
    let message;
    try {
      message = typeof event.data === "string" ? JSON.parse(event.data) : event.data;
    } catch {
      return;
    }
    const handler = handlers[message?.eventType];
    // the rest (haptics, colours, closing confirmation) has nothing to show here
    if (handler) handler(message.eventData ?? {});
  });

  ui.close.addEventListener("click", closeNow);
  ui.back.addEventListener("click", () => send("back_button_pressed"));
  ui.mainButton.addEventListener("click", () => {
    if (!ui.mainButton.disabled) send("main_button_pressed");
  });
  ui.popup.addEventListener("close", () => {
    // Escape closes the popup without a button
    if (!popupAnswered) send("popup_closed", {});
    popupAnswered = true;
  });
  new ResizeObserver(() => {
    if (current) sendViewport();
  }).observe(ui.frame);

  return {
    open,
    close: closeNow,
    isOpen: () => current !== null,
  };
}
