import "./barrel";

export const leaf = 1;
