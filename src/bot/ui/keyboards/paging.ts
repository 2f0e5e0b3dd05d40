import type { InlineKeyboard } from "grammy";

export interface PageInfo {
  /** zero-based */
  page: number;
  pageCount: number;
}

export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

export function clampPage(page: number, total: number, pageSize: number): number {
  return Math.min(Math.max(0, Math.trunc(page)), pageCount(total, pageSize) - 1);
}

/**
 * adds a navigation row (◀️ 2/5 ▶️) to a keyboard when there is more than one page.
 * `data(page)` builds each arrow's callback_data; the middle button re-shows the page.
 */
export function addPageNav(kb: InlineKeyboard, info: PageInfo, data: (page: number) => string) {
  if (info.pageCount <= 1) return kb;
  const rows = kb.inline_keyboard;
  if (rows.length > 0 && rows[rows.length - 1]!.length > 0) kb.row();
  if (info.page > 0) kb.text("◀️", data(info.page - 1));
  kb.text(`${info.page + 1}/${info.pageCount}`, data(info.page));
  if (info.page < info.pageCount - 1) kb.text("▶️", data(info.page + 1));
  return kb.row();
}
