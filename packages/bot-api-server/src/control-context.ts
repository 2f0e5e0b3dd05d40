import type { Message, User } from "@grammyjs/types";
import { commitUserMessage } from "./chat-ops.ts";
import type { BotState } from "./state.ts";
import type { World } from "./world.ts";

// what the parts of the control API share: its error, its options, and acting as a user

/** a control-API failure: `{ ok: false, description }` with this HTTP status */
export class ControlError extends Error {
  override name = "ControlError";
  constructor(
    readonly status: 400 | 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

/** which bot a control call talks to: its username or id; the first bot when omitted */
export interface BotOption {
  bot?: string | number;
}

export interface SendOptions extends BotOption {
  /** the message the user replies to */
  replyTo?: number;
}

export interface Sent {
  /** undefined when allowed_updates filtered the update out */
  update_id: number | undefined;
  message: Message;
}

export interface ControlContext {
  world: World;
  botOf(options?: BotOption): BotState;
  requireUser(userId: number): User;
  /** the user sends something: a stored message and a message update for the bot */
  userSends(userId: number, content: Partial<Message>, options?: SendOptions): Sent;
}

export function createControlContext(world: World): ControlContext {
  const botOf = (options?: BotOption): BotState => {
    try {
      return world.bot(options?.bot);
    } catch {
      throw new ControlError(404, `unknown bot ${options?.bot}`);
    }
  };

  const requireUser = (userId: number): User => {
    const user = world.users.get(userId);
    if (!user)
      throw new ControlError(404, `unknown user ${userId}: create it with POST /control/users`);
    return user;
  };

  function userSends(userId: number, content: Partial<Message>, options?: SendOptions): Sent {
    const bot = botOf(options);
    const user = requireUser(userId);
    const chat = world.openChat(bot, userId);
    if (chat.blocked) throw new ControlError(409, "the user blocked the bot; unblock it first");
    let replyTo: Message | undefined;
    if (options?.replyTo !== undefined) {
      const target = chat.messages.get(options.replyTo);
      if (!target || target.deleted) throw new ControlError(400, "message to be replied not found");
      const { reply_to_message: _nested, ...rest } = target.message;
      replyTo = rest as Message;
    }
    const { message, update_id } = commitUserMessage(world, bot, chat, user, content, replyTo);
    // copies: the caller may keep or change them without touching the server's state
    return { update_id, message: structuredClone(message) };
  }

  return { world, botOf, requireUser, userSends };
}
