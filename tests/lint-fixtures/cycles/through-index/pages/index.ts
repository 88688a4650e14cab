export { menu } from "../menu";
export const pages = ["home"];
