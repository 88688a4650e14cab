/**
 * The OpenAPI fuzz (tests/server/support/fuzz.ts) at scale: the same generators and verdicts as
 * the CI suite, on a fresh seeded database (PGlite, or DATABASE_URL), with many more cases. Prints
 * the cases run, the failures (each with its request and answer) and the statuses seen.
 *
 *   npm run bench:fuzz [-- --scale 20 --seed 1]
 */
import { PERMISSION_CODES } from "../src/shared/permissions";
import {
  createAdmin,
  createTestApp,
  DEMO,
  login,
  walletAppToken,
} from "../tests/server/support/app";
import { createTestDatabase } from "../tests/server/support/database";
import { describeFailure, runFuzz } from "../tests/server/support/fuzz";
import { fuzzRuns } from "../tests/server/support/fuzz-plan";
import { openApiDocument, operationsOf } from "../tests/server/support/openapi";

const args = new Map(
  process.argv
    .slice(2)
    .flatMap((arg, i, all) => (arg.startsWith("--") ? [[arg.slice(2), all[i + 1]]] : [])),
);
const SCALE = Number(args.get("scale") ?? 20);
const SEED = Number(args.get("seed") ?? Date.now() % 1_000_000_000);

const testDb = await createTestDatabase();
const app = await createTestApp(testDb);
try {
  const superToken = (await login(app, DEMO.superAdmin)).token;
  const actor = await createAdmin(app, superToken, [...PERMISSION_CODES]);
  const operations = operationsOf(await openApiDocument(app));
  const started = performance.now();
  const result = await runFuzz({
    app,
    token: actor.token,
    walletToken: await walletAppToken(testDb),
    operations,
    runsPerOperation: (operation) => fuzzRuns(operation, SCALE),
    seed: SEED,
    context: { avoidIds: [actor.admin.id] },
  });
  const seconds = (performance.now() - started) / 1000;
  for (const failure of result.failures.slice(0, 50)) console.log(describeFailure(failure));
  console.log(
    `database: ${testDb.kind}; seed ${SEED}; scale ${SCALE}; ${operations.length} operations`,
  );
  console.log(`statuses: ${JSON.stringify(result.statuses)}`);
  console.log(
    `cases run: ${result.cases}; failures: ${result.failures.length}; ${seconds.toFixed(1)} s ` +
      `(${Math.round(result.cases / seconds)} cases/s)`,
  );
  process.exitCode = result.failures.length > 0 ? 1 : 0;
} finally {
  await app.close();
  await testDb.destroy();
}
