import { http, type RequestHandler } from 'msw';
import { CODES } from '../src/domain/envelope';
import { OLD_ACCOUNT_LIST, oldAccountListQuerySchema } from '../src/resources/accounts/calls';
import { ACCOUNT_ENDPOINTS } from '../src/resources/accounts/config';
import type { WireRecord } from '../src/resources/model';
import { badInputMessage, type AccessCheck } from './access';
import type { MockCredentials } from './auth';
import { fail } from './envelope';
import type { MockScope } from './scope';
import { templateCallHandlers } from './templateCalls';
import { userCenterHandlers } from './userCenter';

interface OldCallSources {
  tables: ReadonlyMap<string, WireRecord[]>;
  check: AccessCheck;
  scope: MockScope;
  credentials: MockCredentials;
  now: () => number;
  /** A call answered by the other handlers, as the console would make it. */
  answer: (request: Request) => Promise<Response | undefined>;
}

/**
 * The old console's mocked calls not answered elsewhere (src/domain/oldCalls.ts, owner `old-calls`): its
 * account list `GET list/user`, answered as get_Admins answers the page; the user centre's lists; the
 * template's calls without fleet data.
 */
export const oldCallHandlers = (base: string, sources: OldCallSources): RequestHandler[] => [
  http.get(`${base}${OLD_ACCOUNT_LIST}`, async ({ request }) => {
    const paging = oldAccountListQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
    if (!paging.success) return fail(CODES.badInput, badInputMessage(paging.error));
    const headers = new Headers(request.headers);
    headers.set('content-type', 'application/json');
    return sources.answer(new Request(`${base}${ACCOUNT_ENDPOINTS.list}`, { method: 'POST', headers, body: JSON.stringify(paging.data) }));
  }),
  ...userCenterHandlers(base, sources.tables, sources.check, sources.scope, sources.credentials, sources.now),
  ...templateCallHandlers(base),
];
