/**
 * Global (20): the service's settings read and changed by staff, and the part the wallet app
 * reads without a session (the rules are server/services/global-settings.ts).
 */
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

import {
  appConfigSchema,
  globalSettingsAnswer,
  globalSettingsBody,
} from "../../src/shared/global-settings";
import { PERMISSION } from "../../src/shared/permissions";
import { errorResponses } from "../../src/shared/schemas/common";
import { currentAdmin } from "../auth/access";
import {
  appConfigOf,
  changeGlobalSettings,
  globalSettingsAnswerOf,
  readGlobalSettings,
} from "../services/global-settings";
import type { RouteDeps } from "../http/deps";

export const globalSettingsRoutes: FastifyPluginAsyncZod<RouteDeps> = async (
  app,
  { db, config },
) => {
  const access = { permission: PERMISSION.global, thing: "Global Settings" } as const;

  app.get(
    "/api/global-settings",
    {
      config: { access },
      schema: {
        tags: ["global-settings"],
        summary: "The service's settings (Global)",
        response: { 200: globalSettingsAnswer, ...errorResponses(401, 403) },
      },
    },
    async () => globalSettingsAnswerOf(db, config),
  );

  app.patch(
    "/api/global-settings",
    {
      config: { access },
      schema: {
        tags: ["global-settings"],
        summary: "Change some of the service's settings (audited, old and new values)",
        body: globalSettingsBody,
        response: { 200: globalSettingsAnswer, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      await changeGlobalSettings(db, currentAdmin(request).id, request.body);
      return globalSettingsAnswerOf(db, config);
    },
  );

  app.get(
    "/api/public/app-config",
    {
      config: { access: "public" },
      schema: {
        tags: ["public"],
        summary: "Maintenance and minimum app versions, for the wallet app (no session)",
        response: { 200: appConfigSchema },
      },
    },
    async (_request, reply) => {
      reply.header("cache-control", "no-cache");
      return appConfigOf(await readGlobalSettings(db));
    },
  );
};
