import type { BotDeps } from "../../deps.ts";
import type { TranslationSource } from "../i18n.ts";

/** what the conversation builders close over (their ctx has no deps: it is rebuilt on replay) */
export interface FlowEnv {
  deps: BotDeps;
  i18n: TranslationSource;
}
