import createCache, { type EmotionCache } from '@emotion/cache';

/**
 * emotion's cache, its `<style>` elements carrying the page's nonce: the server's Content-Security-Policy
 * allows no other inline style (docs/security.md, "Headers and CSP"). The nonce is on the page's
 * `<meta property="csp-nonce">`, where the build put it for Vite's own tags; browsers hide a nonce from
 * attributes, so it is read as the element's `nonce` property. Without one (the dev server, tests)
 * the styles go in unmarked, as no policy asks otherwise.
 */
export const createStyleCache = (): EmotionCache => {
  const meta = document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]');
  const nonce = meta?.nonce;
  return createCache({ key: 'css', ...(nonce ? { nonce } : {}) });
};
