import { lazy } from "react";

/** The shell's own pages, each its own chunk (resources declare theirs in src/resources). */
export const DashboardPage = lazy(() => import("./dashboard/dashboard-page"));
export const StatisticPage = lazy(() => import("./statistic/statistic-page"));
export const SettingPage = lazy(() => import("./setting/setting-page"));
export const GlobalPage = lazy(() => import("./global/global-page"));

// Signed-in administrators never need Refine's AuthPage and the form engine it brings.
export const LoginPage = lazy(() => import("./pages/login"));
// Public: the wallet user's page behind the e-mailed reset link.
export const ResetPasswordPage = lazy(() => import("./pages/reset-password"));

// Rarely seen, and antd's Result carries large illustrations: fetched only when needed.
export const NotFoundPage = lazy(() =>
  import("./pages/not-found").then((module) => ({ default: module.NotFoundPage })),
);
export const ForbiddenPage = lazy(() =>
  import("./pages/forbidden").then((module) => ({ default: module.ForbiddenPage })),
);
