import { eq, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { supplierReservations } from "../../db/schema.ts";
import { rowsOf, toNumber } from "../../db/sql-rows.ts";

// the supplier balance guard's estimate, for each supplier on its own: its last reading,
// less what kios has stored or sent to it since (the supplier takes an order's price on
// arrival) unless it failed there or was rejected (nothing formed), plus the top-ups
// recorded into it since. Without a reading there is no estimate, and no guard for that
// supplier. What was sent to a supplier is read from the attempts, so an order re-routed
// from one supplier to another counts only where it went.

export interface KnownSupplierBalance {
  /** whose balance */
  supplier: string;
  /** the reading it starts from */
  checkId: number;
  known: number;
}

/** the first supplier's name when nothing says otherwise (SUPPLIER_NAME's default) */
const DEFAULT_FIRST = "main";

/** how long a reservation counts for other Pays when its Pay never consumes it (a crash) */
export const RESERVATION_TTL_MS = 60_000;
/**
 * a Pay consumes its reservation only while this much of it is left: its order's commit
 * then comes long before others stop counting the reservation, so the cost is never counted
 * neither as the reservation nor as the order
 */
const RESERVATION_CONSUME_MARGIN_MS = 30_000;
/** expired reservations are swept this long after their expiry (clocks of processes differ) */
const RESERVATION_SWEEP_AFTER_MS = 60_000;

const iso = (ms: number) => new Date(ms).toISOString();

/** the supplier's latest balance reading (the first supplier's carry a null supplier) */
function latestCheck(name: SQL, first: string | SQL) {
  return sql`(select id, balance, read_at, supplier from supplier_balance_checks
      where case when ${name} = ${first}::text then supplier is null else supplier = ${name} end
      order by id desc limit 1)`;
}

/**
 * the estimate of the supplier `name` from its reading `c`: the reading, less what kios
 * stored or sent to it since, plus its top-ups since (reservations apart)
 */
function knownFrom(name: SQL, first: string | SQL, except: number | null) {
  return sql`c.balance
      -- stored and about to be sent counts too: it will be (its current supplier's)
      - coalesce((select sum(coalesce(o.supplier_price, o.cost)) from orders o
          where o.status = 'created' and not o.testing
            and coalesce(o.supplier, ${first}::text) = ${name}
            and (${except}::bigint is null or o.id <> ${except}::bigint)), 0)
      -- sent to this supplier since the reading, and not failed or rejected there
      - coalesce((select sum(case when a.status = 'success'
              then coalesce(o.supplier_price, a.cost) else a.cost end)
          from order_attempts a join orders o on o.id = a.order_id
          where a.supplier = ${name} and a.status in ('open', 'success')
            and (a.status = 'open' or a.final_at > c.read_at)
            and o.status <> 'created' and not o.testing
            and greatest(a.created_at, o.submitted_at) > c.read_at
            and (${except}::bigint is null or o.id <> ${except}::bigint)), 0)
      + coalesce((select sum(t.amount) from supplier_topups t
          where t.supplier is not distinct from c.supplier
            and t.effective_at > c.read_at and t.reversed_at is null), 0)`;
}

/** the live reservations at the supplier `name` (those of id `except` apart), as a sum */
function reservedAt(name: SQL, now: number | SQL, where: SQL = sql`true`) {
  const at = typeof now === "number" ? iso(now) : now;
  return sql`coalesce((select sum(r.cost) from ${supplierReservations} r
      where r.supplier = ${name} and r.expires_at > ${at}::timestamptz and ${where}), 0)`;
}

/**
 * the estimates of these suppliers (by name), in one statement; a supplier with no reading
 * has none. The first supplier's readings and top-ups are stored with a null supplier.
 */
async function knownSupplierBalances(
  exec: Executor,
  o: {
    suppliers: readonly string[];
    /** the first supplier's name (default "main") */
    firstSupplier?: string | undefined;
    /** an order left out (stored already, or checked apart) */
    exceptOrderId?: number | undefined;
  },
): Promise<Map<string, KnownSupplierBalance>> {
  const names = [...new Set(o.suppliers)];
  const estimates = new Map<string, KnownSupplierBalance>();
  if (names.length === 0) return estimates;
  const first = o.firstSupplier ?? DEFAULT_FIRST;
  const result = await exec.execute(sql`
    select n.name, c.id, ${knownFrom(sql`n.name`, first, o.exceptOrderId ?? null)} as known
    from unnest(${namesArray(names)}) as n(name)
    join lateral ${latestCheck(sql`n.name`, first)} c on true`);
  for (const row of rowsOf(result)) {
    const supplier = String(row.name);
    estimates.set(supplier, { supplier, checkId: toNumber(row.id), known: toNumber(row.known) });
  }
  return estimates;
}

const namesArray = (names: readonly string[]) =>
  sql`array[${sql.join(
    names.map((n) => sql`${n}`),
    sql`, `,
  )}]::text[]`;

/** one supplier's estimate (default: the first's) */
export async function knownSupplierBalance(
  exec: Executor,
  options: {
    exceptOrderId?: number;
    /** the first supplier's name (default "main") */
    firstSupplier?: string;
    /** whose estimate (default: the first's) */
    supplier?: string;
  } = {},
): Promise<KnownSupplierBalance | undefined> {
  const supplier = options.supplier ?? options.firstSupplier ?? DEFAULT_FIRST;
  const estimates = await knownSupplierBalances(exec, {
    suppliers: [supplier],
    firstSupplier: options.firstSupplier,
    exceptOrderId: options.exceptOrderId,
  });
  return estimates.get(supplier);
}

/** a place an order may go: its supplier and what that supplier would charge for it */
export interface GuardedRoute {
  supplier: string;
  cost: number;
}

/**
 * a reservation a Pay (or a re-route) made, committed: `cost` of `supplier`'s balance,
 * counted by every Pay that checks after it until the statement that stores its attempt
 * consumes it (reservationStatement) or it is released
 */
export interface Reservation {
  id: number;
  supplier: string;
  cost: number;
}

/**
 * the guard's reservation, made before the Pay's transaction in one statement that commits
 * on its own: the first of the routes (in the order kios tries them) whose supplier's
 * estimate, less what other Pays hold reserved there, covers its cost (no reading: no
 * guard, nothing reserved), and a reservation of that cost at that supplier. Expired
 * reservations of these suppliers are swept in the same statement. No row is shared with
 * another Pay: it inserts its own. Returns the route it may take (undefined: none can), its
 * reservation (none for an unguarded route) and the suppliers found short before it.
 *
 * Two Pays that reserve at once are told apart by the check in the statement that stores
 * each order (reservationStatement): each reservation is committed before its Pay checks,
 * so of two Pays the one that checks later sees the other's
 */
export async function reserveSupplierBalance(
  db: Executor,
  routes: readonly GuardedRoute[],
  o: { firstSupplier?: string | undefined; now: number },
): Promise<{
  route: GuardedRoute | undefined;
  reservation: Reservation | undefined;
  short: KnownSupplierBalance[];
}> {
  if (routes.length === 0) return { route: undefined, reservation: undefined, short: [] };
  const first = o.firstSupplier ?? DEFAULT_FIRST;
  const names = [...new Set(routes.map((r) => r.supplier))];
  const result = await db.execute(sql`
    with est as (
      select n.name, c.id, ${knownFrom(sql`n.name`, first, null)} as known,
        ${reservedAt(sql`n.name`, o.now)} as reserved
      from unnest(${namesArray(names)}) as n(name)
      join lateral ${latestCheck(sql`n.name`, first)} c on true
    ),
    route as (
      select r.ord, r.supplier, r.cost, e.name is not null as guarded
      from unnest(${namesArray(routes.map((r) => r.supplier))},
        array[${sql.join(
          routes.map((r) => sql`${r.cost}`),
          sql`, `,
        )}]::bigint[]) with ordinality as r(supplier, cost, ord)
      left join est e on e.name = r.supplier
      where e.name is null or e.known - e.reserved >= r.cost
      order by r.ord limit 1
    ),
    reserved as (
      insert into ${supplierReservations} (supplier, cost, expires_at)
      select supplier, cost, ${iso(o.now + RESERVATION_TTL_MS)}::timestamptz from route
      where guarded
      returning id
    ),
    swept as (
      delete from ${supplierReservations}
      where supplier = any(${namesArray(names)})
        and expires_at < ${iso(o.now - RESERVATION_SWEEP_AFTER_MS)}::timestamptz
    )
    select (select ord from route) as ord, (select id from reserved) as reservation,
      coalesce((select json_agg(json_build_object('supplier', name, 'checkId', id,
        'known', known - reserved)) from est), '[]'::json) as estimates`);
  const [row] = rowsOf(result);
  const ord = row?.ord == null ? undefined : toNumber(row.ord);
  const route = ord === undefined ? undefined : routes[ord - 1];
  const estimates = jsonOf(row?.estimates) as KnownSupplierBalance[];
  const before = route ? routes.slice(0, (ord ?? 1) - 1) : routes;
  const short = before.flatMap((r) =>
    estimates
      .filter((e) => e.supplier === r.supplier)
      .map((e) => ({
        supplier: e.supplier,
        checkId: toNumber(e.checkId),
        known: toNumber(e.known),
      })),
  );
  const reservation =
    route && row?.reservation != null
      ? { id: toNumber(row.reservation), supplier: route.supplier, cost: route.cost }
      : undefined;
  return { route, reservation, short: dedupe(short) };
}

const jsonOf = (v: unknown): unknown => (typeof v === "string" ? JSON.parse(v) : (v ?? []));

const dedupe = (short: KnownSupplierBalance[]) =>
  short.filter((e, i) => short.findIndex((x) => x.supplier === e.supplier) === i);

/**
 * the reservation consumed, as a data-modifying statement for the CTE that stores the
 * order: deletes it when it is still live (well before its expiry) and the supplier's
 * estimate, less every other live reservation there, still covers its cost, returning one
 * row `ok`; no row otherwise (Pays that reserved meanwhile took what it needed, or its time
 * ran out). It reads other Pays' rows and locks only its own, so no Pay waits on another's
 * lock. The order's attempt is inserted in the same statement, so at any commit the cost
 * counts once: as this reservation before, as the attempt after
 */
export function reservationStatement(p: {
  id: SQL;
  supplier: SQL;
  cost: SQL;
  /** the first supplier's name */
  first: SQL;
  /** the Pay's time (an ISO string), and that time plus RESERVATION_CONSUME_MARGIN_MS */
  now: SQL;
  consumeBy: SQL;
}) {
  const name = sql`${p.supplier}::text`;
  const id = sql`${p.id}::bigint`;
  const cost = sql`${p.cost}::bigint`;
  const others = reservedAt(name, p.now, sql`r.id <> ${id}`);
  return sql`delete from ${supplierReservations}
    where id = ${id}
      and expires_at > ${p.consumeBy}::timestamptz
      and coalesce((select ${knownFrom(name, p.first, null)} from ${latestCheck(name, p.first)} c),
          ${cost} + ${others})
        - ${others} >= ${cost}
    returning 1 as ok`;
}

/** the values of reservationStatement's placeholders for reservation `r` at `now` */
export function reservationValues(
  r: Reservation,
  o: { firstSupplier?: string | undefined; now: number },
) {
  return {
    id: r.id,
    supplier: r.supplier,
    cost: r.cost,
    first: o.firstSupplier ?? DEFAULT_FIRST,
    now: iso(o.now),
    consumeBy: iso(o.now + RESERVATION_CONSUME_MARGIN_MS),
  };
}

/**
 * where a reservation that failed its check stands, for the Pay to choose what to do: its
 * own row still live, the supplier's estimate, and the live reservations older (smaller
 * id) and newer than it. Blocked by older ones, a Pay withdraws and reserves again; blocked
 * only by newer ones it keeps its place (they withdraw for it), so the oldest always goes
 */
export async function reservationStanding(
  db: Executor,
  r: Reservation,
  o: { firstSupplier?: string | undefined; now: number },
): Promise<{ live: boolean; known: number | undefined; older: number; newer: number }> {
  const first = o.firstSupplier ?? DEFAULT_FIRST;
  const name = sql`${r.supplier}::text`;
  const result = await db.execute(sql`select
      exists (select 1 from ${supplierReservations} where id = ${r.id}::bigint
        and expires_at > ${iso(o.now + RESERVATION_CONSUME_MARGIN_MS)}::timestamptz) as live,
      (select ${knownFrom(name, first, null)} from ${latestCheck(name, first)} c) as known,
      ${reservedAt(name, o.now, sql`r.id < ${r.id}::bigint`)} as older,
      ${reservedAt(name, o.now, sql`r.id > ${r.id}::bigint`)} as newer`);
  const [row] = rowsOf(result);
  return {
    live: row?.live === true || row?.live === "t",
    known: row?.known == null ? undefined : toNumber(row.known),
    older: toNumber(row?.older),
    newer: toNumber(row?.newer),
  };
}

/** a reservation its Pay did not consume (refused, overtaken, a repeated tap), released */
export async function releaseReservation(db: Executor, r: Reservation): Promise<void> {
  await db.delete(supplierReservations).where(eq(supplierReservations.id, r.id));
}
