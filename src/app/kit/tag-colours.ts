import type { TagColour } from "../../shared/kit/module";
import { STATUS_COLOURS } from "../theme";

export type TagColours = { color: string; background: string; borderColor: string };

/** Dark text on a light tint keeps every tag at 4.5:1 or better (antd's presets fall short). */
export const TAG_COLOURS: Record<TagColour, TagColours> = {
  green: STATUS_COLOURS.active,
  grey: STATUS_COLOURS.disabled,
  red: STATUS_COLOURS.banned,
  gold: { color: "#614700", background: "#fffbe6", borderColor: "#ffe58f" },
  blue: { color: "#003a8c", background: "#e6f4ff", borderColor: "#91caff" },
  cyan: { color: "#00474f", background: "#e6fffb", borderColor: "#87e8de" },
  purple: { color: "#391085", background: "#f9f0ff", borderColor: "#d3adf7" },
  orange: { color: "#873800", background: "#fff7e6", borderColor: "#ffd591" },
  magenta: { color: "#780650", background: "#fff0f6", borderColor: "#ffadd2" },
};
