export const load = () => import("./page");
export const title = "Loader";
