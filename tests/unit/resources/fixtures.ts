import { createHttpClient } from '../../../src/providers/httpClient';
import { localTokenStore } from '../../../src/providers/tokenStore';
import { MOCK_ACCOUNTS } from '../../../mocks/auth';
import type { LoginResult } from '../../../src/domain/auth';

/** Node's fetch needs absolute URLs; the console's are relative, the mocks take either. */
export const UPSTREAM = 'http://console.test/upstream';
export const REST = 'http://console.test/api/v1';

/** An upstream client signed in to the mocks as `account` (or signed out). */
export const mockSession = async (account?: string, locale = 'zh-CN') => {
  const tokens = localTokenStore('token');
  const http = createHttpClient({ baseUrl: UPSTREAM, tokens, locale: () => locale });
  const known = account ? MOCK_ACCOUNTS[account] : undefined;
  if (account && known) {
    const result = await http.post<LoginResult>('/login', { Account: account, Code: known.Code });
    if (result.State) tokens.set(result.token);
  }
  return { tokens, http };
};
