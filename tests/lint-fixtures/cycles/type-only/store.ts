import { emptyModel } from "./model";

export interface Options {
  size: number;
}
export type Store = ReturnType<typeof createStore>;
export const createStore = () => ({ make: emptyModel });
