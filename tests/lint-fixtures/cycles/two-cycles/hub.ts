import { left } from "./left";
import { right } from "./right";

export const hub = () => [left, right];
