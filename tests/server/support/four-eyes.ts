/**
 * Four eyes in the API's tests: a change that waits for a second approver (202) approved by
 * another administrator, the way a checker would, answered as the change itself would have
 * been (the record, 200 or 201), so a test of a rule reads the same with or without a checker.
 */
import { expect } from "vitest";

import type { App } from "../../../server/app";
import { DECLARED_MODULES } from "../../../server/kit/declared";
import {
  CHANGE_REASON_HEADER,
  isPendingApproval,
  type PendingApprovalAnswer,
} from "../../../src/shared/kit/four-eyes";
import { auth, DEMO, login } from "./session";

/** A maker's reason, as the header carries it, for tests of rules rather than of four eyes. */
export const A_REASON = { [CHANGE_REASON_HEADER]: "Test%20fixture" };

import type { InjectOptions } from "light-my-request";

const checkers = new WeakMap<App, Promise<string>>();

/** The token of the demo's second super administrator, signed in once per app. */
export function checkerToken(app: App): Promise<string> {
  let token = checkers.get(app);
  if (!token) {
    token = login(app, DEMO.approver).then((session) => session.token);
    checkers.set(app, token);
  }
  return token;
}

/** Approves change request `id` as `token`'s holder, with a remark. */
export const approve = (app: App, token: string, id: number, remark = "Checked against the slip") =>
  app.inject({
    method: "PATCH",
    url: `/v1/api/change-requests/${id}`,
    headers: auth(token),
    payload: { action: "approve", remark },
  });

/**
 * The change `options` asks for, approved by `checker` (the second super administrator unless
 * told) when it waits for one: a refusal (at the request or at the approval) is answered as it
 * is; an approved change answers its record as the direct call would (201 for a new record, else
 * 200), and a change of no module's record what its URL reads.
 */
export async function injectApproved(app: App, options: InjectOptions, checker?: string) {
  const made = await app.inject(options);
  // A 202 of another kind (a reset link sent) is the change's own answer.
  if (made.statusCode !== 202 || !isPendingApproval(made.json())) return made;
  const { changeRequest } = made.json<PendingApprovalAnswer>();
  const token = checker ?? (await checkerToken(app));
  const decided = await approve(app, token, changeRequest.id);
  if (decided.statusCode !== 200) return decided;
  const { module, action, resultId } = decided.json<{
    module: string;
    action: string;
    resultId: number;
  }>();
  const declared = DECLARED_MODULES.find((each) => each.name === module);
  const record = await app.inject({
    method: "GET",
    // A change of no module's record (the settings) is read where it was made.
    url: declared ? `/v1/api/${declared.collection}/${resultId}` : options.url!,
    // The checker's eyes: the maker may have lost sight of it (a permission given up).
    headers: auth(token),
  });
  expect(record.statusCode, record.body).toBe(200);
  return Object.assign(record, { statusCode: action === "create" ? 201 : 200 });
}
