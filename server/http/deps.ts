import type { Config } from "../config";
import type { Db } from "../db";
import type { Sessions } from "../auth/sessions";
import type { TokenService } from "../auth/tokens";
import type { Counters } from "../rate-limit/counters";
import type { Mailer } from "../mail/transport";
import type { Readiness } from "./readiness";

/** What every route plugin receives from buildApp (a module's endpoints also get its bound module). */
export interface RouteDeps {
  db: Db;
  config: Config;
  tokens: TokenService;
  /** Staff sessions: opened by a sign-in, read by every request, ended by logout or idleness. */
  sessions: Sessions;
  /** The wallet app's tokens (sign-in issues them; "wallet" routes accept them). */
  walletTokens: TokenService;
  /** The rate-limit counters every server instance shares. */
  counters: Counters;
  /** Sends the server's mail (SMTP_URL, or .eml files in DATA_DIR/outbox). */
  mailer: Mailer;
  /** Whether the instance should be sent traffic, and its drain (docs/fleet.md). */
  readiness: Readiness;
}
