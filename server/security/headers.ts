import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import fp from 'fastify-plugin';
import helmet, { contentSecurityPolicy, type HelmetOptions } from 'helmet';

/**
 * The Content-Security-Policy of every response (docs/security.md, "Headers and CSP"). Scripts only
 * from the console's own files: no inline script, no eval. Styles from its own files and, on the
 * console's page, from `<style>` elements carrying that page's nonce (emotion's, see stylePolicy).
 * Images may be `data:` URIs (the favicon, small assets Vite inlines); everything fetched, the live
 * stream included, goes to this origin; nothing may frame the console, nor be framed by it.
 */
const directives = (behindTls: boolean) => ({
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  scriptSrcAttr: ["'none'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'"],
  connectSrc: ["'self'"],
  mediaSrc: ["'none'"],
  objectSrc: ["'none'"],
  frameSrc: ["'none'"],
  // The console's own service worker (public/sw.js) and web app manifest, nothing from elsewhere.
  workerSrc: ["'self'"],
  manifestSrc: ["'self'"],
  baseUri: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  // Only behind TLS: on plain HTTP it would send every file request to an https:// that is not there.
  ...(behindTls ? { upgradeInsecureRequests: [] } : {}),
});

/**
 * The browser features the console uses, for itself only (the clipboard for copied passwords and
 * settings, autoplay for the alarm sound, full screen), and those it never needs, for nobody.
 */
const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'autoplay=(self)',
  'bluetooth=()',
  'camera=()',
  'clipboard-write=(self)',
  'display-capture=()',
  'fullscreen=(self)',
  'geolocation=()',
  'gyroscope=()',
  'hid=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'publickey-credentials-get=()',
  'serial=()',
  'usb=()',
  'xr-spatial-tracking=()',
].join(', ');

/** A year, as HSTS preload lists ask; sent only when the server is told it is reached over TLS. */
const HSTS_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

const helmetOptions = (behindTls: boolean): HelmetOptions => ({
  contentSecurityPolicy: { useDefaults: false, directives: directives(behindTls) },
  strictTransportSecurity: behindTls ? { maxAge: HSTS_MAX_AGE_SECONDS, includeSubDomains: true } : false,
  xFrameOptions: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
  // Off: the console embeds nothing from elsewhere, and require-corp would only add a failure mode.
  crossOriginEmbedderPolicy: false,
});

export interface SecurityHeadersOptions {
  /** BEHIND_TLS: HSTS and upgrade-insecure-requests are sent. */
  behindTls: boolean;
}

type Middleware = (request: unknown, response: ServerResponse, next: (error?: Error) => void) => void;

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Sets the security headers on a response: what the plugin's hook does for every request, for the
     * few answers Fastify gives before any hook runs (a malformed URL: app.ts, frameworkErrors).
     */
    applySecurityHeaders(response: ServerResponse): void;
  }
  interface FastifyReply {
    /**
     * A fresh nonce for the `<style>` elements of the page this reply sends, allowed by its
     * Content-Security-Policy (which replaces the one every response carries).
     */
    styleNonce(): string;
  }
}

/**
 * Security headers on every response (console page, static files, API answers, errors, the live
 * stream), from helmet. The middleware is built once: @fastify/helmet would build it again for every
 * request (about 6 µs each, against 0.15 µs), a cost every list call would pay. It runs in onRequest,
 * on the raw response, so even answers that bypass Fastify's reply (the live stream) carry the headers.
 */
export const securityHeadersPlugin = fp<SecurityHeadersOptions>(
  async (app, { behindTls }) => {
    const every = helmet(helmetOptions(behindTls)) as Middleware;
    const base = directives(behindTls);
    const apply = (response: ServerResponse, done: (error?: Error) => void) => {
      response.setHeader('permissions-policy', PERMISSIONS_POLICY);
      every(undefined, response, done);
    };
    app.decorate('applySecurityHeaders', (response: ServerResponse) => apply(response, () => undefined));
    app.addHook('onRequest', (_request, reply, done) => apply(reply.raw, done));
    app.decorateReply('styleNonce', function styleNonce(this: { raw: ServerResponse }) {
      const nonce = randomBytes(18).toString('base64');
      const withNonce = contentSecurityPolicy({
        useDefaults: false,
        directives: { ...base, styleSrc: [...base.styleSrc, `'nonce-${nonce}'`] },
      }) as Middleware;
      withNonce(undefined, this.raw, () => undefined);
      return nonce;
    });
  },
  { name: 'oxygen-security-headers', fastify: '5.x' },
);
