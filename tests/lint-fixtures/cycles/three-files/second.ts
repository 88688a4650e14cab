import { third } from "./third";

export const second = () => third;
