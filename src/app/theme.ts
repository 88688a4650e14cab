import { theme as antdTheme, type ThemeConfig } from "antd";

import type { AdminTheme } from "../shared/domain";

export const BRAND_PRIMARY = "#014f86";

/**
 * A busy button keeps its colours: antd draws it at 65 % opacity, which took a red "Remove" to
 * 3.3:1 on white (axe, while a step-up dialog asked for the code) and a white-on-blue label below
 * 4.5:1 too. Its spinner already says it is busy.
 */
const LOADING_AT_FULL_COLOUR = { opacityLoading: 1 };
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
    // antd's success text (#389e0d, 3.6:1 on white) marks rises; this green is 9.2:1.
    colorSuccessText: "#135200",
    ...LOADING_AT_FULL_COLOUR,
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

/** Secondary text on dark surfaces: antd's 45 % white is 4.0:1 on #141414; 65 % is 7.0:1. */
const DARK_SECONDARY_TEXT = "rgba(255, 255, 255, 0.65)";
/** Text on a filled blue or red button in the dark theme (6.4:1 and 6.3:1). */
const DARK_SOLID_TEXT = "#000000";

/**
 * The brand on antd's dark algorithm: the light theme's fixed greys and white header would be
 * unreadable on dark surfaces, so they are left to the algorithm. No blue can carry white text at
 * 4.5:1 and also be read at 4.5:1 as text on the dark background, so the blue and red are light
 * ones the algorithm turns into #4292dc (5.6:1 on #141414) and #dc6966 (5.5:1), and filled
 * buttons write on them in black; the selected menu item keeps the deep brand blue under white.
 */
const darkTheme: ThemeConfig = {
  algorithm: antdTheme.darkAlgorithm,
  token: {
    colorPrimary: "#4aa8ff",
    colorInfo: "#4aa8ff",
    colorError: "#ff7875",
    colorLink: "#69b1ff",
    colorLinkHover: "#91caff",
    colorTextTertiary: DARK_SECONDARY_TEXT,
    colorTextDescription: DARK_SECONDARY_TEXT,
    ...LOADING_AT_FULL_COLOUR,
  },
  components: {
    Button: { primaryColor: DARK_SOLID_TEXT, dangerColor: DARK_SOLID_TEXT },
    Layout: { siderBg: "#001529", headerBg: "#141414", headerPadding: "0 16px" },
    Menu: {
      darkItemBg: "#001529",
      darkPopupBg: "#001529",
      darkSubMenuItemBg: "#000c17",
      darkItemSelectedBg: BRAND_PRIMARY,
    },
    Table: { colorTextDisabled: DARK_SECONDARY_TEXT },
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
