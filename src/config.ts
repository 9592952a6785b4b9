/**
 * The console's configuration as typed defaults; `<App config={...}>` overrides any of them, so tests,
 * the mock mode and other deployments change behaviour without touching code.
 */
export interface ConsoleConfig {
  /** Base URL of the upstream contract (docs/product.md: default `/upstream`). */
  upstreamBase: string;
  /** Base URL of the REST resources (alarms, audit log, ...). */
  restBase: string;
  /** localStorage key of the bearer token (docs/product.md, "The console"). */
  tokenKey: string;
  /** How long an HTTP error toast stays (docs/product.md, "The console": 5 seconds). */
  errorToastMs: number;
  /** Where a signed-in user lands. */
  landingPath: string;
  /**
   * The two external menu links (docs/product.md, "The route table"), opened in a new tab: by default the operator guide and
   * FAQ the build ships under /help/, one folder per language (VITE_HELP_GUIDE_URL and VITE_HELP_FAQ_URL point them
   * elsewhere). `{locale}` in an address becomes the console's current language (`zh-CN`, `en-US`), so the page
   * opens in the language the console shows; an address without it is the same in every language.
   */
  externalLinks: { labelKey: string; href: string }[];
}

export const defaultConfig: ConsoleConfig = {
  upstreamBase: import.meta.env.VITE_UPSTREAM_BASE ?? '/upstream',
  restBase: import.meta.env.VITE_REST_BASE ?? '/api/v1',
  tokenKey: 'token',
  errorToastMs: 5000,
  landingPath: '/dashboard/workplace',
  externalLinks: [
    { labelKey: 'app.menu.operatorGuide', href: import.meta.env.VITE_HELP_GUIDE_URL ?? '/help/{locale}/guide.html' },
    { labelKey: 'app.menu.faq', href: import.meta.env.VITE_HELP_FAQ_URL ?? '/help/{locale}/faq.html' },
  ],
};
