/** One record of a module (`GET /api/<collection>/{id}`) and its history (`…/{id}/audit`). */
import { getTableName } from "drizzle-orm";
import type { FastifyRequest } from "fastify";

import { errorResponses, idParamsSchema } from "../../../src/shared/schemas/common";
import { auditListSchema, auditQuerySchema } from "../../../src/shared/schemas/user-actions";
import { listAudit } from "../../audit";
import { currentAdmin } from "../../auth/access";
import { notFound } from "../../errors";
import { isVersioned } from "../../../src/shared/kit/versions";
import { answerEtag } from "../versions";
import type { ModuleRoute, RouteContext } from "./route";

type Route<K extends ModuleRoute["kind"]> = Extract<ModuleRoute, { kind: K }>;

/**
 * Record `id` of the bound module as the request's administrator sees it, or 404: through the
 * module's own read, so a scoped module answers only its own records.
 */
export async function readOr404({ db, bound }: RouteContext, request: FastifyRequest, id: number) {
  const item = await bound.read(db, id, currentAdmin(request));
  if (!item) throw notFound(bound.module.thing.one);
  return item;
}

export function registerShow(context: RouteContext, route: Route<"show">): void {
  const { api, bound, tags } = context;
  api.get(
    route.url,
    {
      config: {
        access: route.access,
        ...(isVersioned(bound.module) && { versions: { etag: true } }),
      },
      schema: {
        tags,
        summary: `One ${bound.module.thing.one}`,
        ...(isVersioned(bound.module) && {
          description:
            'Answers the record\'s ETag ("<collection>/<id>/<version>"): send it back as If-Match ' +
            "with a change based on this version (docs/versions.md).",
        }),
        params: idParamsSchema,
        response: { 200: bound.module.item, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const item = await readOr404(context, request, request.params.id);
      answerEtag(bound, reply, request.params.id, item);
      return item;
    },
  );
}

export function registerHistory(context: RouteContext, route: Route<"history">): void {
  const { api, db, bound, tags } = context;
  api.get(
    route.url,
    {
      config: { access: route.access },
      schema: {
        tags,
        summary: `The audit entries about one ${bound.module.thing.one}, newest first`,
        params: idParamsSchema,
        querystring: auditQuerySchema,
        response: { 200: auditListSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      await readOr404(context, request, request.params.id);
      return listAudit(db, getTableName(bound.binding.table), request.params.id, request.query);
    },
  );
}
