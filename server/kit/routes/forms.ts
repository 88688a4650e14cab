/**
 * A module's create form (`POST /api/<collection>`: the handler inserts, the kit reads the new
 * record and audits it) and edit form (`PATCH /api/<collection>/{id}`: one change of one
 * record, as an action is).
 */
import { pendingApprovalAnswer } from "../../../src/shared/kit/four-eyes";
import { errorResponses } from "../../../src/shared/schemas/common";
import { currentAdmin } from "../../auth/access";
import { createRecord } from "../change";
import { heldOf, holdForApproval } from "../four-eyes";
import { fourEyesText, registerChange } from "./actions";
import type { ModuleRoute, RouteContext } from "./route";

type Route<K extends ModuleRoute["kind"]> = Extract<ModuleRoute, { kind: K }>;

export function registerCreate(
  { api, db, bound, tags }: RouteContext,
  route: Route<"create">,
): void {
  const { module } = bound;
  const { form } = route;
  const held = heldOf(bound, "create");
  api.post(
    route.url,
    {
      config: { access: route.access },
      schema: {
        tags,
        summary: `Add a new ${module.thing.one}`,
        ...(held && { description: fourEyesText(held) }),
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
