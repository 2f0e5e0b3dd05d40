import { botMethods } from "./bot.ts";
import { callbackMethods } from "./callbacks.ts";
import { commandMethods } from "./commands.ts";
import type { MethodTable } from "./context.ts";
import { inlineMethods } from "./inline.ts";
import { mediaMethods } from "./media.ts";
import { menuButtonMethods } from "./menu-button.ts";
import { messageMethods } from "./messages.ts";
import { pollingMethods } from "./polling.ts";
import { webAppMethods } from "./web-apps.ts";

/** every implemented method, by lowercase name */
export const METHODS: Readonly<MethodTable> = Object.freeze({
  ...botMethods,
  ...pollingMethods,
  ...messageMethods,
  ...mediaMethods,
  ...callbackMethods,
  ...commandMethods,
  ...menuButtonMethods,
  ...webAppMethods,
  ...inlineMethods,
});
