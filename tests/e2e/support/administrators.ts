/**
 * A fresh administrator for a browser story, made through the API as the console would: the super
 * administrator asks for it (four eyes: a change request with a reason) and the second super
 * administrator approves it.
 */
import type { PendingApprovalAnswer } from "../../../src/shared/kit/four-eyes";
import { forgetUsedSteps } from "../../support/totp";
import { withDatabase } from "./database";
import { demoLogins, type RunningServer } from "./server";

async function logInThroughApi(server: RunningServer, login: { email: string; password: string }) {
  const answer = await fetch(`${server.url}/v1/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(login),
  });
  if (!answer.ok) throw new Error(`login failed: ${answer.status} ${await answer.text()}`);
  return ((await answer.json()) as { token: string }).token;
}

async function sendJson(url: string, token: string, method: string, body: unknown, reason = "") {
  const answer = await fetch(url, {
    method,
    headers: {
      Authorization: token,
      "content-type": "application/json",
      ...(reason && { "x-change-reason": encodeURIComponent(reason) }),
    },
    body: JSON.stringify(body),
  });
  if (!answer.ok) throw new Error(`${method} ${url}: ${answer.status} ${await answer.text()}`);
  return answer.json() as Promise<unknown>;
}

/**
 * A new active administrator holding `permissions`, named `name`, with a unique e-mail: created
 * with `superAdminToken` and approved by the second super administrator the server printed.
 */
export async function createAdministrator(
  server: RunningServer,
  superAdminToken: string,
  name: string,
  permissions: number[],
) {
  const admin = {
    name,
    email: `${name.toLowerCase().replace(/\W+/g, ".")}.${Date.now()}@wallet.example`,
    password: "Story#Start2026",
    permissions,
  };
  const { changeRequest } = (await sendJson(
    `${server.url}/v1/api/administrators`,
    superAdminToken,
    "POST",
    admin,
    `Browser story: ${name}`,
  )) as PendingApprovalAnswer;
  const approver = demoLogins(server.output()).get("second super administrator") ?? {
    email: "approver@wallet.example",
    password: "Approver#2026",
  };
  const decided = (await sendJson(
    `${server.url}/v1/api/change-requests/${changeRequest.id}`,
    await logInThroughApi(server, approver),
    "PATCH",
    { action: "approve", remark: "Agreed" },
  )) as { status: string; resultId: number };
  if (decided.status !== "approved") throw new Error(`not approved: ${JSON.stringify(decided)}`);
  return { ...admin, id: decided.resultId };
}

/**
 * Makes the last proof of identity of `email`'s open sessions two hours old (older than the
 * stories' STEP_UP_MINUTES), so their next sensitive change asks for a step-up.
 */
export async function ageProofOf(server: RunningServer, email: string) {
  await withDatabase(server.dataDir, (client) =>
    client.query(
      `update admin_sessions set verified_at = now() - interval '2 hours'
        where admin_id = (select id from administrators where email = $1) and ended_at is null`,
      [email],
    ),
  );
}

/**
 * As if the codes an administrator's app showed so far were long past: the server forgets the
 * last step it accepted, and the tests the steps they sent. A story then signs in and steps up
 * with the codes of now, instead of waiting 30 s for each step after those its earlier stories
 * used (each step is accepted once).
 */
export async function forgetUsedCodes(server: RunningServer, email: string, secret: string) {
  await withDatabase(server.dataDir, (client) =>
    client.query(
      `update admin_totp set last_step = null
        where admin_id = (select id from administrators where email = $1)`,
      [email],
    ),
  );
  forgetUsedSteps(secret);
}
