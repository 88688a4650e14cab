/**
 * Rules for text typed into the console or sent to the API, shared by the browser and the server.
 */

/**
 * Control characters (U+0000–U+001F, U+007F) have no place in a search, and refusing them keeps
 * a search column's match inside one field (its fields are joined with U+001F).
 */
export const hasControlCharacters = (text: string) =>
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is sought
  /[\u0000-\u001f\u007f]/.test(text);
