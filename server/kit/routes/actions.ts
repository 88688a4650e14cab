/**
 * A module's actions (`PATCH|POST /api/<collection>/{id}[/<path>]`): each is one change of one
 * record through runChange (lock, guard, the module's handler, audit). The edit form is one
 * too, and registers through registerChange (./forms.ts).
 */
import type { z } from "zod";

import { eq } from "drizzle-orm";

import type { FastifyReply, FastifyRequest } from "fastify";

import {
  auditNameOf,
  guardOf,
  verbOfBody,
  type ActionAlias,
  type ActionAnswer,
  type ActionOf,
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
import { actionBindingOf, type ActionBinding, type ActionHandler } from "../bind";
import { runChange, textOf } from "../change";
import type { ModuleRoute, RouteContext } from "./route";

/** One change of one record as a route states it. */
export interface Change {
  action: ActionBinding<unknown>;
  body: z.ZodType;
  summary: string;
  when: Readonly<Record<string, readonly string[]>>;
  /** The guard of the verb a body asks for, when it is not `when` (see ActionDecl.whenOf). */
  whenOf?: (body: unknown) => Readonly<Record<string, readonly string[]>>;
  /** The 409 message of the verb a body asks for, when the action words it. */
  refusalOf?: (body: unknown) => string | undefined;
  conflictCode: string;
  /** The body's text the audit entry keeps as its remark. */
  remarkField: string;
  audit: (body: { action?: string }) => string;
  quietWhenUnchanged?: boolean;
  /** The record of another table the change lands on (ActionDecl.of). */
  of?: ActionOf;
  /** What it answers instead of the record, after its effect (ActionDecl.answer). */
  answer?: ActionAnswer;
}

export function registerAction(
  context: RouteContext,
  route: Extract<ModuleRoute, { kind: "action" }>,
): void {
  const { module, binding } = context.bound;
  const { action } = route;
  const handlers = (binding.actions ?? {}) as Record<string, ActionHandler | ActionBinding>;
  registerChange(context, route, {
    action: actionBindingOf(handlers[route.name]!),
    body: action.body,
    summary: actionSummary(module, action),
    when: action.when,
    conflictCode: action.conflictCode,
    remarkField: action.input.name,
    audit: (body) => auditNameOf(action, body),
    ...changeOfAction(action),
  });
  for (const alias of action.aliases ?? []) {
    const access =
      typeof route.access === "object" ? { ...route.access, thing: alias.thing } : route.access;
    registerAlias(context, { ...route, access }, alias);
  }
}

/** What a declared action adds to a change: its guard and 409 message per verb, its quietness. */
function changeOfAction(action: ActionDecl): Partial<Change> {
  return {
    whenOf: (body) => guardOf(action, verbOfBody(action, body)),
    refusalOf: (body) => action.refusal?.[verbOfBody(action, body)],
    quietWhenUnchanged: action.quietWhenUnchanged ?? false,
    ...(action.of && { of: action.of }),
    ...(action.answer && { answer: action.answer }),
  };
}

/** A change's answers: the declared answer (and its effect's failures), or `item` with 200. */
function responsesOf(answer: ActionAnswer | undefined, item: z.ZodType) {
  const errors = errorResponses(400, 401, 403, 404, 409);
  if (!answer) return { 200: item, ...errors };
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

/**
 * A declared action's alias (ActionAlias): the record found by the field the body names (404
 * when none), the action's body made from the alias's, run as the action, answered in the
 * alias's own shape.
 */
export function registerAlias(
  { api, db, deps, bound, tags }: RouteContext,
  route: Pick<ModuleRoute, "access"> & { name: string; action: ActionDecl },
  alias: ActionAlias,
): void {
  const { module, binding } = bound;
  const { action } = route;
  const bindingOfAction = actionBindingOf(
    (binding.actions as Record<string, ActionHandler | ActionBinding>)[route.name]!,
  );
  const columns = (binding.columns ?? {}) as Record<string, unknown>;
  const column = (columns[alias.key.field] ??
    (binding.table as unknown as Record<string, unknown>)[alias.key.field]) as Parameters<
    typeof eq
  >[0];
  api.route({
    method: alias.method,
    url: alias.url,
    config: { access: route.access },
    schema: {
      tags: alias.tag ? [alias.tag] : tags,
      summary: alias.summary,
      description: `The same change as ${action.method} /api/${module.collection}/{id}/${action.path ?? ""}. 409 ${action.conflictCode} when the record is not ${guardText(action.when) || "changeable"}.`,
      body: alias.body,
      response: responsesOf(
        action.answer && { ...action.answer, response: alias.response ?? action.answer.response },
        alias.response ?? bindingOfAction.answer?.response ?? module.item,
      ),
    },
    handler: async (request, reply) => {
      const aliasBody = request.body as Record<string, unknown>;
      const [found] = await db
        .select({ id: binding.table.id })
        .from(binding.table)
        .where(eq(column, aliasBody[alias.key.from]));
      if (!found) throw notFound((module.viewOf ?? module).thing.one);
      const body = alias.toBody(aliasBody);
      const change = changeOfAction(action);
      const { item, result } = await runChange(db, bound, bindingOfAction, {
        of: action.of,
        actor: currentAdmin(request),
        id: found.id as number,
        body,
        when: change.whenOf!(body),
        conflictCode: action.conflictCode,
        conflictMessage: change.refusalOf!(body),
        quietWhenUnchanged: change.quietWhenUnchanged,
        remark: textOf(body, action.input.name),
        audit: auditNameOf(action, body),
      });
      if (action.answer) {
        return answerAfter(deps, bindingOfAction, action.answer, result, request, reply);
      }
      if (alias.answer) return alias.answer(item);
      return bindingOfAction.answer ? bindingOfAction.answer.read(db, found.id as number) : item;
    },
  });
}

/** Registers a change of one record (an action, the edit form) at `route`. */
export function registerChange(
  { api, db, deps, bound, tags }: RouteContext,
  route: Pick<ModuleRoute, "method" | "url" | "access">,
  change: Change,
): void {
  api.route({
    method: route.method,
    url: route.url,
    config: { access: route.access },
    schema: {
      tags,
      summary: change.summary,
      description: `409 ${change.conflictCode} when the record is not ${guardText(change.when) || "changeable"}.`,
      params: idParamsSchema,
      body: change.body,
      response: responsesOf(change.answer, bound.module.item),
    },
    handler: async (request, reply) => {
      const body = request.body as { action?: string };
      const { item, result } = await runChange(db, bound, change.action, {
        of: change.of,
        actor: currentAdmin(request),
        id: request.params.id,
        body,
        when: change.whenOf ? change.whenOf(body) : change.when,
        conflictCode: change.conflictCode,
        conflictMessage: change.refusalOf?.(body),
        quietWhenUnchanged: change.quietWhenUnchanged,
        remark: textOf(body, change.remarkField),
        audit: change.audit(body),
      });
      return change.answer
        ? answerAfter(deps, change.action, change.answer, result, request, reply)
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
