// the quick-order text resellers type in chat, as reseller servers in this trade read it:
// "CODE.DESTINATION" or "CODE DESTINATION"; "CODE.2.DESTINATION" is a deliberate second
// purchase of the same product for the same destination on the same day (repeat.ts)
export const QUICK_ORDER = /^\s*([A-Za-z0-9_-]{2,32})(?:\.(\d{1,2})\.|\.|\s+)(\S{4,64})\s*$/;

export interface QuickOrder {
  /** the product's code as typed (codes are matched upper case) */
  code: string;
  destination: string;
  /** the count typed in CODE.<n>.DESTINATION (2 for a second one today), else undefined */
  count?: number;
}

/** the quick order a text holds, or undefined when it is not one */
export function parseQuickOrder(text: string): QuickOrder | undefined {
  const m = QUICK_ORDER.exec(text);
  if (!m) return undefined;
  return m[2] === undefined
    ? { code: m[1]!, destination: m[3]! }
    : { code: m[1]!, destination: m[3]!, count: Number(m[2]) };
}
