/**
 * The little of jsdom the server tests use (its HTML5 parser, to read stored HTML as a browser
 * would). The server's type checking has no DOM library, so the shapes are spelled out here.
 */
declare module "jsdom" {
  interface ParsedElement {
    localName: string;
    attributes: ArrayLike<{ name: string; value: string }>;
    getAttribute(name: string): string | null;
  }
  export class JSDOM {
    constructor(html: string);
    window: { document: { querySelectorAll(selector: string): Iterable<ParsedElement> } };
  }
}
