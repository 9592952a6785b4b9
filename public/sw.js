/*
 * The console's service worker (docs/console.md, "Phone and installing"): it keeps the shell, the page and
 * the build's hashed files, so the installed console opens without a network; it never answers anything
 * else, the APIs above all: an alarm, a reading or a count from a cache would be a stale answer shown as
 * the present. Registered by the production build only (src/pwa.ts).
 */
const CACHE = 'oxygen-shell-v1';
/** Every console route is the same page: one copy of it, under this key. */
const PAGE = '/index.html';

self.addEventListener('install', () => self.skipWaiting());

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

const isApi = (pathname) => pathname.startsWith('/api/') || pathname.startsWith('/upstream/') || pathname === '/upstream';

/** The build's first script, which the page names: another one means another build. */
const firstScript = (html) => /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];

/** Keeps the page; a page of another build drops the previous build's files, which nothing asks for again. */
const keepPage = async (cache, response) => {
  const kept = await cache.match(PAGE);
  if (kept && firstScript(await kept.text()) !== firstScript(await response.clone().text())) {
    const files = (await cache.keys()).filter((request) => new URL(request.url).pathname.startsWith('/assets/'));
    await Promise.all(files.map((request) => cache.delete(request)));
  }
  await cache.put(PAGE, response);
};

/** The page from the network, kept for when there is none; a cached copy only when the network fails. */
const page = async (request) => {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok && (response.headers.get('content-type') ?? '').startsWith('text/html')) await keepPage(cache, response.clone());
    return response;
  } catch (error) {
    const kept = await cache.match(PAGE);
    if (kept) return kept;
    throw error;
  }
};

/** A hashed build file never changes under its name: the cached copy is the file. */
const asset = async (request) => {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
};

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || isApi(url.pathname)) return;
  if (request.mode === 'navigate') event.respondWith(page(request));
  else if (url.pathname.startsWith('/assets/')) event.respondWith(asset(request));
  // Anything else (icons, help pages, the manifest) goes to the network as if there were no worker.
});
