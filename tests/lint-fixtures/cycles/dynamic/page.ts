import { title } from "./loader";

export const page = `A page of ${title}`;
