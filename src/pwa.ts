/**
 * Registers the service worker that keeps the console's shell (public/sw.js), in production builds only:
 * under `npm run dev` it would serve stale modules, and the mocked console has msw's worker instead.
 */
export const registerServiceWorker = (): void => {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  // After the page has loaded, so the worker's first fetches never compete with the first script.
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js').catch((error: unknown) => console.warn('service worker not registered', error));
  });
};
