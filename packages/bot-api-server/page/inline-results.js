// Inline mode on the chat page: typing "@<bot> words" asks the bot (an inline_query through
// the control API), shows its results above the input, and picking one sends it into the chat
// as the user's message via the bot. More results load when the list is scrolled to its end.
//
// Safety: titles and descriptions are put into the page as text, never as HTML.

const DEBOUNCE_MS = 250;
/** how long the page waits for the bot's answer: Telegram gives a bot 10 seconds */
const ANSWER_WAIT_MS = 10_000;

/**
 * host: { post(path, body), toast(text), userId(), bot() → { username, inline, inline_placeholder },
 *         input (the textarea), clearInput(), sendText(text), openWebApp(from) }
 */
export function createInlineResults(host) {
  const list = document.getElementById("inline-results");
  if (!list) throw new Error("missing #inline-results");

  let timer = 0;
  /** bumps with every new query: answers to older ones are dropped */
  let generation = 0;
  /** the query asked for last (answered or not) */
  let wanted = null;
  /** what the list shows now */
  let shown = null; // { query, queryId, results, nextOffset, loadingMore }

  /** the words after "@bot ", or null when the input is not an inline query to this bot */
  function inlineQueryOf(text) {
    const bot = host.bot();
    if (!bot?.inline) return null;
    const match = /^@([A-Za-z0-9_]+)(?:\s([\s\S]*))?$/.exec(text);
    if (!match || match[1].toLowerCase() !== bot.username.toLowerCase()) return null;
    // "@bot" alone is still a mention; a space starts the query
    return match[2] === undefined ? null : match[2];
  }

  function hide() {
    clearTimeout(timer);
    generation += 1;
    wanted = null;
    shown = null;
    list.hidden = true;
    list.replaceChildren();
    delete list.dataset.state;
  }

  function isOpen() {
    return !list.hidden;
  }

  /** called on every input change */
  function onInput() {
    const query = inlineQueryOf(host.input.value);
    if (query === null) {
      if (isOpen() || shown) hide();
      return;
    }
    if (query === wanted) return;
    wanted = query;
    clearTimeout(timer);
    const mine = ++generation;
    timer = setTimeout(() => void ask(query, "", mine), DEBOUNCE_MS);
    if (!shown) renderLoading(query);
  }

  async function ask(query, offset, mine) {
    let sent;
    try {
      sent = await host.post("/control/inline-query", {
        user_id: host.userId(),
        bot: host.bot().username,
        query,
        ...(offset ? { offset } : {}),
        timeout: ANSWER_WAIT_MS,
      });
    } catch (err) {
      if (mine === generation) {
        hide();
        host.toast(err?.message ?? "The inline query could not be sent");
      }
      return;
    }
    if (mine !== generation) return;
    const answer = sent.answer;
    if (offset && shown) {
      // the next page, appended
      shown.results.push(...(answer?.results ?? []));
      shown.nextOffset = answer?.next_offset ?? "";
      shown.loadingMore = false;
      shown.queryIds.push(...(answer?.results ?? []).map(() => sent.inline_query_id));
    } else {
      shown = {
        query,
        queryId: sent.inline_query_id,
        results: answer?.results ?? [],
        queryIds: (answer?.results ?? []).map(() => sent.inline_query_id),
        nextOffset: answer?.next_offset ?? "",
        button: answer?.button ?? null,
        answered: answer !== null,
        loadingMore: false,
      };
    }
    render();
  }

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function renderLoading(query) {
    list.replaceChildren();
    const hint = el(
      "div",
      "inline-results__hint",
      query === "" ? host.bot().inline_placeholder || "Search..." : "Searching…",
    );
    list.append(hint);
    list.dataset.state = "loading";
    list.hidden = false;
  }

  function render() {
    endSeen.disconnect();
    list.replaceChildren();
    list.dataset.state = "shown";
    if (shown.button) {
      const button = el("button", "inline-results__button", shown.button.text);
      button.type = "button";
      button.dataset.testid = "inline-results-button";
      button.addEventListener("click", () => void pressButton(shown.button, shown.queryId));
      list.append(button);
    }
    if (shown.results.length === 0) {
      const text = shown.answered ? "No results" : "The bot did not answer";
      list.append(el("div", "inline-results__hint", text));
    }
    shown.results.forEach((result, index) => {
      const item = el("button", "inline-result");
      item.type = "button";
      item.dataset.testid = "inline-result";
      item.dataset.resultId = result.id;
      const thumb = el("span", "inline-result__thumb", (result.title || "?").trim().charAt(0));
      thumb.setAttribute("aria-hidden", "true");
      const body = el("span", "inline-result__body");
      body.append(el("span", "inline-result__title", result.title));
      if (result.description)
        body.append(el("span", "inline-result__description", result.description));
      item.append(thumb, body);
      item.addEventListener("click", () => void choose(result.id, shown.queryIds[index]));
      list.append(item);
    });
    if (shown.nextOffset) {
      const end = el("div", "inline-results__end");
      list.append(end);
      endSeen.observe(end);
    }
    list.hidden = false;
  }

  async function choose(resultId, queryId) {
    const userId = host.userId();
    hide();
    host.clearInput();
    try {
      await host.post(`/control/inline-query/${encodeURIComponent(queryId)}/choose`, {
        user_id: userId,
        result_id: resultId,
        bot: host.bot().username,
      });
    } catch (err) {
      host.toast(err?.message ?? "The result could not be sent");
    }
  }

  async function pressButton(button, queryId) {
    hide();
    host.clearInput();
    // start_parameter: the user switches to the bot's chat with /start <param>; here that chat
    // is already open
    if (button.start_parameter) await host.sendText(`/start ${button.start_parameter}`);
    else if (button.web_app) await host.openWebApp({ inline_query_id: queryId });
  }

  // the end of the list coming into view loads the next page (next_offset)
  const endSeen = new IntersectionObserver(
    (entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      if (!shown?.nextOffset || shown.loadingMore) return;
      shown.loadingMore = true;
      void ask(shown.query, shown.nextOffset, generation);
    },
    { root: list },
  );

  return { onInput, hide, isOpen, inlineQueryOf };
}
