import { helper } from "./nested";
import { format } from "./format";

export const main = () => format(helper());
