import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';
import { helpPage } from './markdown';

/** The help pages the console's external links open by default: address (under the base) ← document. */
export const HELP_PAGES: Record<string, string> = {
  'help/guide.html': 'docs/operator-guide.md',
  'help/faq.html': 'docs/faq.md',
};

/** The documents link to each other by file name; on the served pages those links go to their addresses. */
const LINKS: Record<string, string> = Object.fromEntries(
  Object.entries(HELP_PAGES).map(([address, document]) => [document.replace(/^docs\//, ''), address.replace(/^help\//, '')]),
);

const render = (document: string): string => helpPage(readFileSync(document, 'utf8'), LINKS);

export const renderHelpPage = (address: string): string | undefined => {
  const document = HELP_PAGES[address];
  return document && render(document);
};

/**
 * Ships docs/operator-guide.md and docs/faq.md as static HTML pages in the build (so a deployed console's
 * links work behind any server), and serves them the same way from Vite's dev server.
 */
export const helpPages = (): Plugin => ({
  name: 'oxygen-help-pages',
  configureServer(server) {
    server.middlewares.use((request, response, next) => {
      const page = renderHelpPage((request.url ?? '').split('?')[0]?.replace(/^\//, '') ?? '');
      if (!page) return next();
      response.setHeader('content-type', 'text/html; charset=utf-8');
      response.end(page);
    });
  },
  generateBundle() {
    for (const [address, document] of Object.entries(HELP_PAGES)) {
      this.emitFile({ type: 'asset', fileName: address, source: render(document) });
    }
  },
});
