/**
 * Four eyes (maker-checker), as the kit applies it to every declared action or form whose
 * declaration says `fourEyes`: the route turns the change into a change request instead of
 * applying it (holdForApproval), and another administrator's approval applies it
 * (approveChangeRequest, called by the change-requests module's decision). What is stored is
 * what the change is (module, action, record, body), never a closure: approval runs the same
 * declared change again, guard, rules and audit, inside the approval's transaction.
 *
 * - The maker learns at once whether the change could be made: the request is made after a dry
 *   run of the change (run and rolled back), which also gives the checker its old → new preview.
 * - The checker is never the maker (by administrator id, whatever the session or path) and holds
 *   the codes the request names.
 * - The record's fields the change touches, and its amount, are compared at approval with what
 *   the maker saw: a record that moved on refuses the approval (409 RECORD_CHANGED /
 *   AMOUNT_CHANGED) and the request keeps why.
 * - Exactly once: the approval locks the request row and moves it from pending in the very
 *   transaction that applies the change.
 */
import { randomBytes } from "node:crypto";

import { and, desc, eq, getTableName, gt, isNull, ne, or, sql, type SQL } from "drizzle-orm";

import {
  CHANGE_REASON_HEADER,
  DEFAULT_REQUEST_HOURS,
  FOUR_EYES_THRESHOLDS,
  type FourEyesDecl,
  type PendingApprovalAnswer,
} from "../../src/shared/kit/four-eyes";
import { remarkProblem, verbOfBody } from "../../src/shared/kit/module";
import { REQUEST_DECIDED } from "../../src/shared/modules/change-requests";
import { markDryRun, recordAudit } from "../audit";
import type { Db, DbOrTx, Tx } from "../db";
import {
  administrators,
  changeRequests,
  walletPolicies,
  type AdministratorRow,
} from "../db/schema";
import { conflict, forbidden, HttpError } from "../errors";
import type { BoundModule } from "./bind";
import {
  applyChange,
  auditSnapshot,
  createRecord,
  declaredChange,
  textOf,
  type Change,
} from "./change";

type Item = Record<string, unknown>;
type ChangeRequestRow = typeof changeRequests.$inferSelect;

/** Every bound module by name, as its routes are registered: an approval finds its module here. */
const REGISTERED = new Map<string, BoundModule>();

export function rememberModule(bound: BoundModule): void {
  REGISTERED.set(bound.module.name, bound);
}

/** A declared change that may wait for a second approver, as its route holds it. */
export interface Held {
  bound: BoundModule;
  /** The action's name, or `create` / `edit` for the module's forms. */
  name: string;
  fourEyes: FourEyesDecl;
  /** The code the route needs (the checker needs it too). */
  permission: number | null;
  /** The change of one record (absent: the create form's new record). */
  change?: Change;
  verb: (body: unknown) => string;
}

/** The declared change `name` of a module, when its declaration asks for a second approver. */
export function heldOf(bound: BoundModule, name: string): Held | undefined {
  const { module } = bound;
  if (name === "create" || name === "edit") {
    const form = module[name];
    if (!form?.fourEyes) return undefined;
    return {
      bound,
      name,
      fourEyes: form.fourEyes,
      permission: form.permission ?? module.permission,
      ...(name === "edit" && { change: declaredChange(bound, name) }),
      verb: () => name,
    };
  }
  const action = module.actions[name];
  if (!action?.fourEyes) return undefined;
  return {
    bound,
    name,
    fourEyes: action.fourEyes,
    permission: action.permission ?? module.permission,
    change: declaredChange(bound, name),
    verb: (body) => verbOfBody(action, body),
  };
}

/** Whether the declared change `name` of a module is sensitive (ActionDecl.stepUp). */
export function stepUpOf({ module }: BoundModule, name: string): boolean {
  const decl = name === "create" || name === "edit" ? module[name] : module.actions[name];
  return decl?.stepUp === true;
}

/** What four eyes reads of the wallet policy in force: its thresholds and what it turned off. */
async function policyOf(db: DbOrTx) {
  const [policy] = await db
    .select({
      topUp: walletPolicies[FOUR_EYES_THRESHOLDS.topUp],
      refund: walletPolicies[FOUR_EYES_THRESHOLDS.refund],
      off: walletPolicies.fourEyesOff,
    })
    .from(walletPolicies)
    .orderBy(desc(walletPolicies.id))
    .limit(1);
  if (!policy) throw new Error("No wallet policy is in force (migration 0008 writes the first)");
  return policy;
}

/** Whether an active administrator other than `maker` holds what checking the change needs. */
async function anyOtherChecker(
  db: Db,
  maker: AdministratorRow,
  held: Held,
  fourEyes: FourEyesDecl,
): Promise<boolean> {
  const holds = (code: number | null | undefined) =>
    code === null || code === undefined
      ? sql`true`
      : sql`${code} = any(${administrators.permissions})`;
  const [other] = await db
    .select({ id: administrators.id })
    .from(administrators)
    .where(
      and(
        ne(administrators.id, maker.id),
        eq(administrators.status, "active"),
        or(
          eq(administrators.isSuperAdmin, true),
          and(holds(held.permission), holds(fourEyes.checkerPermission)),
        ),
      ),
    )
    .limit(1);
  return other !== undefined;
}

/** A declared change's name in a policy's `fourEyesOff`: `<module>.<action>`. */
const switchOf = (module: string, action: string) => `${module}.${action}`;

/** Whether the server runs in production (set from its configuration as the app is built). */
const RUNNING = { production: false };

export function configureFourEyes({ production }: { production: boolean }): void {
  RUNNING.production = production;
}

/**
 * Refuses (400) a policy that turns four eyes off for a change it may not: one that is not a
 * declared change needing a second approver, the policy's own versions (the switch stays under
 * four eyes), and in production a money movement (a change whose declaration names an amount).
 */
export function refuseFourEyesOff(keys: readonly string[], policyModule: string): void {
  for (const key of keys) {
    const [module = "", action = ""] = key.split(".");
    const bound = REGISTERED.get(module);
    const decl = bound ? heldOf(bound, action)?.fourEyes : STANDALONE.get(module)?.fourEyes;
    if (!decl || (STANDALONE.has(module) && STANDALONE.get(module)!.action !== action)) {
      throw new HttpError(
        400,
        `"${key}" is not a change that needs a second approver`,
        "FOUR_EYES_UNKNOWN",
        { change: key },
      );
    }
    if (module === policyModule) {
      throw new HttpError(
        400,
        "The policy's own changes always need a second approver",
        "FOUR_EYES_REQUIRED",
        { change: key },
      );
    }
    if (RUNNING.production && decl.amount) {
      throw new HttpError(
        400,
        `"${key}" moves money: in production it always needs a second approver`,
        "FOUR_EYES_REQUIRED",
        { change: key },
      );
    }
  }
}

/** A request's reference: `CR`, the day, and 10 random letters and digits. */
function requestReference(now = new Date()): string {
  const day = now.toISOString().slice(0, 10).replaceAll("-", "");
  const random = randomBytes(8).toString("base64url").replace(/[-_]/g, "").slice(0, 10);
  return `CR${day}${random.toUpperCase().padEnd(10, "0")}`;
}

/** Thrown inside a dry run's transaction so that it rolls back. */
const DRY_RUN = Symbol("dry run");

/** The fields of a record whose JSON differs between before and after (timestamps aside). */
function changedKeys(before: Item, after: Item): string[] {
  return Object.keys({ ...before, ...after }).filter(
    (key) => JSON.stringify(before[key] ?? null) !== JSON.stringify(after[key] ?? null),
  );
}

const pick = (item: Item, keys: Iterable<string>) =>
  Object.fromEntries([...keys].map((key) => [key, item[key] ?? null]));

/** The change's amount in sen, from its body or its record, when the declaration names one. */
function amountOf(decl: FourEyesDecl, body: unknown, record: Item | undefined): number | null {
  const source = decl.amount;
  if (!source) return null;
  const value =
    "body" in source ? (body as Item | null | undefined)?.[source.body] : record?.[source.record];
  return typeof value === "number" ? value : null;
}

/**
 * The maker's reason: the header (percent-encoded), else the remark an action asks for (a
 * reversal's). A form's optional remark is the record's, not a word to the approver: a form
 * gives its reason in the header.
 */
function reasonOf(remarkField: string | null, header: unknown, body: unknown): string {
  let reason: string | null;
  if (typeof header === "string" && header !== "") {
    try {
      reason = decodeURIComponent(header);
    } catch {
      throw new HttpError(400, "The change's reason is not percent-encoded text", "REASON_INVALID");
    }
  } else {
    reason = remarkField === null ? null : textOf(body, remarkField);
  }
  const problem = remarkProblem(reason ?? "");
  if (problem === "required") {
    throw new HttpError(
      400,
      "This change needs a second approver: give a reason",
      "REASON_REQUIRED",
    );
  }
  if (problem === "tooLong") {
    throw new HttpError(400, "The reason must be at most 500 characters", "REASON_TOO_LONG");
  }
  if (problem === "invalid") {
    throw new HttpError(400, "The reason holds characters that are not allowed", "REASON_INVALID");
  }
  return reason!.trim();
}

/**
 * Whether the change waits for a second approver: when it does, the change request it became
 * (answered 202); when it does not (below its threshold), undefined and the route applies it.
 * Refuses what the change itself would refuse (its guard, its rules) before anything is stored.
 */
export async function holdForApproval(
  db: Db,
  held: Held | undefined,
  request: {
    actor: AdministratorRow;
    id?: number;
    body: unknown;
    headers: Record<string, unknown>;
  },
): Promise<PendingApprovalAnswer | undefined> {
  if (!held) return undefined;
  const { bound, fourEyes } = held;
  const { actor, id, body } = request;
  const policy = await policyOf(db);
  // Turned off by the policy in force (itself approved by a second administrator).
  if (policy.off.includes(switchOf(bound.module.name, held.name))) return undefined;
  if (fourEyes.unlessNoChecker && !(await anyOtherChecker(db, actor, held, fourEyes))) {
    return undefined;
  }
  let thresholdSen: number | null = null;
  if (fourEyes.above) {
    const record =
      id !== undefined && "record" in fourEyes.amount! ? await bound.read(db, id) : undefined;
    const amount = amountOf(fourEyes, body, record);
    thresholdSen = policy[fourEyes.above];
    if (amount === null || amount <= thresholdSen) return undefined;
  }
  // One transaction: the dry run in a savepoint rolled back, then the request stored.
  return db.transaction(async (tx) => {
    // What the change itself refuses first (its guard, its rules), then a missing reason.
    const preview = await dryRun(tx, held, actor, id, body);
    // A change that changes nothing (the same permissions again) moves no money or power.
    if (preview.record && Object.keys(preview.after).length === 0) return undefined;
    // A form's optional remark is the record's: a form gives its reason in the header.
    const isForm = held.name === "create" || held.name === "edit";
    const reason = reasonOf(
      isForm ? null : held.change!.remarkField,
      request.headers[CHANGE_REASON_HEADER],
      body,
    );
    // What is kept of the body: never a secret it carries (ModuleBinding.heldBody).
    const kept = bound.binding.heldBody ? await bound.binding.heldBody(held.name, body) : body;
    if (id !== undefined) await refuseSecondRequest(tx, held, id);
    return insertRequest(tx, {
      module: bound.module.name,
      action: held.name,
      verb: held.verb(body),
      recordId: id ?? null,
      recordTitle: preview.title,
      body: (kept ?? {}) as object,
      reason,
      amountSen: amountOf(fourEyes, body, preview.record),
      before: preview.before,
      after: preview.after,
      permission: held.permission,
      checkerPermission: fourEyes.checkerPermission ?? null,
      rule: fourEyes.above ? "above" : "always",
      thresholdSen,
      makerId: actor.id,
      expiresAt: sql`now() + make_interval(hours => ${fourEyes.expiresInHours ?? DEFAULT_REQUEST_HOURS})`,
    });
  });
}

/** Stores a change request and its audit entry; answers what the maker is told (202). */
async function insertRequest(
  tx: Tx,
  values: Omit<typeof changeRequests.$inferInsert, "reference" | "expiresAt"> & { expiresAt: SQL },
): Promise<PendingApprovalAnswer> {
  const [row] = await tx
    .insert(changeRequests)
    .values({ ...values, reference: requestReference() })
    .returning();
  await recordAudit(tx, {
    adminId: values.makerId,
    action: "change_request.request",
    targetTable: getTableName(changeRequests),
    targetId: row!.id,
    remark: values.reason,
    before: null,
    after: {
      module: row!.module,
      action: row!.action,
      recordId: row!.recordId,
      amountSen: row!.amountSen,
    },
  });
  return pendingAnswer(row!);
}

/** What the maker is told: the request and when it expires. */
const pendingAnswer = (row: ChangeRequestRow): PendingApprovalAnswer => ({
  status: "pending_approval",
  changeRequest: {
    id: row.id,
    reference: row.reference,
    status: "pending",
    reason: row.reason,
    amountSen: row.amountSen,
    expiresAt: row.expiresAt.toISOString(),
  },
});

/** One open request per record and action: a second would only fail its guard at approval. */
async function refuseSecondRequest(tx: Tx, held: Held, id: number) {
  const table = held.bound.binding.table;
  await tx.select({ id: table.id }).from(table).where(eq(table.id, id)).for("update");
  await refuseOpenRequest(tx, held.bound.module.name, eq(changeRequests.recordId, id));
}

/** 409 CHANGE_PENDING when a request of `module` (of the record `which` names) is still open. */
async function refuseOpenRequest(tx: Tx, module: string, which: SQL) {
  const [open] = await tx
    .select({ reference: changeRequests.reference })
    .from(changeRequests)
    .where(
      and(
        eq(changeRequests.module, module),
        which,
        eq(changeRequests.status, "pending"),
        gt(changeRequests.expiresAt, sql`now()`),
      ),
    )
    .limit(1);
  if (open) {
    throw conflict(
      "CHANGE_PENDING",
      `A change of this record is waiting for a second approver (${open.reference})`,
      { reference: open.reference },
    );
  }
}

/**
 * The change made and rolled back (a savepoint of `outer`): whether it can be made now (its guard
 * and rules refuse here, to the maker), the record's fields it touches before and after, and the
 * record's title. It writes no audit entry (markDryRun): it would be undone with the rest.
 */
async function dryRun(
  outer: Tx,
  held: Held,
  actor: AdministratorRow,
  id: number | undefined,
  body: unknown,
) {
  const { bound } = held;
  let record: Item | undefined;
  let after: Item = {};
  try {
    await outer.transaction(async (tx) => {
      markDryRun(tx);
      if (id === undefined) {
        after = await createRecord(tx, bound, { actor, body });
      } else {
        const { item } = await applyChange(tx, bound, held.change!, {
          actor,
          id,
          body,
          expect: (found) => {
            record = found;
          },
        });
        after = item;
      }
      throw DRY_RUN;
    });
  } catch (error) {
    if (error !== DRY_RUN) throw error;
  }
  if (!record) {
    // A new record: its fields as staff gave them and the rules derived, but what the dry run
    // drew that the approval will draw again (its reference) and what is empty.
    const { [bound.module.titleField]: _drawn, ...fields } = auditSnapshot(after);
    const given = Object.entries(fields).filter(([, value]) => value !== null && value !== "");
    return { record, title: null, before: null, after: Object.fromEntries(given) };
  }
  const title = String(record[bound.module.titleField] ?? "") || null;
  const changed = changedKeys(auditSnapshot(record), auditSnapshot({ ...record, ...after }));
  const guard = held.change!.whenOf?.(body) ?? held.change!.when;
  return {
    record,
    title,
    before: pick(record, new Set([...changed, ...Object.keys(guard)])),
    after: pick({ ...record, ...after }, changed),
  };
}

/**
 * A change four eyes holds that is no module's record: the service's settings (Global). It has
 * a state (read and locked), which the body changes key by key: the request keeps the keys it
 * changes, before and after, and an approval refuses (RECORD_CHANGED) when one of them moved.
 */
export interface StandaloneChange {
  /** Its name where a module's would be (`change_requests.module`), and its action's. */
  module: string;
  action: string;
  /** The code the route needs; the checker needs it too. */
  permission: number;
  /** Always (a setting has no amount). */
  fourEyes: FourEyesDecl & { above?: undefined };
  /** Its state now, locked until the transaction ends. */
  read(tx: Tx): Promise<Item>;
  /** Refuses (400) a body whose result the change would refuse, before anything is stored. */
  check(after: Item): void;
  /** Applies the body (its audit naming `approvedBy`, the checker). */
  apply(tx: Tx, run: { actor: AdministratorRow; body: Item; approvedBy: number }): Promise<void>;
}

const STANDALONE = new Map<string, StandaloneChange>();

export function rememberStandalone(change: StandaloneChange): void {
  STANDALONE.set(change.module, change);
}

/** The keys a body changes of a state, before and after. */
function standalonePreview(change: StandaloneChange, state: Item, body: Item) {
  const next = { ...state, ...body };
  change.check(next);
  const changed = changedKeys(state, next);
  return { before: pick(state, changed), after: pick(next, changed) };
}

/**
 * A standalone change made into a change request (answered 202), one open at a time (409
 * CHANGE_PENDING); undefined when it does not wait (it changes nothing, or the policy in force
 * turned its four eyes off): the caller applies it then.
 */
export async function holdStandalone(
  db: Db,
  change: StandaloneChange,
  request: { actor: AdministratorRow; body: Item; headers: Record<string, unknown> },
): Promise<PendingApprovalAnswer | undefined> {
  return db.transaction(async (tx) => {
    const preview = standalonePreview(change, await change.read(tx), request.body);
    if (Object.keys(preview.after).length === 0) return undefined;
    // Turned off by the policy in force: the caller applies it at once.
    if ((await policyOf(tx)).off.includes(switchOf(change.module, change.action))) return undefined;
    const reason = reasonOf(null, request.headers[CHANGE_REASON_HEADER], request.body);
    await refuseOpenRequest(tx, change.module, isNull(changeRequests.recordId));
    return insertRequest(tx, {
      module: change.module,
      action: change.action,
      verb: change.action,
      recordId: null,
      recordTitle: null,
      body: request.body,
      reason,
      amountSen: null,
      before: preview.before,
      after: preview.after,
      permission: change.permission,
      checkerPermission: change.fourEyes.checkerPermission ?? null,
      rule: "always",
      thresholdSen: null,
      makerId: request.actor.id,
      expiresAt: sql`now() + make_interval(hours => ${change.fourEyes.expiresInHours ?? DEFAULT_REQUEST_HOURS})`,
    });
  });
}

/** An approved standalone change applied, unless what it changes moved since (409). */
async function applyStandalone(
  tx: Tx,
  change: StandaloneChange,
  request: ChangeRequestRow,
  maker: AdministratorRow,
  checker: AdministratorRow,
) {
  const before = (request.before ?? {}) as Item;
  const state = await change.read(tx);
  refuseMoved(before, state);
  await change.apply(tx, { actor: maker, body: request.body as Item, approvedBy: checker.id });
}

/** 409 RECORD_CHANGED when a field the request saw (`before`) differs in `record` now. */
function refuseMoved(before: Item, record: Item) {
  const moved = changedKeys(before, pick(record, Object.keys(before)));
  if (moved.length > 0) {
    throw conflict(
      "RECORD_CHANGED",
      "The record changed after this request was made; ask again from its current state",
      { fields: moved },
    );
  }
}

/** Whether `checker` may decide `request`: never its maker, and holding the codes it names. */
export function assertChecker(request: ChangeRequestRow, checker: AdministratorRow): void {
  if (request.makerId === checker.id) {
    throw forbidden(
      "SELF_APPROVAL",
      "You made this change request: another administrator must decide it",
    );
  }
  for (const code of [request.permission, request.checkerPermission]) {
    if (code !== null && !checker.isSuperAdmin && !checker.permissions.includes(code)) {
      throw forbidden(
        "NOT_A_CHECKER",
        `Deciding this change request needs permission code ${code}, which you do not hold`,
      );
    }
  }
}

/**
 * Whether the maker could still make the change they asked for: an approval applies it as theirs,
 * so a maker disabled or banned since, or who lost the code it needs, has it refused (409
 * MAKER_NOT_ALLOWED) and the request keeps why.
 */
function assertMakerMayStill(request: ChangeRequestRow, maker: AdministratorRow): void {
  if (maker.status !== "active") {
    throw conflict(
      "MAKER_NOT_ALLOWED",
      "The administrator who asked for this change is no longer active",
      { reason: "inactive" },
    );
  }
  const code = request.permission;
  if (code !== null && !maker.isSuperAdmin && !maker.permissions.includes(code)) {
    throw conflict(
      "MAKER_NOT_ALLOWED",
      `The administrator who asked for this change no longer holds permission code ${code}`,
      { reason: "permission", code },
    );
  }
}

/**
 * Applies an approved request's change in the caller's transaction (the approval's, which has
 * locked the request and checked it is pending and `checker` may decide it), as its maker made
 * it, its audit entries naming the checker. Answers the record it changed or made: its id, and
 * for a new one the words that name it (its title field).
 */
export async function applyChangeRequest(
  tx: Tx,
  request: ChangeRequestRow,
  checker: AdministratorRow,
): Promise<{ id: number; title?: string } | undefined> {
  const standalone = STANDALONE.get(request.module);
  const bound = REGISTERED.get(request.module);
  const held = bound && heldOf(bound, request.action);
  if (!held && standalone?.action !== request.action) {
    throw conflict(
      "CHANGE_NOT_DECLARED",
      `The change "${request.module} ${request.action}" no longer needs a second approver`,
    );
  }
  const [maker] = await tx
    .select()
    .from(administrators)
    .where(eq(administrators.id, request.makerId));
  if (!maker) throw conflict("MAKER_GONE", "The administrator who asked for it no longer exists");
  assertMakerMayStill(request, maker);
  if (!bound || !held) {
    await applyStandalone(tx, standalone!, request, maker, checker);
    return undefined;
  }
  if (request.recordId === null) {
    const created = await createRecord(tx, bound, {
      actor: maker,
      body: request.body,
      approvedBy: checker.id,
    });
    return { id: created.id as number, title: String(created[bound.module.titleField] ?? "") };
  }
  const before = (request.before ?? {}) as Item;
  await applyChange(tx, bound, held.change!, {
    actor: maker,
    id: request.recordId,
    body: request.body,
    approvedBy: checker.id,
    expect: (record) => {
      refuseMoved(before, record);
      const amount = amountOf(held.fourEyes, request.body, record);
      if (amount !== request.amountSen) {
        throw conflict("AMOUNT_CHANGED", "The amount changed after this request was made", {
          requestedSen: request.amountSen,
          nowSen: amount,
        });
      }
    },
  });
  return { id: request.recordId };
}

/** Keeps why an approval was refused on the request (its transaction rolled back). */
export async function recordRefusal(db: Db, id: number, error: unknown): Promise<void> {
  // Its own refusals (not pending, not a checker) say nothing about the change.
  if (!(error instanceof HttpError) || error.statusCode === 403) return;
  if (error.code === REQUEST_DECIDED) return;
  await db
    .update(changeRequests)
    .set({ failureCode: error.code, failureMessage: error.message, failedAt: sql`now()` })
    .where(and(eq(changeRequests.id, id), eq(changeRequests.status, "pending")));
}
