/**
 * The User (0) module's routes beside the kit's list and actions: a user's detail and history,
 * riders and the legacy /user-mgmt calls (ban, VIP, the agents' terms and the rider
 * verification are the declaration's actions, with aliases at their /user-mgmt paths). Each is a
 * plugin of its own, so the riders' multipart body stays with the riders' routes.
 */
import type { ModuleEndpoints } from "../../kit/bind";
import { userDetailEndpoints } from "./detail-endpoints";
import { riderEndpoints } from "./riders-endpoints";
import { statementEndpoints } from "./statement";
import { userMgmtEndpoints } from "./user-mgmt-endpoints";

export const userEndpoints: ModuleEndpoints = async (app, deps) => {
  for (const endpoints of [
    userDetailEndpoints,
    riderEndpoints,
    statementEndpoints,
    userMgmtEndpoints,
  ]) {
    await app.register(endpoints, deps);
  }
};
