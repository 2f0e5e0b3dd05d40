// the quick-order text resellers type in chat, as reseller servers in this trade read it:
// "CODE.DESTINATION" or "CODE DESTINATION"
export const QUICK_ORDER = /^\s*([A-Za-z0-9_-]{2,32})(?:\.|\s+)(\S{4,64})\s*$/;

export interface QuickOrder {
  /** the product's code as typed (codes are matched upper case) */
  code: string;
  destination: string;
}

/** the quick order a text holds, or undefined when it is not one */
export function parseQuickOrder(text: string): QuickOrder | undefined {
  const m = QUICK_ORDER.exec(text);
  return m ? { code: m[1]!, destination: m[2]! } : undefined;
}
