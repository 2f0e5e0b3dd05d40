import { type PGlite, types } from "@electric-sql/pglite";

type Parser = (value: string, typeId?: number) => unknown;
type QueryOptions = NonNullable<Parameters<PGlite["query"]>[2]>;

const asText: Parser = (value) => value;

/**
 * the types drizzle's pglite driver reads as text (it maps them itself): each scalar with
 * its array type
 */
const TEXT_TYPES: ReadonlyArray<readonly [scalar: number, array: number]> = [
  [types.TIMESTAMP, 1115],
  [types.TIMESTAMPTZ, 1185],
  [types.INTERVAL, 1187],
  [types.DATE, 1182],
  [types.NUMERIC, 1231],
];

/**
 * PGlite's own parsers for those types, as a query that is not drizzle's (pg-boss, the raw
 * reads) expects them: dates as Date, their arrays as arrays of Date
 */
const PGLITE_PARSERS: Record<number, Parser> = Object.fromEntries(
  TEXT_TYPES.flatMap(([scalar, array]) => {
    const element = (types.parsers as Record<number, Parser | undefined>)[scalar];
    const own: [number, Parser][] = [
      [array, (value) => types.arrayParser(value, element as Parser, array)],
    ];
    if (element) own.push([scalar, element]);
    return own;
  }),
);

interface QueryClient {
  query: PGlite["query"];
}

/**
 * PGlite as drizzle should see it. drizzle's pglite driver hands every query its own
 * parsers (the types above as text), and PGlite merges them into a copy of its whole parser
 * map, some 300 types, on every query: half the cost of a small statement. Instead the
 * client itself reads those types as text, drizzle's queries go without parsers of their
 * own, and `PGLITE_OWN_PARSERS` gives every other query PGlite's parsers back.
 */
export function drizzleView(client: PGlite): PGlite {
  const parsers = client.parsers as Record<number, Parser>;
  const readAsText = () => {
    // PGlite rebuilds its array parsers on refreshArrayTypes(); set again on each query
    for (const [scalar, array] of TEXT_TYPES) {
      parsers[scalar] = asText;
      parsers[array] = asText;
    }
  };
  // a client still starting builds its array parsers as it becomes ready, over these
  let ready = false;
  const whenReady = client.waitReady.then(() => {
    readAsText();
    ready = true;
  });
  whenReady.catch(() => {}); // a start that fails is told to the queries that wait on it
  const withoutParsers = <C extends QueryClient>(target: C): C["query"] =>
    ((text: string, params?: unknown[], options?: QueryOptions) => {
      const { parsers: _drizzles, ...rest } = options ?? {};
      if (!ready) return whenReady.then(() => target.query(text, params, rest));
      readAsText();
      return target.query(text, params, rest);
    }) as C["query"];
  return new Proxy(client, {
    get(target, key, receiver) {
      if (key === "query") return withoutParsers(target);
      if (key === "transaction") {
        return <T>(work: (tx: Parameters<Parameters<PGlite["transaction"]>[0]>[0]) => Promise<T>) =>
          target.transaction((tx) =>
            work(
              new Proxy(tx, {
                get: (txTarget, txKey, txReceiver) =>
                  txKey === "query"
                    ? withoutParsers(txTarget)
                    : Reflect.get(txTarget, txKey, txReceiver),
              }),
            ),
          );
      }
      const value = Reflect.get(target, key, receiver);
      // PGlite's methods use private fields: call them on the client itself
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** the options that give a query on a `drizzleView`'s client PGlite's own parsers back */
export const PGLITE_OWN_PARSERS: QueryOptions = { parsers: PGLITE_PARSERS };
