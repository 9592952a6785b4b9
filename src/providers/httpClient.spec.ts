import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { http as mock, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createHttpClient, quietly, REQUEST_ERROR, UpstreamError } from './httpClient';
import { localTokenStore } from './tokenStore';

const base = 'http://console.test/upstream';
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const setup = () => {
  const tokens = localTokenStore('token');
  const client = createHttpClient({ baseUrl: base, tokens, locale: () => 'en-US' });
  const announced: UpstreamError[] = [];
  client.onError((error) => announced.push(error));
  return { tokens, client, announced };
};

describe('httpClient', () => {
  it('posts JSON with the bearer token and language, and unwraps the envelope', async () => {
    let seen: { auth: string | null; lang: string | null; body: unknown } | undefined;
    server.use(
      mock.post(`${base}/list/get_OCState`, async ({ request }) => {
        seen = { auth: request.headers.get('authorization'), lang: request.headers.get('accept-language'), body: await request.json() };
        return HttpResponse.json({ data: { list: [1], total: 1 }, status: 'ok', msg: '', code: 20000 });
      }),
    );
    const { tokens, client, announced } = setup();
    tokens.set('abc');
    await expect(client.post('/list/get_OCState', { current: 1, pageSize: 10 })).resolves.toEqual({ list: [1], total: 1 });
    expect(seen).toEqual({ auth: 'Bearer abc', lang: 'en-US', body: { current: 1, pageSize: 10 } });
    expect(announced).toEqual([]);
  });

  it('sends no Authorization header without a token', async () => {
    let auth: string | null = 'unset';
    server.use(
      mock.post(`${base}/login`, ({ request }) => {
        auth = request.headers.get('authorization');
        return HttpResponse.json({ data: { State: false }, status: 'ok', msg: '', code: 20000 });
      }),
    );
    await setup().client.post('/login', {});
    expect(auth).toBeNull();
  });

  it("announces and rethrows a failure with the server's msg and code", async () => {
    server.use(
      mock.post(`${base}/login`, () =>
        HttpResponse.json({ data: null, status: 'fail', msg: 'too many failed sign-ins', code: 42900 }, { status: 429 }),
      ),
    );
    const { client, announced } = setup();
    const error = await client.post('/login', {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ message: 'too many failed sign-ins', code: 42900, status: 429 });
    expect(announced).toEqual([error]);
  });

  it('fails with the Request Error message key when the answer is not an envelope', async () => {
    server.use(mock.post(`${base}/x`, () => new HttpResponse('<html>bad gateway</html>', { status: 502 })));
    const { client, announced } = setup();
    await expect(client.post('/x')).rejects.toMatchObject({ message: REQUEST_ERROR, code: 50000, status: 502 });
    expect(announced).toHaveLength(1);
  });

  it('fails with code 50000 and status 0 when the network is down', async () => {
    server.use(mock.post(`${base}/x`, () => HttpResponse.error()));
    await expect(setup().client.post('/x')).rejects.toMatchObject({ message: REQUEST_ERROR, code: 50000, status: 0 });
  });

  it('treats an envelope with a failure code as a failure even with HTTP 200', async () => {
    server.use(mock.post(`${base}/x`, () => HttpResponse.json({ data: null, status: 'fail', msg: 'no', code: 50000 })));
    await expect(setup().client.post('/x')).rejects.toMatchObject({ message: 'no', code: 50000 });
  });

  it('forgets the token on 50008 (not signed in)', async () => {
    server.use(
      mock.post(`${base}/api/user/info`, () =>
        HttpResponse.json({ data: null, status: 'fail', msg: 'not logged in', code: 50008 }, { status: 401 }),
      ),
    );
    const { tokens, client } = setup();
    tokens.set('expired');
    await expect(client.post('/api/user/info')).rejects.toMatchObject({ code: 50008 });
    expect(tokens.get()).toBeNull();
  });

  it('does not announce a quiet failure, but still rethrows it', async () => {
    server.use(mock.post(`${base}/api/user/logout`, () => HttpResponse.error()));
    const { client, announced } = setup();
    await expect(client.post('/api/user/logout', {}, { quiet: true })).rejects.toBeInstanceOf(UpstreamError);
    await expect(quietly(client).post('/api/user/logout')).rejects.toBeInstanceOf(UpstreamError);
    expect(announced).toEqual([]);
  });
});
