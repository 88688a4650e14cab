/**
 * axe-core on every screen in English, in the light theme, 1366 px wide: no serious or critical
 * violation. The screens and the walk are in support/accessibility.ts; accessibility-cn.spec.ts
 * is the other pass (Chinese, dark, a phone), a file of its own so the two run side by side.
 */
import { checkEveryScreen, PASSES } from "./support/accessibility";
import { test, useSuperAdminServer } from "./support/fixtures";

const suite = useSuperAdminServer(80);

test("every screen, in English, the light theme and 1366 px, has no serious or critical accessibility violation", async ({
  page,
}) => {
  test.setTimeout(600_000);
  await checkEveryScreen(page, suite, PASSES[0]);
});
