/**
 * Saved views (issue 35, docs/saved-views.md): a list's filters, sort, columns, widths and page
 * size under a name, private or shared with the administrators holding the list's permission.
 * Every route names the list (`{module}`, a declared module's name) and needs that module's
 * permission; a view's state is checked against the module's declaration when it is saved, and
 * what the list no longer has is left out (and named) when it is read. Not audited: a view moves
 * no money and gives no power, and its row keeps its owner and when it last changed.
 */
import { and, count, eq, or, sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";

import type { ModuleDecl } from "../../src/shared/kit/module";
import { holdsPermission } from "../../src/shared/permissions";
import {
  createViewBody,
  defaultViewBody,
  openableState,
  SAVED_VIEW_LIMITS,
  savedViewListSchema,
  savedViewSchema,
  stateOverLimit,
  updateViewBody,
  viewStateSchemaOf,
  type SavedView,
  type ViewState,
} from "../../src/shared/saved-views";
import { errorResponses, ID_MAX } from "../../src/shared/schemas/common";
import { decimalIntegerText } from "../../src/shared/text";
import { currentAdmin, noPermissionMessage } from "../auth/access";
import type { Db } from "../db";
import { administrators, savedViewDefaults, savedViews } from "../db/schema";
import { HttpError, isUniqueViolation, notFound } from "../errors";
import { DECLARED_MODULES } from "../kit/declared";
import type { RouteDeps } from "../http/deps";

/** The lists a view can be saved for: every declared module with a list page. */
const LISTS = new Map(
  DECLARED_MODULES.filter((module) => !module.detailOnly).map((module) => [module.name, module]),
);
const LIST_NAMES = [...LISTS.keys()] as [string, ...string[]];

const moduleParams = z.strictObject({
  module: z.enum(LIST_NAMES).meta({ description: "The list: a declared module's name" }),
});
const viewParams = moduleParams.extend({ id: decimalIntegerText(1, ID_MAX) });

const TAGS = ["saved-views"];
const ACCESS_NOTE =
  "Needs the permission code of the module named by {module} (as its list does): 403 without " +
  "it, 400 for a name that is no list.";

type ViewRow = typeof savedViews.$inferSelect & { ownerName: string };

/** The module a request names (its params are validated: a name that is no list is a 400). */
function listOf(request: FastifyRequest): ModuleDecl {
  const name = (request.params as { module?: unknown }).module;
  const module = typeof name === "string" ? LISTS.get(name) : undefined;
  if (!module) throw notFound("List");
  return module;
}

/**
 * Before the input is validated (a preValidation hook), so that a caller without the list's code
 * learns nothing from validation errors: 403 unless the administrator may open the list. A name
 * that is no list is left to the params' schema (400).
 */
async function mayReadList(request: FastifyRequest) {
  const name = (request.params as { module?: unknown }).module;
  const module = typeof name === "string" ? LISTS.get(name) : undefined;
  if (module && !holdsPermission(currentAdmin(request), module.permission)) {
    throw new HttpError(
      403,
      noPermissionMessage(request.method, `Saved Views of ${module.thing.many}`),
    );
  }
}

/** 400 when a state passes a count limit or breaks the module's declaration; else the state. */
function checkedState(module: ModuleDecl, state: ViewState): ViewState {
  const over = stateOverLimit(state);
  if (over) {
    throw new HttpError(
      400,
      `A view keeps at most ${over.limit} ${over.part}`,
      "SAVED_VIEW_TOO_LARGE",
      over,
    );
  }
  const result = viewStateSchemaOf(module).safeParse(state);
  if (!result.success) {
    const issues = result.error.issues.map((issue) => ({
      path: ["state", ...issue.path.map(String)].join("."),
      message: issue.message,
    }));
    const first = issues[0]!;
    throw new HttpError(
      400,
      `Invalid ${first.path}: the list cannot keep this (${first.message})`,
      "SAVED_VIEW_INVALID",
      { issues },
    );
  }
  return result.data as ViewState;
}

function answerOf(module: ModuleDecl, row: ViewRow, adminId: number): SavedView {
  const { state, dropped } = openableState(module, row.state);
  return {
    id: row.id,
    name: row.name,
    shared: row.shared,
    mine: row.ownerId === adminId,
    owner: { id: row.ownerId, name: row.ownerName },
    state,
    dropped,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The views of `module` that `adminId` may see: their own and the shared ones. */
function visible(module: string, adminId: number) {
  return and(
    eq(savedViews.module, module),
    or(eq(savedViews.ownerId, adminId), eq(savedViews.shared, true)),
  );
}

const viewColumns = {
  id: savedViews.id,
  ownerId: savedViews.ownerId,
  module: savedViews.module,
  name: savedViews.name,
  shared: savedViews.shared,
  state: savedViews.state,
  createdAt: savedViews.createdAt,
  updatedAt: savedViews.updatedAt,
  ownerName: administrators.name,
};

async function readVisible(db: Db, module: string, adminId: number, id: number) {
  const [row] = await db
    .select(viewColumns)
    .from(savedViews)
    .innerJoin(administrators, eq(administrators.id, savedViews.ownerId))
    .where(and(eq(savedViews.id, id), visible(module, adminId)));
  if (!row) throw notFound("Saved view");
  return row;
}

const nameTaken = (name: string) =>
  new HttpError(
    409,
    `You already have a view named "${name}" for this list`,
    "SAVED_VIEW_NAME_TAKEN",
    {
      name,
    },
  );

/** Renames and deletions of one's own views, and of shared ones by a super administrator. */
function refuseUnlessOwner(
  row: ViewRow,
  admin: { id: number; isSuperAdmin: boolean },
  what: string,
) {
  if (row.ownerId === admin.id) return;
  if (row.shared && admin.isSuperAdmin && what !== "change") return;
  throw new HttpError(
    403,
    row.shared && what !== "change"
      ? "Only the view's owner or a super administrator may do this"
      : "Only the view's owner may change it",
    "SAVED_VIEW_NOT_OWNER",
  );
}

export const savedViewRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db }) => {
  const config = { access: "session" as const };
  const guarded = { preValidation: mayReadList };

  app.get(
    "/api/saved-views/:module",
    {
      config,
      ...guarded,
      schema: {
        tags: TAGS,
        summary: "The saved views of a list the administrator may open: their own and the shared",
        description:
          `${ACCESS_NOTE} A part of a stored view naming a field or value the list no longer ` +
          "has is left out of `state` and named in `dropped`.",
        params: moduleParams,
        response: { 200: savedViewListSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const admin = currentAdmin(request);
      const module = listOf(request);
      const rows = await db
        .select(viewColumns)
        .from(savedViews)
        .innerJoin(administrators, eq(administrators.id, savedViews.ownerId))
        .where(visible(module.name, admin.id))
        .orderBy(sql`lower(${savedViews.name})`, savedViews.id);
      const [chosen] = await db
        .select({ viewId: savedViewDefaults.viewId })
        .from(savedViewDefaults)
        .where(
          and(eq(savedViewDefaults.adminId, admin.id), eq(savedViewDefaults.module, module.name)),
        );
      const views = rows.map((row) => answerOf(module, row, admin.id));
      // A default the administrator can no longer see (made private by its owner) is none.
      const defaultViewId = views.some((view) => view.id === chosen?.viewId)
        ? chosen!.viewId
        : null;
      return { views, defaultViewId };
    },
  );

  app.post(
    "/api/saved-views/:module",
    {
      config,
      ...guarded,
      schema: {
        tags: TAGS,
        summary: "Save a list's state as a view, private or shared",
        description:
          `${ACCESS_NOTE} The state may name only the list's filterable fields (values of ` +
          "their kind), sortable fields and listed columns, and a page size the list offers: " +
          `400 SAVED_VIEW_INVALID otherwise; at most ${SAVED_VIEW_LIMITS.filters} filters, ` +
          `${SAVED_VIEW_LIMITS.sorters} sorts and ${SAVED_VIEW_LIMITS.columns} columns ` +
          "(400 SAVED_VIEW_TOO_LARGE). A name the administrator already gave a view of this " +
          `list (any case): 409 SAVED_VIEW_NAME_TAKEN; at most ${SAVED_VIEW_LIMITS.viewsPerList} ` +
          "views per list: 409 SAVED_VIEW_LIMIT.",
        params: moduleParams,
        body: createViewBody,
        response: { 201: savedViewSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const admin = currentAdmin(request);
      const module = listOf(request);
      const state = checkedState(module, request.body.state);
      const { name, shared } = request.body;
      const row = await db.transaction(async (tx) => {
        // One administrator's saves of one list take turns, so the count below holds.
        await tx.execute(
          sql`select pg_advisory_xact_lock(hashtext(${`saved-views:${admin.id}:${module.name}`}))`,
        );
        const [held] = await tx
          .select({ n: count() })
          .from(savedViews)
          .where(and(eq(savedViews.ownerId, admin.id), eq(savedViews.module, module.name)));
        if ((held?.n ?? 0) >= SAVED_VIEW_LIMITS.viewsPerList) {
          throw new HttpError(
            409,
            `You keep at most ${SAVED_VIEW_LIMITS.viewsPerList} views of one list`,
            "SAVED_VIEW_LIMIT",
            { limit: SAVED_VIEW_LIMITS.viewsPerList },
          );
        }
        try {
          const [inserted] = await tx
            .insert(savedViews)
            .values({ ownerId: admin.id, module: module.name, name, shared, state })
            .returning();
          return inserted!;
        } catch (error) {
          if (isUniqueViolation(error)) throw nameTaken(name);
          throw error;
        }
      });
      return reply.code(201).send(answerOf(module, { ...row, ownerName: admin.name }, admin.id));
    },
  );

  app.patch(
    "/api/saved-views/:module/:id",
    {
      config,
      ...guarded,
      schema: {
        tags: TAGS,
        summary: "Rename a view, change its state or share it (its owner)",
        description:
          `${ACCESS_NOTE} Only the owner changes a view's state or sharing; a super ` +
          "administrator may also rename a shared view (403 SAVED_VIEW_NOT_OWNER otherwise). " +
          "The state is checked as when saved; 409 SAVED_VIEW_NAME_TAKEN for a name in use.",
        params: viewParams,
        body: updateViewBody,
        response: { 200: savedViewSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const admin = currentAdmin(request);
      const module = listOf(request);
      const row = await readVisible(db, module.name, admin.id, request.params.id);
      const { name, shared, state } = request.body;
      const changesMore = shared !== undefined || state !== undefined;
      refuseUnlessOwner(row, admin, changesMore ? "change" : "rename");
      const checked = state === undefined ? undefined : checkedState(module, state);
      const set = {
        ...(name !== undefined ? { name } : {}),
        ...(shared !== undefined ? { shared } : {}),
        ...(checked !== undefined ? { state: checked } : {}),
      };
      if (Object.keys(set).length === 0) return answerOf(module, row, admin.id);
      try {
        const [updated] = await db
          .update(savedViews)
          .set({ ...set, updatedAt: new Date() })
          .where(eq(savedViews.id, row.id))
          .returning();
        if (!updated) throw notFound("Saved view");
        return answerOf(module, { ...updated, ownerName: row.ownerName }, admin.id);
      } catch (error) {
        if (isUniqueViolation(error)) throw nameTaken(name ?? row.name);
        throw error;
      }
    },
  );

  app.delete(
    "/api/saved-views/:module/:id",
    {
      config,
      ...guarded,
      schema: {
        tags: TAGS,
        summary: "Delete a view (its owner; a shared one also a super administrator)",
        description: `${ACCESS_NOTE} Whoever had it as their default opens the list as it is.`,
        params: viewParams,
        response: {
          204: z.undefined().describe("Deleted"),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const admin = currentAdmin(request);
      const module = listOf(request);
      const row = await readVisible(db, module.name, admin.id, request.params.id);
      refuseUnlessOwner(row, admin, "delete");
      await db.delete(savedViews).where(eq(savedViews.id, row.id));
      return reply.status(204).send();
    },
  );

  app.put(
    "/api/saved-views/:module/default",
    {
      config,
      ...guarded,
      schema: {
        tags: TAGS,
        summary: "Choose the view the list opens with for the administrator (null: none)",
        description: `${ACCESS_NOTE} The view must be one the administrator may see (404 otherwise).`,
        params: moduleParams,
        body: defaultViewBody,
        response: {
          200: z.strictObject({ defaultViewId: z.number().int().nullable() }),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) => {
      const admin = currentAdmin(request);
      const module = listOf(request);
      const { viewId } = request.body;
      const mine = and(
        eq(savedViewDefaults.adminId, admin.id),
        eq(savedViewDefaults.module, module.name),
      );
      if (viewId === null) {
        await db.delete(savedViewDefaults).where(mine);
        return { defaultViewId: null };
      }
      await readVisible(db, module.name, admin.id, viewId);
      await db
        .insert(savedViewDefaults)
        .values({ adminId: admin.id, module: module.name, viewId })
        .onConflictDoUpdate({
          target: [savedViewDefaults.adminId, savedViewDefaults.module],
          set: { viewId },
        });
      return { defaultViewId: viewId };
    },
  );
};
