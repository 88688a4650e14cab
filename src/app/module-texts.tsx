import { use, type ReactNode } from "react";

import { loadModuleTexts } from "../providers/i18n";

/**
 * Renders a module's page once the modules' words are loaded (the first module page opened
 * fetches them; the frame's Suspense shows the page loading meanwhile), so no page ever shows a
 * translation key.
 */
export function ModuleTexts({ children }: { children: ReactNode }) {
  use(loadModuleTexts());
  return children;
}
