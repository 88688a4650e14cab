/**
 * axe-core on every screen in Chinese, in the dark theme, 480 px wide (a phone): no serious or
 * critical violation. The screens and the walk are in support/accessibility.ts;
 * accessibility-en.spec.ts is the other pass, a file of its own so the two run side by side.
 */
import { checkEveryScreen, PASSES } from "./support/accessibility";
import { test, useSuperAdminServer } from "./support/fixtures";

const suite = useSuperAdminServer(81);

test("every screen, in Chinese, the dark theme and 480 px, has no serious or critical accessibility violation", async ({
  page,
}) => {
  test.setTimeout(600_000);
  await checkEveryScreen(page, suite, PASSES[1]);
});
