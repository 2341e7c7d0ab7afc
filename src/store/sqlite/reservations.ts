import type { Database } from "bun:sqlite";
import type { BudgetedReservationRequest, CapLeft, LimitWindow, ReservationRefusal, ReservationRequest, ReservationStore, WindowKeys } from "../store";
import type { SqliteWriter, WriteStep } from "./client";
import type { Hold, ReservationBook } from "./reservation-book";

/** The spend a limit counts, read from a usage row, a key's or a workspace's (unqualified names: the stored row). */
function spendExpression(counter: LimitWindow["counter"]): string {
  if (counter === "total") return "(total + $inc * byok_total)";
  return `(CASE WHEN ${counter}_key = $windowKey THEN ${counter} + $inc * byok_${counter} ELSE 0 END)`;
}

/** The rows whose spend a limit counts: a key's, a workspace's, or a member's of a workspace ($id, then $user). */
const USAGE_ROWS = {
  key: "key_usage WHERE hash = $id",
  workspace: "workspace_usage WHERE workspace_id = $id",
  member: "member_usage WHERE workspace_id = $id AND user_id = $user",
} as const;

/** The spend a limit counts on a usage row; undefined when the row does not exist yet. */
function spendQuery(sqlite: Database, rows: keyof typeof USAGE_ROWS) {
  const counters = ["total", "day", "week", "month"] as const;
  const queries = Object.fromEntries(
    counters.map((c) => [
      c,
      sqlite.query<{ spend: number }, Record<string, string | number>>(`SELECT ${spendExpression(c)} AS spend FROM ${USAGE_ROWS[rows]}`),
    ]),
  ) as Record<LimitWindow["counter"], ReturnType<typeof sqlite.query<{ spend: number }, Record<string, string | number>>>>;
  return (rowId: string, window: LimitWindow, user?: string): number | undefined => {
    const params: Record<string, string | number> = { id: rowId, inc: window.includeByok ? 1 : 0 };
    if (user !== undefined) params.user = user;
    // the total counter has no window key to compare
    if (window.counter !== "total") params.windowKey = window.windowKey;
    return queries[window.counter].get(params)?.spend;
  };
}

/** A reservation starts its key's or workspace's usage row, so that a key that reserved has one (as it will once it spends). */
function usageRowStarter(sqlite: Database, table: "key_usage" | "workspace_usage", id: "hash" | "workspace_id") {
  const insert = sqlite.query(`INSERT INTO ${table} (${id}, day_key, week_key, month_key) VALUES ($id, $day, $week, $month) ON CONFLICT DO NOTHING`);
  return (rowId: string, windows: WindowKeys) => void insert.run({ id: rowId, day: windows.day, week: windows.week, month: windows.month });
}

/** A limit admits an amount while something is left and the amount fits in it. */
const fits = (left: number, amount: number) => left > 0 && left >= amount;

/**
 * Takes a reservation out of the book; shared with the generation commit, which releases inside
 * its transaction. The hold comes back if that transaction rolls back or fails to commit, and no
 * other reserve sees it gone before the COMMIT: a synchronous transaction runs in one turn of
 * the event loop, and while an asynchronous one is open every other write step, every reserve
 * among them, waits for it. So a hold leaves the book only with the spend that replaces it.
 */
export function reservationReleaser(book: ReservationBook, writer: SqliteWriter): (id: string) => void {
  return (id) => {
    const hold = book.release(id);
    if (hold) writer.onRollback(() => book.hold(id, hold));
  };
}

function reservationHolder(book: ReservationBook, writer: SqliteWriter): (id: string, hold: Hold) => void {
  return (id, hold) => {
    book.hold(id, hold);
    writer.onRollback(() => void book.release(id));
  };
}

/**
 * Reservations on SQLite live in this process's book, checked against the spend on disk: the
 * read, the check and the hold run in one write step, synchronous (bun:sqlite) with no await in
 * between, so in a single-threaded process nothing slips between them, and no reservation costs a
 * write transaction. The `reservations` table and the `held` columns are left to databases of
 * earlier versions, which kept reservations on disk (`releaseAll` clears what they left).
 */
export function sqliteReservationStore(sqlite: Database, write: WriteStep, writer: SqliteWriter, book: ReservationBook): ReservationStore {
  const keySpend = spendQuery(sqlite, "key");
  const workspaceSpend = spendQuery(sqlite, "workspace");
  const memberSpend = spendQuery(sqlite, "member");
  const startKeyRow = usageRowStarter(sqlite, "key_usage", "hash");
  const startWorkspaceRow = usageRowStarter(sqlite, "workspace_usage", "workspace_id");
  const hold = reservationHolder(book, writer);
  const release = reservationReleaser(book, writer);
  const releaseLegacy = () =>
    writer.atomic(() => {
      const released = sqlite.run("DELETE FROM reservations").changes;
      sqlite.run("UPDATE key_usage SET held = 0 WHERE held != 0");
      sqlite.run("UPDATE workspace_usage SET held = 0 WHERE held != 0");
      return released;
    });
  const holdOf = (
    req: ReservationRequest | BudgetedReservationRequest,
    amountNanos: number,
    workspaceId: string | null,
    workspaceAmountNanos: number,
    member: { userId: string; amountNanos: number } | null = null,
  ): Hold => ({
    keyHash: req.keyHash,
    amountNanos,
    workspaceId,
    workspaceAmountNanos,
    memberUserId: member?.userId ?? null,
    memberAmountNanos: member?.amountNanos ?? 0,
    instanceId: req.instanceId,
    expiresAt: req.expiresAt,
  });

  const reserve = (req: ReservationRequest): number | null => {
    const spend = keySpend(req.keyHash, req.window);
    const left = req.limitNanos - (spend ?? 0) - book.keyHeld(req.keyHash);
    if (!fits(left, req.amountNanos)) return Math.max(0, left);
    if (spend === undefined) startKeyRow(req.keyHash, req.windows);
    hold(req.id, holdOf(req, req.amountNanos, null, 0));
    return null;
  };

  const reserveWithBudgets = (req: BudgetedReservationRequest): ReservationRefusal | null => {
    const caps = req.caps ?? [];
    const keyCaps = caps.filter((c) => c.on === "key");
    const member = caps.some((c) => c.on === "member") ? (req.member ?? null) : null;
    const keyLimited = req.limitNanos !== null || keyCaps.length > 0;
    const keyHeld = book.keyHeld(req.keyHash);
    let keyRowExists = true;
    const keyLeft = (limitNanos: number, window: LimitWindow) => {
      const spend = keySpend(req.keyHash, window);
      if (spend === undefined) keyRowExists = false;
      return Math.max(0, limitNanos - (spend ?? 0) - keyHeld);
    };
    const key = req.limitNanos === null ? null : keyLeft(req.limitNanos, req.window);
    const memberHeld = member === null ? 0 : book.memberHeld(req.workspaceId, member.userId);
    const capsLeft: CapLeft[] = caps.map((c) => ({
      id: c.id,
      on: c.on,
      left:
        c.on === "key"
          ? keyLeft(c.limitNanos, c.window)
          : Math.max(0, c.limitNanos - (memberSpend(req.workspaceId, c.window, member?.userId ?? "") ?? 0) - memberHeld),
    }));
    let budget: { left: number; interval: ReservationRefusal["budget"] } | null = null;
    let workspaceRowExists = false;
    for (const b of req.budgets) {
      const workspaceSpent = workspaceSpend(req.workspaceId, b.window);
      if (workspaceSpent !== undefined) workspaceRowExists = true;
      const left = Math.max(0, b.limitNanos - (workspaceSpent ?? 0) - book.workspaceHeld(req.workspaceId));
      if (budget === null || left < budget.left) budget = { left, interval: b.interval };
    }
    const capsFit = capsLeft.every((c) => fits(c.left, c.on === "key" ? req.amountNanos : (member?.amountNanos ?? 0)));
    const keyFits = key === null || fits(key, req.amountNanos);
    if (!keyFits || !capsFit || (budget !== null && !fits(budget.left, req.workspaceAmountNanos)))
      return { keyLeft: key, budgetLeft: budget?.left ?? null, budget: budget?.interval ?? null, ...(caps.length > 0 ? { caps: capsLeft } : {}) };
    const keyAmount = keyLimited ? req.amountNanos : 0;
    if (keyAmount > 0 && !keyRowExists) startKeyRow(req.keyHash, req.windows);
    if (!workspaceRowExists) startWorkspaceRow(req.workspaceId, req.windows);
    hold(req.id, holdOf(req, keyAmount, req.workspaceId, req.workspaceAmountNanos, member));
    return null;
  };

  // Whether a reservation step writes to the file this time (WriteStep's `writes`, asked only while
  // another thread of the process writes): otherwise it reads the spend and holds in memory.
  const startsKeyRow = (req: ReservationRequest) => keySpend(req.keyHash, req.window) === undefined;
  const startsARow = (req: BudgetedReservationRequest) =>
    ((req.limitNanos !== null || (req.caps ?? []).some((c) => c.on === "key")) && keySpend(req.keyHash, req.window) === undefined) ||
    !req.budgets.some((b) => workspaceSpend(req.workspaceId, b.window) !== undefined);
  const inMemory = () => false;
  return {
    reserve: (req) =>
      write(
        () => reserve(req),
        () => startsKeyRow(req),
      ),
    reserveWithBudgets: (req) =>
      write(
        () => reserveWithBudgets(req),
        () => startsARow(req),
      ),
    release: (id) => write(() => release(id), inMemory),
    async held(keyHash) {
      return book.keyHeld(keyHash);
    },
    // a renewal is not taken back by a rollback: a later lease is harmless
    renew: (instanceId, expiresAt) => write(() => book.renew(instanceId, expiresAt), inMemory),
    releaseExpired: (now) =>
      write(() => {
        const expired = book.expiredIds(now);
        for (const id of expired) release(id);
        return expired.length;
      }),
    restore: (id, held) =>
      write(() => {
        if (book.isOpen(id)) return false;
        hold(id, {
          keyHash: held.keyHash,
          amountNanos: held.keyNanos,
          workspaceId: held.workspaceId,
          workspaceAmountNanos: held.workspaceNanos,
          memberUserId: held.memberUserId,
          memberAmountNanos: held.memberNanos,
          instanceId: held.instanceId,
          expiresAt: held.expiresAt,
        });
        return true;
      }, inMemory),
    releaseAll: () =>
      write(() => {
        const open = book.openIds();
        for (const id of open) release(id);
        return open.length + releaseLegacy();
      }),
    async openCount() {
      return book.size;
    },
  };
}
