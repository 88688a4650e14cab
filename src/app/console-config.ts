import type { ConfigProviderProps } from "antd/es/config-provider";
import type { Locale as AntdLocale } from "antd/es/locale";

import type { AdminTheme } from "../shared/domain";
import { consoleTheme } from "./theme";

/** The console's antd settings for the active language's antd locale and the chosen theme. */
export function consoleComponentConfig(
  locale: AntdLocale,
  theme?: AdminTheme | null,
): ConfigProviderProps {
  return {
    theme: consoleTheme(theme),
    locale,
    // antd would render two-character Chinese labels as "确 定".
    button: { autoInsertSpace: false },
    // rc-dialog names every close button "Close": name it in the console's language.
    modal: { closable: { "aria-label": locale.global?.close ?? "Close" } },
  };
}
