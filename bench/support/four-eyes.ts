/**
 * Four eyes in the benchmarks (docs/four-eyes.md): a change the API holds for a second approver
 * (202) is approved by the second super administrator the server printed at start.
 */
import { CHANGE_REASON_HEADER, isPendingApproval } from "../../src/shared/kit/four-eyes";
import { demoLogins, type RunningServer } from "../../tests/e2e/support/server";

const approvers = new WeakMap<RunningServer, Promise<string>>();

/** The token of the second super administrator, signed in once per server. */
export function approverToken(server: RunningServer): Promise<string> {
  let token = approvers.get(server);
  if (!token) {
    token = (async () => {
      const login = demoLogins(server.output()).get("second super administrator");
      if (!login) throw new Error(`no second super administrator printed:\n${server.output()}`);
      const answer = await fetch(`${server.url}/v1/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(login),
      });
      if (!answer.ok) throw new Error(`approver login: ${answer.status} ${await answer.text()}`);
      return ((await answer.json()) as { token: string }).token;
    })();
    approvers.set(server, token);
  }
  return token;
}

/** The change `path` asks for with `token`, approved by the second super administrator when held. */
export async function changeApproved(
  server: RunningServer,
  token: string,
  method: string,
  path: string,
  body: object,
  reason = "Benchmark set-up",
): Promise<unknown> {
  const call = async (
    callMethod: string,
    callPath: string,
    callToken: string,
    payload?: object,
  ) => {
    const response = await fetch(`${server.url}/v1${callPath}`, {
      method: callMethod,
      headers: {
        authorization: callToken,
        [CHANGE_REASON_HEADER]: encodeURIComponent(reason),
        ...(payload ? { "content-type": "application/json" } : {}),
      },
      body: payload && JSON.stringify(payload),
    });
    if (!response.ok) {
      throw new Error(`${callMethod} ${callPath}: ${response.status} ${await response.text()}`);
    }
    return response.json() as Promise<unknown>;
  };
  const answer = await call(method, path, token, body);
  if (!isPendingApproval(answer)) return answer;
  return call(
    "PATCH",
    `/api/change-requests/${answer.changeRequest.id}`,
    await approverToken(server),
    {
      action: "approve",
      remark: reason,
    },
  );
}
