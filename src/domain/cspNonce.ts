/**
 * What the build writes where the page's style nonce goes (vite.config.ts, `html.cspNonce`): on the
 * `<meta property="csp-nonce">` the console reads it from, and on the tags Vite writes. The server
 * replaces it with a fresh nonce in every page it sends (docs/security.md, "Headers and CSP").
 */
export const CSP_NONCE_PLACEHOLDER = '__OXYGEN_CSP_NONCE__';
