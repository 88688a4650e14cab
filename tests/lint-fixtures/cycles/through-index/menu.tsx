import { pages } from "./pages";

export const menu = () => pages;
