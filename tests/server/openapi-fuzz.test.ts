/**
 * The property-based fuzz of the whole API from its OpenAPI document (support/fuzz.ts) in CI: a
 * few thousand generated cases on every operation, no 5xx, no refused-by-the-document input
 * accepted, no aggregation query ignored. `npm run bench:fuzz` runs many more.
 */
import { beforeAll, expect, it } from "vitest";

import { PERMISSION_CODES } from "../../src/shared/permissions";
import { createAdmin, useSignedInApp, walletAppToken } from "./support/app";
import { describeFailure, runFuzz } from "./support/fuzz";
import { openApiDocument, operationsOf, type Operation } from "./support/openapi";
import { fuzzRuns, FUZZ_SEED } from "./support/fuzz-plan";

const suite = useSignedInApp();
let operations: Operation[] = [];
let actor = { token: "", id: 0 };
let walletToken = "";

beforeAll(async () => {
  operations = operationsOf(await openApiDocument(suite.app));
  // Its own administrator, holding every code: the fuzz cannot lock the suite's session out.
  const created = await createAdmin(suite.app, suite.token, [...PERMISSION_CODES]);
  actor = { token: created.token, id: created.admin.id };
  walletToken = await walletAppToken(suite.testDb);
});

it("answers every generated case as its OpenAPI document says, and never with a 5xx", async () => {
  const seed = Number(process.env.FUZZ_SEED ?? FUZZ_SEED);
  const result = await runFuzz({
    app: suite.app,
    token: actor.token,
    walletToken,
    operations,
    runsPerOperation: (operation) => fuzzRuns(operation, 1),
    seed,
    context: { avoidIds: [actor.id] },
  });
  console.info(
    `fuzz (seed ${seed}): ${result.cases} cases, ${result.failures.length} failures; statuses ${JSON.stringify(result.statuses)}`,
  );
  expect(result.failures.map(describeFailure).slice(0, 20)).toEqual([]);
  expect(result.cases).toBeGreaterThanOrEqual(2000);
  // The cases reached the routes' own checks: most were not refused for want of access.
  const denied = (result.statuses[401] ?? 0) + (result.statuses[403] ?? 0);
  expect(denied / result.cases).toBeLessThan(0.1);
  const still = await suite.app.inject({
    url: "/v1/api/account/admin",
    headers: { authorization: actor.token },
  });
  expect(still.statusCode, "the fuzzing administrator's session survived").toBe(200);
}, 240_000);
