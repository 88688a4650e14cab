/**
 * Password rules for administrators, shared by the server's schema and the console's forms so
 * both say the same thing. Each rule has a key the console translates (`admin:password.rules.*`).
 */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

export const PASSWORD_RULES = [
  {
    key: "length",
    test: (p: string) => p.length >= PASSWORD_MIN_LENGTH && p.length <= PASSWORD_MAX_LENGTH,
  },
  { key: "lowercase", test: (p: string) => /[a-z]/.test(p) },
  { key: "uppercase", test: (p: string) => /[A-Z]/.test(p) },
  { key: "digit", test: (p: string) => /\d/.test(p) },
] as const;

export type PasswordRuleKey = (typeof PASSWORD_RULES)[number]["key"];

/** The keys of the rules a password breaks; empty when it is acceptable. */
export function brokenPasswordRules(password: string): PasswordRuleKey[] {
  return PASSWORD_RULES.filter((r) => !r.test(password)).map((r) => r.key);
}
