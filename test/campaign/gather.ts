import type { CenterJournal } from "./center.ts";
import type { Journal } from "./customers.ts";
import type {
  AttemptFact,
  CenterOrderFact,
  ChargeFact,
  CheckFact,
  Facts,
  MessageFact,
  NotificationFact,
  OrderFact,
  PaymentFact,
  TextOrderFact,
  TopupFact,
} from "./facts.ts";
import { runKiosCommand } from "./processes.ts";
import type { TextJournal } from "./texts.ts";
import type { World } from "./world.ts";

// reads the books for the reconciliation: kios's database, the sandbox's store, the Bot
// API server's chats, and `kios ledger verify --json` run as a user would run it.

export async function gatherFacts(o: {
  world: World;
  journal: Journal;
  center: CenterJournal;
  centerMembers: { memberId: string; userId: number }[];
  texts: TextJournal;
  textMembers: number[];
  adminIds: number[];
  ownerTopups: Facts["ownerTopups"];
}): Promise<Facts> {
  const { db, suppliers, telegram, gateway } = o.world;
  const first = suppliers[0]!.name;
  const orders = (
    await db.executeSql(
      `select id, ref_id, confirm_key, user_id, chat_id, message_id, kind, product_code,
              destination, price, coalesce(supplier, $1) as supplier, status,
              flagged_at is not null as flagged, testing,
              extract(epoch from submitted_at) * 1000 as submitted_ms,
              extract(epoch from next_check_at) * 1000 as next_check_ms, margins,
              exists(select 1 from h2h_orders h where h.quote_id = orders.confirm_key) as h2h,
              exists(select 1 from text_orders t where t.quote_id = orders.confirm_key) as text
         from orders order by id`,
      [first],
    )
  ).rows.map(
    (r): OrderFact => ({
      id: Number(r.id),
      refId: String(r.ref_id),
      confirmKey: String(r.confirm_key),
      userId: Number(r.user_id),
      chatId: Number(r.chat_id),
      messageId: r.message_id === null ? null : Number(r.message_id),
      kind: r.kind as OrderFact["kind"],
      productCode: String(r.product_code),
      destination: String(r.destination),
      price: Number(r.price),
      supplier: String(r.supplier),
      status: r.status as OrderFact["status"],
      flagged: r.flagged === true,
      testing: r.testing === true,
      submittedAt: r.submitted_ms === null ? null : Number(r.submitted_ms),
      nextCheckAt: r.next_check_ms === null ? null : Number(r.next_check_ms),
      margins: (
        (typeof r.margins === "string" ? JSON.parse(r.margins) : r.margins) as {
          userId: number;
          amount: number;
        }[]
      ).map((m) => ({ userId: Number(m.userId), amount: Number(m.amount) })),
      h2h: r.h2h === true,
      text: r.text === true,
    }),
  );
  const notifications = (
    await db.executeSql("select chat_id, payload, status from notifications")
  ).rows.map((r): NotificationFact => {
    const payload = (typeof r.payload === "string" ? JSON.parse(r.payload) : r.payload) as {
      type: string;
      orderId?: number;
    };
    return {
      type: payload.type,
      orderId: payload.orderId,
      chatId: Number(r.chat_id),
      status: String(r.status),
    };
  });
  const wallets = new Map(
    (await db.executeSql("select user_id, balance from accounts where kind = 'user'")).rows.map(
      (r) => [Number(r.user_id), Number(r.balance)] as const,
    ),
  );
  // from its entries: they are the account's balance whether or not its row keeps a running
  // one (it does not since migration 0026)
  const cost = await db.executeSql(
    `select coalesce(sum(e.amount), 0) as balance
       from entries e join accounts a on a.id = e.account_id
      where a.key = 'shop:supplier_cost'`,
  );
  const prepaid = await db.executeSql(
    "select balance from accounts where key = 'shop:supplier_prepaid'",
  );
  const ms = (v: unknown) => (v === null ? null : Number(v));
  const checks = (
    await db.executeSql(
      // a check names its supplier once kios keeps books per supplier; read through jsonb so
      // the campaign runs on a schema with or without that column
      `select c.id, to_jsonb(c)->>'supplier' as supplier,
              extract(epoch from c.read_at) * 1000 as read_ms,
              extract(epoch from p.read_at) * 1000 as previous_ms, c.status, c.drift,
              c.in_flight_rise, c.in_flight_fall, c.tolerance
         from supplier_balance_checks c
         left join supplier_balance_checks p on p.id = c.previous_id
        order by c.id`,
    )
  ).rows.map(
    (r): CheckFact => ({
      id: Number(r.id),
      supplier: r.supplier === null ? null : String(r.supplier),
      readAt: Number(r.read_ms),
      previousReadAt: ms(r.previous_ms),
      status: r.status as CheckFact["status"],
      drift: ms(r.drift),
      inFlightRise: Number(r.in_flight_rise),
      inFlightFall: Number(r.in_flight_fall),
      tolerance: Number(r.tolerance),
    }),
  );
  const topups = (
    await db.executeSql(
      `select id, amount, check_id, reversed_at is not null as reversed, recorded_by
         from supplier_topups order by id`,
    )
  ).rows.map(
    (r): TopupFact => ({
      id: Number(r.id),
      amount: Number(r.amount),
      checkId: ms(r.check_id),
      reversed: r.reversed === true,
      recordedBy: ms(r.recorded_by),
    }),
  );
  const payments = (
    await db.executeSql(
      `select p.id, p.gateway_order_id, p.user_id, p.amount, p.status,
              (select count(*) from transfers t
                where t.key = 'payment:' || p.gateway || ':' || p.gateway_order_id)::int as credits,
              (select coalesce(sum(e.amount), 0) from transfers t
                 join entries e on e.transfer_id = t.id
                 join accounts a on a.id = e.account_id and a.kind = 'user'
                where t.key = 'payment:' || p.gateway || ':' || p.gateway_order_id)::bigint as credited
         from payments p order by p.id`,
    )
  ).rows.map(
    (r): PaymentFact => ({
      id: Number(r.id),
      gatewayOrderId: String(r.gateway_order_id),
      userId: Number(r.user_id),
      amount: Number(r.amount),
      status: String(r.status),
      credits: Number(r.credits),
      credited: Number(r.credited),
    }),
  );
  const charges = gateway.charges().map(
    (c): ChargeFact => ({
      orderId: c.orderId,
      amount: c.grossAmount,
      paidAmount: c.paidAmount,
      status: c.status,
    }),
  );

  const chats = new Map<number, MessageFact[]>();
  const cancelAnswered = new Set<string>();
  for (const user of telegram.users()) {
    const view = telegram.messages(user.id);
    chats.set(
      user.id,
      view.messages
        .filter((m) => m.sender === "bot" && !m.deleted)
        .map((m) => ({
          id: m.message_id,
          text: m.text ?? m.caption ?? "",
          history: m.history.map((h) => h.text ?? h.caption ?? ""),
        })),
    );
    for (const a of view.callback_answers)
      if (a.data.startsWith("cq:")) cancelAnswered.add(a.data.slice("cq:".length));
  }

  const attempts = (
    await db.executeSql(
      `select order_id, seq, supplier, ref_id, cost, status, rerouted_for
         from order_attempts order by order_id, seq`,
    )
  ).rows.map(
    (r): AttemptFact => ({
      orderId: Number(r.order_id),
      seq: Number(r.seq),
      supplier: String(r.supplier),
      refId: String(r.ref_id),
      cost: Number(r.cost),
      status: r.status as AttemptFact["status"],
      reroutedFor: r.rerouted_for === null ? null : String(r.rerouted_for),
    }),
  );

  return {
    orders,
    attempts,
    payments,
    charges,
    notifications,
    wallets,
    credits: new Map(o.journal.credits),
    supplierCost: Number(cost.rows[0]?.balance ?? 0),
    supplierPrepaid: Number(prepaid.rows[0]?.balance ?? 0),
    ownerTopups: [...o.ownerTopups],
    checks,
    topups,
    // each supplier's own books: its account, its transactions, its requests
    suppliers: suppliers.map((s) => ({
      name: s.name,
      protocol: s.protocol,
      before: s.startBalance,
      after: s.balance(),
    })),
    transactions: suppliers.flatMap((s) => s.transactions()),
    calls: suppliers.flatMap((s) => s.calls()),
    chats,
    adminIds: o.adminIds,
    cancelThenPay: o.journal.cancelThenPay.map((c) => ({
      ...c,
      cancelAnswered: cancelAnswered.has(c.quoteId),
    })),
    ledger: await ledgerVerify(o.world.database.url),
    center: {
      members: o.centerMembers,
      sent: [...o.center.sent.values()],
      replies: o.center.replies.map((r) => ({
        memberId: r.memberId,
        refId: r.refId,
        status: r.status,
        text: r.text,
        sentAt: r.sentAt,
      })),
      reports: [...o.center.reports],
      orders: (
        await db.executeSql(
          `select c.member_id, h.ref_id, h.product_code, h.customer_no, o.id as order_id, o.status,
                  extract(epoch from o.created_at) * 1000 as ordered_ms
             from h2h_orders h join center_keys c on c.id = h.center_key_id
             left join orders o on o.confirm_key = h.quote_id
            order by h.id`,
        )
      ).rows.map(
        (r): CenterOrderFact => ({
          memberId: String(r.member_id),
          refId: String(r.ref_id),
          product: String(r.product_code),
          dest: String(r.customer_no),
          orderId: r.order_id === null ? null : Number(r.order_id),
          status: r.status === null ? null : String(r.status),
          orderedAt: r.ordered_ms === null ? null : Number(r.ordered_ms),
        }),
      ),
    },
    texts: {
      members: o.textMembers,
      sent: [...o.texts.sent],
      finalBalances: [...o.texts.finalBalances],
      orders: (
        await db.executeSql(
          `select t.user_id, t.ref, o.id as order_id, o.product_code, o.destination, o.status, o.price
             from text_orders t left join orders o on o.confirm_key = t.quote_id
            order by t.id`,
        )
      ).rows.map(
        (r): TextOrderFact => ({
          userId: Number(r.user_id),
          ref: r.ref === null ? null : String(r.ref),
          orderId: r.order_id === null ? null : Number(r.order_id),
          product: r.product_code === null ? null : String(r.product_code),
          dest: r.destination === null ? null : String(r.destination),
          status: r.status === null ? null : String(r.status),
          price: r.price === null ? null : Number(r.price),
        }),
      ),
    },
    now: Date.now(),
  };
}

/** `kios ledger verify --json`, as an owner runs it */
async function ledgerVerify(databaseUrl: string): Promise<Facts["ledger"]> {
  const run = await runKiosCommand(
    ["ledger", "verify", "--json"],
    { PATH: process.env.PATH ?? "", DATABASE_URL: databaseUrl, LOG_LEVEL: "silent" },
    60_000,
  );
  try {
    const report = JSON.parse(run.stdout) as { ok: boolean; problems: string[] };
    return { ok: report.ok && run.code === 0, problems: report.problems };
  } catch {
    return { ok: false, problems: [`kios ledger verify exited ${run.code}: ${run.stderr.trim()}`] };
  }
}
