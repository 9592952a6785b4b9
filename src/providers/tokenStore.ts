/** Where the bearer token lives: localStorage under the old console's key, nothing else touches it. */
export interface TokenStore {
  get(): string | null;
  set(token: string): void;
  clear(): void;
}

export const localTokenStore = (key: string): TokenStore => ({
  get: () => localStorage.getItem(key),
  set: (token) => localStorage.setItem(key, token),
  clear: () => localStorage.removeItem(key),
});
