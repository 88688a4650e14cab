import { first } from "./first";

export const third = () => first;
