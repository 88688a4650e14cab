/**
 * The money stories' calls to the API beside the browser (money.spec, four-eyes.spec): as a
 * demo login, the top-ups of an account and an account with room for another top-up.
 */
import type { RunningServer } from "./server";

export interface Login {
  email: string;
  password: string;
}

export interface TopUp {
  id: number;
  accountNumber: string;
  amountSen: number;
  balanceAfterSen: number;
}

/** `path` of the API as `login` (signed in for the call), its JSON answer; throws unless 2xx. */
export async function apiAs<T>(
  server: RunningServer,
  login: Login,
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<T> {
  const session = await fetch(`${server.url}/v1/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(login),
  });
  const { token } = (await session.json()) as { token: string };
  const answer = await fetch(`${server.url}/v1${path}`, {
    method: init.method ?? "GET",
    headers: {
      Authorization: token,
      ...(init.body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  if (!answer.ok) throw new Error(`${path}: ${answer.status} ${await answer.text()}`);
  return (await answer.json()) as T;
}

/** Up to 100 top-ups matching `filter`, newest first, as the API lists them. */
async function topUpsWhere(server: RunningServer, login: Login, filter: object) {
  const query = new URLSearchParams({
    filter: JSON.stringify(filter),
    pagination: JSON.stringify({ page: 1, pageSize: 100 }),
  });
  const { topUpTransactions } = await apiAs<{ topUpTransactions: TopUp[] }>(
    server,
    login,
    `/api/top-up-transactions/aggregation?${query.toString()}`,
  );
  return topUpTransactions;
}

/** The top-ups of one account, newest first. */
export const topUpsOf = (server: RunningServer, login: Login, accountNumber: string) =>
  topUpsWhere(server, login, { accountNumber });

/**
 * An account whose latest top-up left it well below every limit of the demo policy: room for a
 * counter top-up of RM 300.
 */
export async function roomyAccount(server: RunningServer, login: Login): Promise<string> {
  const seen = new Set<string>();
  for (const topUp of await topUpsWhere(server, login, { status: "success" })) {
    if (seen.has(topUp.accountNumber)) continue;
    seen.add(topUp.accountNumber);
    if (topUp.balanceAfterSen < 40_000 && topUp.amountSen <= 10_000) return topUp.accountNumber;
  }
  throw new Error("no demo account with room for a top-up");
}
