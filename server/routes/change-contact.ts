import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

import { registerModuleRoutes } from "../kit/bind";
import { changeContactModule } from "../services/change-contact";
import type { RouteDeps } from "./types";

/** Users' requests to change their e-mail or phone: the list, one submission, the decision. */
export const changeContactRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db }) => {
  registerModuleRoutes(app, db, changeContactModule);
};
