/** One record of a module (`GET /api/<collection>/{id}`) and its history (`…/{id}/audit`). */
import { getTableName } from "drizzle-orm";

import { errorResponses, idParamsSchema } from "../../../src/shared/schemas/common";
import { auditListSchema, auditQuerySchema } from "../../../src/shared/schemas/user-actions";
import { listAudit } from "../../audit";
import { currentAdmin } from "../../auth/access";
import { notFound } from "../../errors";
import type { ModuleRoute, RouteContext } from "./route";

type Route<K extends ModuleRoute["kind"]> = Extract<ModuleRoute, { kind: K }>;

export function registerShow({ api, db, bound, tags }: RouteContext, route: Route<"show">): void {
  const { module } = bound;
  api.get(
    route.url,
    {
      config: { access: route.access },
      schema: {
        tags,
        summary: `One ${module.thing.one}`,
        params: idParamsSchema,
        response: { 200: module.item, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const item = await bound.read(db, request.params.id, currentAdmin(request));
      if (!item) throw notFound(module.thing.one);
      return item;
    },
  );
}

export function registerHistory(
  { api, db, bound, tags }: RouteContext,
  route: Route<"history">,
): void {
  const { module, binding } = bound;
  api.get(
    route.url,
    {
      config: { access: route.access },
      schema: {
        tags,
        summary: `The audit entries about one ${module.thing.one}, newest first`,
        params: idParamsSchema,
        querystring: auditQuerySchema,
        response: { 200: auditListSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      // Through the module's own read, so a scoped module answers only its own records.
      const viewer = currentAdmin(request);
      if (!(await bound.read(db, request.params.id, viewer))) throw notFound(module.thing.one);
      return listAudit(db, getTableName(binding.table), request.params.id, request.query);
    },
  );
}
