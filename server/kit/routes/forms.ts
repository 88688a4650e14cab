/**
 * A module's create form (`POST /api/<collection>`: the handler inserts, the kit reads the new
 * record and audits it) and edit form (`PATCH /api/<collection>/{id}`: one change of one
 * record, as an action is).
 */
import { getTableName } from "drizzle-orm";

import { errorResponses } from "../../../src/shared/schemas/common";
import { recordAudit } from "../../audit";
import { currentAdmin } from "../../auth/access";
import { notFound } from "../../errors";
import type { ActionHandler, CreateHandler } from "../bind";
import { auditSnapshot, textOf } from "../change";
import { registerChange } from "./actions";
import type { ModuleRoute, RouteContext } from "./route";

type Route<K extends ModuleRoute["kind"]> = Extract<ModuleRoute, { kind: K }>;

export function registerCreate(
  { api, db, bound, tags }: RouteContext,
  route: Route<"create">,
): void {
  const { module, binding } = bound;
  const { form } = route;
  const handler = binding.create as CreateHandler<unknown>;
  api.post(
    route.url,
    {
      config: { access: route.access },
      schema: {
        tags,
        summary: `Add a new ${module.thing.one}`,
        body: form.body,
        response: { 201: module.item, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const actor = currentAdmin(request);
      const created = await db.transaction(async (tx) => {
        const id = await handler(tx, { actor, body: request.body });
        const after = await bound.read(tx, id);
        if (!after) throw notFound(module.thing.one);
        await recordAudit(tx, {
          adminId: actor.id,
          action: `${form.audit}.create`,
          targetTable: getTableName(binding.table),
          targetId: id,
          remark: textOf(request.body, "remark"),
          before: null,
          after: auditSnapshot(after),
        });
        return after;
      });
      return reply.code(201).send(created);
    },
  );
}

export function registerEdit(context: RouteContext, route: Route<"edit">): void {
  const { form } = route;
  registerChange(context, route, {
    action: { run: context.bound.binding.edit as ActionHandler<unknown> },
    body: form.body,
    summary: `Change a ${context.bound.module.thing.one}`,
    when: form.when ?? {},
    conflictCode: form.conflictCode ?? "CONFLICT",
    remarkField: "remark",
    audit: () => `${form.audit}.update`,
    quietWhenUnchanged: form.quietWhenUnchanged ?? false,
  });
}
