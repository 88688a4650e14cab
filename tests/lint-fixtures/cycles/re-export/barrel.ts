export * from "./leaf";
