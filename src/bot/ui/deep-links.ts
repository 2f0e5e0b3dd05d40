// links that open the bot where something starts: https://t.me/<bot>?start=<parameter>.
// Telegram allows 1–64 of A–Z, a–z, 0–9, _ and - in the parameter; each kind of link has
// its prefix (p_ a purchase here; the reseller tree's r_ beside it), read by home/start.ts.

const PARAMETER = /^[A-Za-z0-9_-]{1,64}$/;

/** the parameter a link carries, when Telegram would take it */
function isStartParameter(value: string): boolean {
  return PARAMETER.test(value);
}

/** https://t.me/<bot>?start=<parameter> */
export function botLink(username: string, parameter: string): string {
  return `https://t.me/${username}?start=${parameter}`;
}

/**
 * a purchase's parameter: p_<code> or p_<code>_<destination>; a game's zone is written
 * <id>-<zone> (parentheses are not allowed). undefined when the link can't carry it
 */
export function purchaseParameter(code: string, destination?: string): string | undefined {
  const dest = destination?.replace(/^(\w+)\((\d+)\)$/, "$1-$2");
  const parameter = dest ? `p_${code}_${dest}` : `p_${code}`;
  return isStartParameter(parameter) ? parameter : undefined;
}

/** a purchase link's readings, most likely first: (code, destination) then (code) alone */
export function purchaseReadings(rest: string): Array<{ code: string; destination?: string }> {
  const readings: Array<{ code: string; destination?: string }> = [];
  const cut = rest.lastIndexOf("_");
  if (cut > 0 && cut < rest.length - 1) {
    const destination = rest.slice(cut + 1).replace(/^(\d+)-(\d+)$/, "$1($2)");
    readings.push({ code: rest.slice(0, cut), destination });
  }
  // a code may hold "_" itself
  if (rest.length > 0) readings.push({ code: rest });
  return readings;
}
