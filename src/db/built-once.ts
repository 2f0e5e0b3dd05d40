import * as drizzle from "drizzle-orm";
import { is, Param, Placeholder, type Query, type SQL } from "drizzle-orm";
import { PgDialect, type PgSession } from "drizzle-orm/pg-core";
import type { Executor } from "./client.ts";

// A hot statement's SQL built once and run on whichever database or transaction it is handed.
//
// drizzle turns a query builder into SQL text on every call (`PgDialect.sqlToQuery`), and on
// the order path that was a third of kios's CPU: Pay's order statement alone cost ~2 ms to
// build. drizzle's own `.prepare()` builds once too, but binds the result to the database or
// transaction it was made on, and a Pay's statements run on a new transaction each time.
// Here the text and its parameters (values given later as `sql.placeholder(name)`) are built
// once, and each run asks the executor's own session for a prepared query of that text: the
// same object drizzle's `.execute()` makes, so the driver, the named statement (postgres.js),
// the type parsers and the mapping of rows to objects (dates, bigints, joined tables) are
// drizzle's, on PGlite and postgres.js alike.
//
// The builder must read nothing but its arguments: a value it closes over is frozen into
// the first run's SQL. So builders are defined at module level, every per-call value is a
// placeholder, and a value that needs a column's encoder (a Date, json) is given with one:
// `sql.param(sql.placeholder("now"), orders.createdAt)` (a bare placeholder in `eq()` is
// sent as it is).

/** what drizzle's query builders keep that their own `_prepare` reads (drizzle-orm 0.45) */
interface BuiltQuery {
  getSQL(): SQL;
  /** selects: the selected fields; inserts, updates, deletes: `returning`, ordered */
  config: { fields?: Record<string, unknown>; returning?: unknown };
  /** selects with joins: which joined tables may be null */
  joinsNotNullableMap?: Record<string, boolean>;
}

type Fields = Parameters<PgSession["prepareQuery"]>[1];

// how a select's fields are listed for the row mapper: exported by drizzle-orm, typed
// internal (the unit test fails if a drizzle upgrade takes it away)
const { orderSelectedFields } = drizzle as unknown as {
  orderSelectedFields: (fields: Record<string, unknown>) => Fields;
};

interface Built {
  query: Query;
  fields: Fields;
  joinsNotNullableMap: Record<string, boolean> | undefined;
}

// kios's two drivers build SQL with the same dialect (no casing option)
const dialect = new PgDialect();

function buildOnce(query: BuiltQuery): Built {
  const { config } = query;
  const fields = (
    config.fields !== undefined ? orderSelectedFields(config.fields) : config.returning
  ) as Fields;
  const built = dialect.sqlToQuery(query.getSQL());
  return {
    query: { ...built, params: built.params.map(nullSafe) },
    fields,
    joinsNotNullableMap: query.joinsNotNullableMap,
  };
}

/**
 * a placeholder given through a column's encoder sends null as null, as drizzle does for a
 * value built into the statement (its fillPlaceholders would hand null to the encoder: a
 * timestamp's calls toISOString on it)
 */
function nullSafe(param: unknown): unknown {
  if (!(is(param, Param) && is(param.value, Placeholder))) return param;
  const { encoder } = param;
  return new Param(param.value, {
    mapToDriverValue: (value: unknown) =>
      value === null || value === undefined ? null : encoder.mapToDriverValue(value),
  });
}

/**
 * a statement built once: `build` makes it from an executor with placeholders for every
 * value, the returned function runs it on any executor with the values by name, answering
 * what the query builder's own `await` would (rows, or what `returning` gives)
 */
export function builtOnce<Q extends PromiseLike<unknown>>(
  build: (exec: Executor) => Q,
): (exec: Executor, values: Record<string, unknown>) => Promise<Awaited<Q>> {
  let built: Built | undefined;
  return (exec, values) => {
    built ??= buildOnce(build(exec) as unknown as BuiltQuery);
    const prepared = exec._.session.prepareQuery(built.query, built.fields, undefined, true);
    // the same map the builder's own _prepare hands its prepared query (an internal field)
    (prepared as { joinsNotNullableMap?: Record<string, boolean> }).joinsNotNullableMap =
      built.joinsNotNullableMap;
    return prepared.execute(values) as Promise<Awaited<Q>>;
  };
}

/**
 * builtOnce for a statement whose shape varies (a CTE present or not): one built statement
 * per shape, keyed by `keyOf(shape)`. The shapes must be few: each is kept for the process's
 * life
 */
export function builtOncePerShape<S, Q extends PromiseLike<unknown>>(
  keyOf: (shape: S) => string,
  build: (exec: Executor, shape: S) => Q,
): (exec: Executor, shape: S, values: Record<string, unknown>) => Promise<Awaited<Q>> {
  const byShape = new Map<string, ReturnType<typeof builtOnce<Q>>>();
  return (exec, shape, values) => {
    const key = keyOf(shape);
    let run = byShape.get(key);
    if (!run) {
      run = builtOnce((e) => build(e, shape));
      byShape.set(key, run);
    }
    return run(exec, values);
  };
}
