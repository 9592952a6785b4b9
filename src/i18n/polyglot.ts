/** Messages written with the server's `{name}` parameters (shared with it and the mocks), as polyglot's `%{name}`. */
export const polyglot = <K extends string>(messages: Record<K, string>): Record<K, string> =>
  Object.fromEntries(Object.entries<string>(messages).map(([key, text]) => [key, text.replace(/\{(\w+)\}/g, '%{$1}')])) as Record<K, string>;
