/**
 * The User (0) module's routes beside the kit's list: a user's detail, the actions on a user
 * (./actions-endpoints.ts), riders, top-up agents and the legacy /user-mgmt calls. Each is a
 * plugin of its own, so the riders' multipart body stays with the riders' routes.
 */
import type { ModuleEndpoints } from "../../kit/bind";
import { userActionEndpoints } from "./actions-endpoints";
import { agentEndpoints } from "./agents-endpoints";
import { userDetailEndpoints } from "./detail-endpoints";
import { riderEndpoints } from "./riders-endpoints";
import { userMgmtEndpoints } from "./user-mgmt-endpoints";

export const userEndpoints: ModuleEndpoints = async (app, deps) => {
  for (const endpoints of [
    userDetailEndpoints,
    userActionEndpoints,
    riderEndpoints,
    agentEndpoints,
    userMgmtEndpoints,
  ]) {
    await app.register(endpoints, deps);
  }
};
