/**
 * A module's actions (`PATCH|POST /api/<collection>/{id}[/<path>]`): each is one change of one
 * record through runChange (lock, guard, the module's handler, audit). The edit form is one
 * too, and registers through registerChange (./forms.ts).
 */
import type { z } from "zod";

import type { ActionDecl, ModuleDecl } from "../../../src/shared/kit/module";
import { errorResponses, idParamsSchema } from "../../../src/shared/schemas/common";
import { currentAdmin } from "../../auth/access";
import type { ActionHandler } from "../bind";
import { runChange, textOf } from "../change";
import type { ModuleRoute, RouteContext } from "./route";

/** One change of one record as a route states it. */
export interface Change {
  handler: ActionHandler<unknown>;
  body: z.ZodType;
  summary: string;
  when: Readonly<Record<string, readonly string[]>>;
  conflictCode: string;
  /** The body's text the audit entry keeps as its remark. */
  remarkField: string;
  audit: (body: { action?: string }) => string;
}

export function registerAction(
  context: RouteContext,
  route: Extract<ModuleRoute, { kind: "action" }>,
): void {
  const { module, binding } = context.bound;
  const { action } = route;
  const handlers = (binding.actions ?? {}) as Record<string, ActionHandler<unknown>>;
  registerChange(context, route, {
    handler: handlers[route.name]!,
    body: action.body,
    summary: actionSummary(module, action),
    when: action.when,
    conflictCode: action.conflictCode,
    remarkField: action.input.name,
    audit: (body) =>
      `${action.audit}.${action.kind === "decision" ? body.action : action.verbs[0]}`,
  });
}

/** Registers a change of one record (an action, the edit form) at `route`. */
export function registerChange(
  { api, db, bound, tags }: RouteContext,
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
      response: { 200: bound.module.item, ...errorResponses(400, 401, 403, 404, 409) },
    },
    handler: async (request) => {
      const body = request.body as { action?: string };
      return runChange(db, bound, change.handler, {
        actor: currentAdmin(request),
        id: request.params.id,
        body,
        when: change.when,
        conflictCode: change.conflictCode,
        remark: textOf(body, change.remarkField),
        audit: change.audit(body),
      });
    },
  });
}

const guardText = (when: ActionDecl["when"]) =>
  Object.entries(when)
    .map(([key, values]) => `${key} ${values.join(" or ")}`)
    .join(" and ");

function actionSummary(module: ModuleDecl, action: ActionDecl): string {
  return action.kind === "decision"
    ? `Approve or reject a ${module.thing.one} (${guardText(action.when)}), with a remark`
    : `${action.verbs[0]} a ${module.thing.one} (${guardText(action.when)}), with a ${action.input.name}`;
}
