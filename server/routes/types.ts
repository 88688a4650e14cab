import type { Config } from "../config";
import type { Db } from "../db";
import type { TokenService } from "../auth/tokens";

/** What every route plugin receives from buildApp. */
export interface RouteDeps {
  db: Db;
  config: Config;
  tokens: TokenService;
}
