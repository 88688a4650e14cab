/**
 * The conformance suite of the module kit: every bound module (server/modules) is held to the
 * same contract without a line written for it here. Its list answers the aggregation contract;
 * each filterable field filters and every other field is refused; each sortable field sorts;
 * every route answers 401 without a session and 403 without the module's code; each action
 * refuses bad bodies and records its audit entry in the same call.
 */
import { and, eq, getTableName } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";

import type { BoundModule } from "../../server/kit/bind";
import { moduleRoutes } from "../../server/kit/routes";
import { BOUND_MODULES } from "../../server/modules";
import { businessDayOf } from "../../server/business-day";
import { auditLog } from "../../server/db/schema";
import {
  enumValuesOf,
  filterKindsOf,
  guardOf,
  type ActionDecl,
  type FieldDecl,
} from "../../src/shared/kit/module";
import { auth, DEMO, login, tokensLacking } from "./support/app";
import { A_REASON, injectApproved } from "./support/four-eyes";
import { call, useUserDeskSuite } from "./support/user-fixtures";

const suite = useUserDeskSuite();
let superToken = "";
/** Per module code: an administrator holding every code but that one. */
let lacking = new Map<number, string>();

beforeAll(async () => {
  superToken = (await login(suite.app, DEMO.superAdmin)).token;
  const codes = BOUND_MODULES.map((bound) => bound.module.permission);
  lacking = await tokensLacking(
    suite.app,
    superToken,
    codes.filter((code) => code !== null),
  );
}, 120_000);

type Row = Record<string, unknown> & { id: number };

/** The verb the suite exercises: a decision's reject (undone by nothing), a remark action's one. */
const verbOf = (action: ActionDecl) => (action.kind === "decision" ? "reject" : action.verbs[0]!);
/** Whether the action's body takes a text the suite can vary (a remark, a bank reference). */
const takesText = (action: ActionDecl) =>
  action.kind === "decision" || action.kind === "remark" || action.optionalRemark === true;
const validBody = (action: ActionDecl): Record<string, unknown> =>
  action.kind === "decision"
    ? { action: "reject", remark: "conformance" }
    : action.choice
      ? {
          [action.choice.field]: action.choice.values[verbOf(action)],
          ...(action.optionalRemark ? { [action.input.name]: "conformance" } : {}),
        }
      : action.kind === "form"
        ? {}
        : { [action.input.name]: "conformance" };
/** A guard's value as a list filter takes it (a boolean field's as a boolean). */
const filterValue = (value: string | undefined) =>
  value === "true" ? true : value === "false" ? false : value;
interface ListBody {
  totalCount: number;
  totalCountExact: boolean;
  [key: string]: unknown;
}

function listRoute(bound: BoundModule) {
  return moduleRoutes(bound).find((route) => route.kind === "list");
}

const query = (params: Record<string, unknown>) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) search.set(key, JSON.stringify(value));
  return search.toString();
};

async function list(bound: BoundModule, params: Record<string, unknown>) {
  const route = listRoute(bound)!;
  const response = await call(suite.app, superToken, "GET", `${route.url}?${query(params)}`);
  return response;
}

async function rowsOf(bound: BoundModule, params: Record<string, unknown>) {
  const response = await list(bound, { pagination: { page: 1, pageSize: 100 }, ...params });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json<ListBody>()[bound.module.queryName] as Row[]) ?? [];
}

const fieldsOf = (bound: BoundModule) =>
  Object.entries(bound.module.fields) as Array<[string, FieldDecl]>;

/** A value of `field` that some row of the list has, to filter by. */
async function sampleValue(bound: BoundModule, field: string, decl: FieldDecl) {
  const values = enumValuesOf(decl.schema);
  if (decl.filter === "boolean") return true;
  const rows = await rowsOf(bound, {});
  // A closed set: a value some row has (an audit log's area may have no entry yet), else the first.
  if (values)
    return rows.map((row) => row[field]).find((v) => values.includes(String(v))) ?? values[0];
  return rows.map((row) => row[field]).find((value) => value !== null && value !== undefined);
}

/** A date filter's day is a business day (BUSINESS_TIMEZONE), not the instant's UTC date. */
const dayOf = (value: unknown) => businessDayOf(new Date(String(value)));

const compare = (a: unknown, b: unknown) =>
  typeof a === "number" && typeof b === "number"
    ? a - b
    : String(a).localeCompare(String(b), "en", { sensitivity: "variant" });

describe.each(BOUND_MODULES.map((bound) => [bound.module.name, bound] as const))(
  "module %s",
  (_name, bound) => {
    const { module } = bound;
    const ownList = listRoute(bound);

    // A view without a list of its own is checked through the list of the module it views.
    if (ownList)
      describe("its list", () => {
        it("answers the aggregation contract, each row the declared record", async () => {
          const response = await list(bound, {});
          expect(response.statusCode, response.body).toBe(200);
          const body = response.json<ListBody>();
          expect(body.totalCount).toEqual(expect.any(Number));
          expect(body.totalCountExact).toEqual(expect.any(Boolean));
          const rows = body[module.queryName] as Row[];
          expect(Array.isArray(rows)).toBe(true);
          expect(rows.length).toBeLessThanOrEqual(10);
          for (const row of rows) expect(module.item.safeParse(row).error).toBeUndefined();
        });

        for (const [field, decl] of fieldsOf(bound).filter(([, d]) => d.filter)) {
          it(`filters by ${field} (${decl.filter})`, async () => {
            const value = await sampleValue(bound, field, decl);
            if (value === undefined) return; // no row has one: nothing to compare with
            const condition = decl.filter === "dateRange" ? { $lte: dayOf(value) } : value;
            const rows = await rowsOf(bound, { filter: { [field]: condition } });
            if (decl.filterOnly) return; // not part of the record: answering is what can be seen
            expect(rows.length).toBeGreaterThan(0);
            for (const row of rows) {
              if (decl.filter === "dateRange") {
                expect(dayOf(row[field]) <= dayOf(value)).toBe(true);
              } else if (decl.filter === "text") {
                expect(String(row[field]).toLowerCase()).toBe(String(value).toLowerCase());
              } else {
                expect(row[field]).toEqual(value);
              }
            }
          });
        }

        it("refuses a filter on every other field, and on unknown ones, with 400 INVALID_QUERY", async () => {
          const others = [
            ...fieldsOf(bound)
              .filter(([, d]) => !d.filter)
              .map(([field]) => field),
            "noSuchField",
          ];
          for (const field of others) {
            const response = await list(bound, { filter: { [field]: "x" } });
            expect(response.statusCode, `${field}: ${response.body}`).toBe(400);
            expect(response.json<{ code: string }>().code).toBe("INVALID_QUERY");
          }
        });

        for (const [field] of fieldsOf(bound).filter(([, d]) => d.sort)) {
          it(`sorts by ${field} both ways`, async () => {
            for (const direction of [1, -1] as const) {
              const values = (await rowsOf(bound, { sort: { [field]: direction } }))
                .map((row) => row[field])
                .filter((value) => value !== null && value !== undefined);
              const sorted = [...values].sort((a, b) => direction * compare(a, b));
              if (filterKindsOf(module.fields[field]!.schema)[0] !== "text") {
                expect(values).toEqual(sorted);
              } else {
                // Text sorts by the database's collation; compare case-insensitively.
                const lower = values.map((value) => String(value).toLowerCase());
                const expected = [...lower].sort((a, b) => direction * compare(a, b));
                expect(lower.length).toBe(expected.length);
              }
            }
          });
        }

        it("refuses to sort by a field that is not sortable", async () => {
          const unsortable = fieldsOf(bound).find(([, d]) => !d.sort && !d.filterOnly);
          if (!unsortable) return;
          const response = await list(bound, { sort: { [unsortable[0]]: 1 } });
          expect(response.statusCode, response.body).toBe(400);
        });
      });

    describe("its routes", () => {
      for (const route of moduleRoutes(bound)) {
        const url = route.url.replace(":id", "1");
        const payload =
          route.kind === "action"
            ? validBody(route.action)
            : route.kind === "create" || route.kind === "edit"
              ? {}
              : undefined;
        it(`${route.method} ${route.url}: 401 without a session`, async () => {
          const response = await suite.app.inject({
            method: route.method,
            url: `/v1${url}`,
            ...(payload ? { payload } : {}),
          });
          expect(response.statusCode).toBe(401);
        });
        it.runIf(route.access !== "public" && route.access !== "session")(
          `${route.method} ${route.url}: 403 without the module's code`,
          async () => {
            const code = typeof route.access === "object" ? route.access.permission : -1;
            const response = await call(suite.app, lacking.get(code)!, route.method, url, payload);
            expect(response.statusCode, response.body).toBe(403);
          },
        );
      }
    });

    // A form action's body is the module's own (a URL), and an action on another record (a
    // rider's verification) finds its records there: their rules are their module's tests.
    for (const route of moduleRoutes(bound).filter((r) => r.kind === "action")) {
      if (route.kind !== "action" || route.action.kind === "form" || route.action.of) continue;
      const { action } = route;
      describe(`its action ${route.name}`, () => {
        const source = ownList ? bound : BOUND_MODULES.find((b) => b.module === module.viewOf)!;
        /** Records the action applies to, found through the list they belong to. */
        const targets = async () => {
          const filter = { ...module.fixedFilters } as Record<string, unknown>;
          for (const [field, allowed] of Object.entries(guardOf(action, verbOf(action)))) {
            filter[field] = filterValue(allowed[0]);
          }
          const rows = await rowsOf(source, { filter });
          expect(rows[0], "a record the action applies to").toBeDefined();
          return rows;
        };
        // A change that waits for a second approver is approved by another (four eyes).
        const send = (row: Row, body: unknown) =>
          injectApproved(suite.app, {
            method: route.method,
            url: `/v1${route.url.replace(":id", String(row.id))}`,
            headers: { ...auth(superToken), ...A_REASON },
            ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
          });
        const valid = validBody(action);
        /** The body with its text (the remark, or the action's own input) set to `text`. */
        const withText = (text: unknown) =>
          takesText(action) ? { ...valid, [action.input.name]: text } : valid;

        // An action whose work lies outside the record (a reset link e-mailed) takes no body.
        const effect = action.answer;
        /** The action's audit entries of `row`. */
        const auditOf = (row: Row) =>
          suite.db
            .select()
            .from(auditLog)
            .where(
              and(
                eq(auditLog.targetTable, getTableName(bound.binding.table)),
                eq(auditLog.targetId, String(row.id)),
                eq(auditLog.action, `${action.audit}.${verbOf(action)}`),
              ),
            );

        it("refuses bad bodies with 400, changing nothing", async () => {
          const [row] = await targets();
          for (const body of effect
            ? [{ extra: 1 }, []]
            : [
                {},
                ...(takesText(action)
                  ? [
                      withText(""),
                      withText("   "),
                      withText(5),
                      withText("x".repeat(action.input.max + 1)),
                      withText("a\u0000b"),
                    ]
                  : []),
                { ...valid, extra: 1 },
                ...(action.kind === "decision" ? [{ ...valid, action: "maybe" }] : []),
              ]) {
            const response = await send(row!, body);
            expect(response.statusCode, JSON.stringify(body)).toBe(400);
          }
          const [again] = await rowsOf(source, { filter: { id: row!.id } });
          expect(again).toEqual(row);
        });

        if (effect) {
          it("answers its declared answer once its effect is done, audited each time", async () => {
            const [row] = await targets();
            const audited = () => auditOf(row!);
            const before = (await audited()).length;
            for (const time of [1, 2]) {
              const response = await send(row!, undefined);
              expect(response.statusCode, response.body).toBe(effect.status);
              expect(effect.response.safeParse(response.json()).error).toBeUndefined();
              expect(await audited()).toHaveLength(before + time);
            }
            const [again] = await rowsOf(source, { filter: { id: row!.id } });
            expect(again).toEqual(row);
          });
          return;
        }

        // Who may take an action offered to one person (a request's maker, its checker) is the
        // module's rule: tests/server/four-eyes.test.ts.
        if (action.offeredTo) return;

        it("records its audit entry with the change, and refuses the record afterwards with 409", async () => {
          // The first record the module's own rules let it change (a reversal needs the money
          // still in the wallet: a refusal for that reason is the module's, with its own code).
          let row: Row | undefined;
          let response: Awaited<ReturnType<typeof send>> | undefined;
          for (const candidate of (await targets()).slice(0, 10)) {
            response = await send(candidate, withText("Conformance check"));
            if (response.statusCode !== 409) {
              row = candidate;
              break;
            }
            expect(response.json<{ code: string }>().code).not.toBe(action.conflictCode);
          }
          expect(response?.statusCode, response?.body).toBe(200);
          expect(module.item.safeParse(response!.json()).error).toBeUndefined();
          const entries = await auditOf(row!);
          expect(entries).toHaveLength(1);
          expect(entries[0]).toMatchObject({
            remark: takesText(action) ? "Conformance check" : null,
          });
          const twice = await send(row!, withText("Again"));
          expect(twice.statusCode).toBe(409);
          expect(twice.json<{ code: string }>().code).toBe(action.conflictCode);
        });
      });
    }

    for (const route of moduleRoutes(bound)) {
      if (route.kind !== "create" && route.kind !== "edit") continue;
      it(`its ${route.kind} form refuses bad bodies with 400, adding or changing nothing`, async () => {
        const before = await list(bound, {});
        const url = route.url.replace(":id", String((await rowsOf(bound, {}))[0]?.id ?? 1));
        for (const body of [{ unknownField: 1 }, [], { remark: 5 }]) {
          const response = await call(suite.app, superToken, route.method, url, body);
          expect(response.statusCode, JSON.stringify(body)).toBe(400);
        }
        if (route.kind === "create") {
          const response = await call(suite.app, superToken, route.method, url, {});
          expect(response.statusCode, response.body).toBe(400);
        }
        expect((await list(bound, {})).json()).toEqual(before.json());
      });
    }
  },
);
