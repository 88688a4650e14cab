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
import { CHANGE_REASON_HEADER, pendingApprovalAnswer } from "../../src/shared/kit/four-eyes";
import { PERMISSION } from "../../src/shared/permissions";
import { errorResponses } from "../../src/shared/schemas/common";
import { currentAdmin } from "../auth/access";
import {
  appConfigOf,
  changeGlobalSettings,
  globalSettingsAnswerOf,
  globalSettingsChange,
  readGlobalSettings,
} from "../services/global-settings";
import type { RouteDeps } from "../http/deps";
import { holdStandalone, rememberStandalone } from "../kit/four-eyes";

export const globalSettingsRoutes: FastifyPluginAsyncZod<RouteDeps> = async (
  app,
  { db, config },
) => {
  rememberStandalone(globalSettingsChange);
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
      config: { access, stepUp: true },
      schema: {
        tags: ["global-settings"],
        summary: "Change some of the service's settings (audited, old and new values)",
        description:
          "Needs a second approver: a change is answered 202 with the change request another " +
          "administrator holding Global (20) approves (docs/four-eyes.md), its reason in the " +
          `${CHANGE_REASON_HEADER} header (percent-encoded). A body that changes nothing is ` +
          "answered 200 with the settings, as is a change whose four eyes the wallet policy in " +
          "force turned off (applied at once). 409 CHANGE_PENDING while a change waits.",
        body: globalSettingsBody,
        response: {
          200: globalSettingsAnswer,
          202: pendingApprovalAnswer,
          ...errorResponses(400, 401, 403, 409),
        },
      },
    },
    async (request, reply) => {
      const pending = await holdStandalone(db, globalSettingsChange, {
        actor: currentAdmin(request),
        body: request.body,
        headers: request.headers,
      });
      if (pending) return reply.code(202).send(pending);
      await db.transaction((tx) =>
        changeGlobalSettings(tx, { adminId: currentAdmin(request).id, body: request.body }),
      );
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
