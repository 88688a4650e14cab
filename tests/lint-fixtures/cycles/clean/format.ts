import { helper } from "./nested/index";

export const format = (text: string) => `${text} ${helper()}`;
