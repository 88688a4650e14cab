import { hub } from "./hub";

export const right = () => hub;
