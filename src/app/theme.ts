import { theme as antdTheme, type ThemeConfig } from "antd";

import type { AdminTheme } from "../shared/domain";

export const BRAND_PRIMARY = "#014f86";
export const BRAND_ACCENT = "#2693ed";
const SIDER_BACKGROUND = "#012a4a";

/**
 * The brand on top of antd's defaults (antd's breakpoints are the product's, so they stay).
 * The accent colours info states and link hovers. Resting link text uses the primary colour:
 * #2693ed on white is 3.2:1, below the 4.5:1 WCAG AA asks of body text.
 */
export const brandTheme: ThemeConfig = {
  token: {
    colorPrimary: BRAND_PRIMARY,
    colorInfo: BRAND_ACCENT,
    colorLink: BRAND_PRIMARY,
    colorLinkHover: BRAND_ACCENT,
    colorLinkActive: "#013a63",
    // antd's #ff4d4f is 3.3:1 on white, too faint for error messages; this red is 5.6:1.
    colorError: "#cf1322",
    // antd's defaults for secondary text (45 % black, 3.4:1 on white) fall short of WCAG AA;
    // 62 % black reads as secondary yet keeps 5.9:1 even on the grey page background.
    colorTextTertiary: "rgba(0, 0, 0, 0.62)",
    colorTextDescription: "rgba(0, 0, 0, 0.62)",
  },
  components: {
    Layout: {
      siderBg: SIDER_BACKGROUND,
      headerBg: "#ffffff",
      headerPadding: "0 16px",
    },
    // A table's empty text is drawn in antd's disabled grey (25 % black, 1.9:1 on white), which
    // axe rightly flags: it is information, not a disabled control, so it reads as secondary text.
    Table: {
      colorTextDisabled: "rgba(0, 0, 0, 0.62)",
    },
    Menu: {
      darkItemBg: SIDER_BACKGROUND,
      darkPopupBg: SIDER_BACKGROUND,
      darkSubMenuItemBg: "#01223c",
      darkItemSelectedBg: BRAND_PRIMARY,
    },
  },
};

/**
 * The brand on antd's dark algorithm: the light theme's fixed greys and white header would be
 * unreadable on dark surfaces, so they are left to the algorithm; links take the accent, which
 * keeps 5.6:1 on antd's dark background where the primary blue would not.
 */
const darkTheme: ThemeConfig = {
  algorithm: antdTheme.darkAlgorithm,
  token: {
    colorPrimary: BRAND_ACCENT,
    colorInfo: BRAND_ACCENT,
    colorLink: "#69b1ff",
    colorLinkHover: "#91caff",
  },
  components: {
    Layout: { siderBg: "#001529", headerBg: "#141414", headerPadding: "0 16px" },
    Menu: { darkItemBg: "#001529", darkPopupBg: "#001529", darkSubMenuItemBg: "#000c17" },
  },
};

/** The console's antd theme for the administrator's choice (light unless they chose dark). */
export function consoleTheme(choice: AdminTheme | null | undefined): ThemeConfig {
  return choice === "dark" ? darkTheme : brandTheme;
}

/** Status colours chosen for at least 4.5:1 text contrast (antd's preset green is 3.4:1). */
export const STATUS_COLOURS = {
  active: { color: "#135200", background: "#f6ffed", borderColor: "#b7eb8f" },
  disabled: { color: "#434343", background: "#f5f5f5", borderColor: "#d9d9d9" },
  banned: { color: "#a8071a", background: "#fff1f0", borderColor: "#ffa39e" },
} as const;
