/**
 * A module's actions (`PATCH|POST /api/<collection>/{id}[/<path>]`): each is one change of one
 * record through runChange (lock, guard, the module's handler, audit), or, when it needs a
 * second approver, a change request (../four-eyes.ts). The edit form is one too, and registers
 * through registerChange (./forms.ts).
 */
import type { z } from "zod";

import { eq } from "drizzle-orm";

import type { FastifyReply, FastifyRequest } from "fastify";

import {
  CHANGE_REASON_HEADER,
  FOUR_EYES_THRESHOLDS,
  pendingApprovalAnswer,
} from "../../../src/shared/kit/four-eyes";
import {
  guardOf,
  type ActionAlias,
  type ActionAnswer,
  type ActionDecl,
  type ModuleDecl,
} from "../../../src/shared/kit/module";
import {
  errorBodySchema,
  errorResponses,
  idParamsSchema,
} from "../../../src/shared/schemas/common";
import { currentAdmin } from "../../auth/access";
import { notFound } from "../../errors";
import type { ActionBinding } from "../bind";
import { declaredChange, runChange } from "../change";
import { heldOf, holdForApproval, stepUpOf, type Held } from "../four-eyes";
import { answerEtag, checkVersion, requestedVersion, versionsOf } from "../versions";
import { isVersioned } from "../../../src/shared/kit/versions";
import type { ModuleRoute, RouteContext } from "./route";

/** One change of one record as a route states it: the change, its body, what it answers. */
export interface RouteChange {
  /** The action's name, or `edit`: its declared change (declaredChange) and its four eyes. */
  name: string;
  body: z.ZodType;
  summary: string;
  /** What it answers instead of the record, after its effect (ActionDecl.answer). */
  answer?: ActionAnswer;
}

export function registerAction(
  context: RouteContext,
  route: Extract<ModuleRoute, { kind: "action" }>,
): void {
  const { module } = context.bound;
  const { action } = route;
  registerChange(context, route, {
    name: route.name,
    body: action.body,
    summary: actionSummary(module, action),
    ...(action.answer && { answer: action.answer }),
  });
  for (const alias of action.aliases ?? []) {
    const access =
      typeof route.access === "object" ? { ...route.access, thing: alias.thing } : route.access;
    registerAlias(context, { ...route, access }, alias);
  }
}

/**
 * A change's answers: the declared answer (and its effect's failures), or `item` with 200; 202
 * with the change request when it waits for a second approver.
 */
function responsesOf(answer: ActionAnswer | undefined, item: z.ZodType, held: Held | undefined) {
  const errors = errorResponses(400, 401, 403, 404, 409);
  const pending = held && { 202: pendingApprovalAnswer };
  if (!answer) return { 200: item, ...pending, ...errors };
  return {
    [answer.status]: answer.response,
    ...errors,
    ...(answer.failures?.includes(502) && { 502: errorBodySchema }),
  };
}

/** Runs the action's effect once its change has committed and answers what the effect made. */
async function answerAfter(
  deps: RouteContext["deps"],
  action: ActionBinding<unknown>,
  answer: ActionAnswer,
  result: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const body = await action.after!(result, { ...deps, log: request.log });
  return reply.status(answer.status).send(body);
}

/** The OpenAPI description of a change: its 409, and its four eyes when it has them. */
function changeDescription(
  action: Pick<ActionDecl, "conflictCode" | "when">,
  held: Held | undefined,
  stepUp: boolean,
  versioned: boolean,
) {
  const conflict = `409 ${action.conflictCode} when the record is not ${guardText(action.when) || "changeable"}.`;
  return [conflict, versioned && IF_MATCH_TEXT, held && fourEyesText(held), stepUp && STEP_UP_TEXT]
    .filter(Boolean)
    .join(" ");
}

/** What the OpenAPI document says of a change of a versioned record (docs/versions.md). */
export const IF_MATCH_TEXT =
  'If-Match (optional): the ETag of the record the change is based on ("<collection>/<id>/' +
  '<version>", as GET one answers it); 409 VERSION_CONFLICT when the record has moved on ' +
  "(data: the record now, its version, who changed it last and when), checked after the " +
  "change's own guard; 400 IF_MATCH_INVALID when malformed, 400 IF_MATCH_OTHER_RECORD when it " +
  "names another record. No If-Match, or *, changes the record whatever its version. The " +
  "answer's ETag names the new version.";

/** What the OpenAPI document says of a change declared `stepUp`. */
export const STEP_UP_TEXT =
  "Step-up: the session's holder must have proved who they are within STEP_UP_MINUTES (a " +
  "second factor when they have one; POST /api/auth/step-up), else 403 STEP_UP_REQUIRED.";

/** What the OpenAPI document says of a change that may wait for a second approver. */
export function fourEyesText(held: Held): string {
  const { above, unlessNoChecker } = held.fourEyes;
  const when = above
    ? `when its amount is above the wallet policy's ${FOUR_EYES_THRESHOLDS[above]}`
    : unlessNoChecker
      ? "always, unless no other active administrator could check it"
      : "always";
  const reason =
    held.name === "create" || held.name === "edit"
      ? `the ${CHANGE_REASON_HEADER} header (percent-encoded)`
      : `the ${CHANGE_REASON_HEADER} header (percent-encoded), else the body's ` +
        `${held.change!.remarkField}`;
  return (
    `Four eyes (${when}; the wallet policy in force may turn it off): the change is not ` +
    `applied but answered 202 with a change request, which another administrator approves ` +
    `(PATCH /api/change-requests/{id}); the reason is ${reason}.`
  );
}

/**
 * A declared action's alias (ActionAlias): the record found by the field the body names (404
 * when none), the action's body made from the alias's, run as the action (a second approver
 * included), answered in the alias's own shape.
 */
export function registerAlias(
  { api, db, deps, bound, tags }: RouteContext,
  route: Pick<ModuleRoute, "access"> & { name: string; action: ActionDecl },
  alias: ActionAlias,
): void {
  const { module, binding } = bound;
  const { action } = route;
  const change = declaredChange(bound, route.name);
  const held = heldOf(bound, route.name);
  const stepUp = stepUpOf(bound, route.name);
  const columns = (binding.columns ?? {}) as Record<string, unknown>;
  const column = (columns[alias.key.field] ??
    (binding.table as unknown as Record<string, unknown>)[alias.key.field]) as Parameters<
    typeof eq
  >[0];
  api.route({
    method: alias.method,
    url: alias.url,
    config: { access: route.access, stepUp, versions: versionsOf(module) },
    schema: {
      tags: alias.tag ? [alias.tag] : tags,
      summary: alias.summary,
      description: `The same change as ${action.method} /api/${module.collection}/{id}/${action.path ?? ""}. ${changeDescription(action, held, stepUp, isVersioned(module))}`,
      body: alias.body,
      response: responsesOf(
        action.answer && { ...action.answer, response: alias.response ?? action.answer.response },
        alias.response ?? change.action.answer?.response ?? module.item,
        held,
      ),
    },
    handler: async (request, reply) => {
      const aliasBody = request.body as Record<string, unknown>;
      const [found] = await db
        .select({ id: binding.table.id })
        .from(binding.table)
        .where(eq(column, aliasBody[alias.key.from]));
      if (!found) throw notFound((module.viewOf ?? module).thing.one);
      const id = found.id as number;
      const done = await heldOrRun(
        { db, bound },
        change,
        held,
        request,
        reply,
        id,
        alias.toBody(aliasBody),
      );
      if ("pending" in done) return reply.code(202).send(done.pending);
      const { item, result } = done;
      if (action.answer) {
        return answerAfter(deps, change.action, action.answer, result, request, reply);
      }
      if (alias.answer) return alias.answer(item);
      return change.action.answer ? change.action.answer.read(db, id) : item;
    },
  });
}

/**
 * One change of record `id` from a request, for the action route and its alias alike: its
 * If-Match read (400 when malformed or another record's), then held for a second approver (202
 * with the request; a maker who saw an old version is refused now, before it is stored) or run
 * (the version checked under the row lock), answering the record's ETag.
 */
async function heldOrRun(
  { db, bound }: Pick<RouteContext, "db" | "bound">,
  change: ReturnType<typeof declaredChange>,
  held: Held | undefined,
  request: FastifyRequest,
  reply: FastifyReply,
  id: number,
  body: unknown,
): Promise<{ pending: unknown } | { item: Record<string, unknown>; result: unknown }> {
  const actor = currentAdmin(request);
  const versioned = requestedVersion(bound, request, id);
  if (held && versioned.expectedVersion !== undefined) {
    const record = await bound.read(db, id);
    if (record) {
      await checkVersion(db, bound, id, record, versioned.expectedVersion, versioned.language);
    }
  }
  const pending = await holdForApproval(db, held, { actor, id, body, headers: request.headers });
  if (pending) return { pending };
  const done = await runChange(db, bound, change, { actor, id, body, ...versioned });
  answerEtag(bound, reply, id, done.item);
  return done;
}

/** Registers a change of one record (an action, the edit form) at `route`. */
export function registerChange(
  { api, db, deps, bound, tags }: RouteContext,
  route: Pick<ModuleRoute, "method" | "url" | "access">,
  routeChange: RouteChange,
): void {
  const change = declaredChange(bound, routeChange.name);
  const held = heldOf(bound, routeChange.name);
  const stepUp = stepUpOf(bound, routeChange.name);
  api.route({
    method: route.method,
    url: route.url,
    config: { access: route.access, stepUp, versions: versionsOf(bound.module) },
    schema: {
      tags,
      summary: routeChange.summary,
      description: changeDescription(change, held, stepUp, isVersioned(bound.module)),
      params: idParamsSchema,
      body: routeChange.body,
      response: responsesOf(routeChange.answer, bound.module.item, held),
    },
    handler: async (request, reply) => {
      const { id } = request.params;
      const done = await heldOrRun({ db, bound }, change, held, request, reply, id, request.body);
      if ("pending" in done) return reply.code(202).send(done.pending);
      const { item, result } = done;
      return routeChange.answer
        ? answerAfter(deps, change.action, routeChange.answer, result, request, reply)
        : item;
    },
  });
}

const guardText = (when: ActionDecl["when"]) =>
  Object.entries(when)
    .map(([key, values]) => `${key} ${values.join(" or ")}`)
    .join(" and ");

function actionSummary(module: ModuleDecl, action: ActionDecl): string {
  const guards = action.verbs
    .map((verb) => guardText(guardOf(action, verb)))
    .filter((text, index, all) => text && all.indexOf(text) === index);
  const when = guards.length > 0 ? ` (${guards.join("; ")})` : "";
  switch (action.kind) {
    case "decision":
      return `Approve or reject a ${module.thing.one}${when}, with a remark`;
    case "remark":
      return `${action.verbs[0]} a ${module.thing.one}${when}, with a ${action.input.name}`;
    case "form":
      return `${action.verbs[0]} of a ${module.thing.one}${when}`;
    case "confirm":
      return `${action.verbs.join(" or ")} a ${module.thing.one}${when}${action.optionalRemark ? ", with a remark" : ""}`;
  }
}
