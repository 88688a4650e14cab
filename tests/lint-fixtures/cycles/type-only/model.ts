import type { Store } from "./store";
import { type Options } from "./store";

export interface Model {
  store: Store;
  options: Options;
}
export const emptyModel = (store: Store, options: Options): Model => ({ store, options });
