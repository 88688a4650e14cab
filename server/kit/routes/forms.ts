/**
 * A module's create form (`POST /api/<collection>`: the handler inserts, the kit reads the new
 * record and audits it) and edit form (`PATCH /api/<collection>/{id}`: one change of one
 * record, as an action is).
 */
import { pendingApprovalAnswer } from "../../../src/shared/kit/four-eyes";
import { errorResponses } from "../../../src/shared/schemas/common";
import { currentAdmin } from "../../auth/access";
import { createRecord } from "../change";
import { heldOf, holdForApproval, stepUpOf } from "../four-eyes";
import { answerEtag, versionsOf } from "../versions";
import { fourEyesText, registerChange, STEP_UP_TEXT } from "./actions";
import type { ModuleRoute, RouteContext } from "./route";

type Route<K extends ModuleRoute["kind"]> = Extract<ModuleRoute, { kind: K }>;

export function registerCreate(
  { api, db, bound, tags }: RouteContext,
  route: Route<"create">,
): void {
  const { module } = bound;
  const { form } = route;
  const held = heldOf(bound, "create");
  const stepUp = stepUpOf(bound, "create");
  const description = [held && fourEyesText(held), stepUp && STEP_UP_TEXT].filter(Boolean);
  api.post(
    route.url,
    {
      config: { access: route.access, stepUp, versions: versionsOf(module) && { etag: true } },
      schema: {
        tags,
        summary: `Add a new ${module.thing.one}`,
        ...(description.length > 0 && { description: description.join(" ") }),
        body: form.body,
        response: {
          201: module.item,
          ...(held && { 202: pendingApprovalAnswer }),
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (request, reply) => {
      const actor = currentAdmin(request);
      const body = request.body;
      const pending = await holdForApproval(db, held, { actor, body, headers: request.headers });
      if (pending) return reply.code(202).send(pending);
      const created = await db.transaction((tx) => createRecord(tx, bound, { actor, body }));
      answerEtag(bound, reply, created.id as number, created);
      return reply.code(201).send(created);
    },
  );
}

export function registerEdit(context: RouteContext, route: Route<"edit">): void {
  registerChange(context, route, {
    name: "edit",
    body: route.form.body,
    summary: `Change a ${context.bound.module.thing.one}`,
  });
}
