import { hub } from "./hub";

export const left = () => hub;
