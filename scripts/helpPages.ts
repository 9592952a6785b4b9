import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';
import { LOCALES, type Locale } from '../src/domain/locales';
import { HELP_STYLES, helpPage } from './markdown';

/** The help documents in English; each language's version sits beside it (`faq.md`, `faq.zh-CN.md`). */
const DOCUMENTS: Record<string, string> = { 'guide.html': 'operator-guide', 'faq.html': 'faq' };

/** How each language names the console in a page's title, and where its version of a document is. */
const LANGUAGES: Record<Locale, { site: string; suffix: string }> = {
  'zh-CN': { site: '氧舱监管系统', suffix: '.zh-CN' },
  'en-US': { site: 'Oxygen Console', suffix: '' },
};

/**
 * The help pages the console's external links open by default: address (under the base) ← document, one
 * folder per language, so the console's `{locale}` in a link's address picks the page in its language.
 */
export const HELP_PAGES: Record<string, { document: string; locale: Locale }> = Object.fromEntries(
  LOCALES.flatMap(({ locale }) =>
    Object.entries(DOCUMENTS).map(([page, name]) => [
      `help/${locale}/${page}`,
      { document: `docs/${name}${LANGUAGES[locale].suffix}.md`, locale },
    ]),
  ),
);

/**
 * The documents link to each other by their English file name; on the served pages those links go to
 * the page beside them, in the same folder, so a reader stays in their language.
 */
const LINKS: Record<string, string> = Object.fromEntries(Object.entries(DOCUMENTS).map(([page, name]) => [`${name}.md`, page]));

/** The pages' one stylesheet, beside the language folders. */
const STYLESHEET = 'help/help.css';

const render = ({ document, locale }: { document: string; locale: Locale }): string =>
  helpPage(readFileSync(document, 'utf8'), { links: LINKS, lang: locale, site: LANGUAGES[locale].site, stylesheet: '../help.css' });

export const renderHelpPage = (address: string): string | undefined => {
  if (address === STYLESHEET) return HELP_STYLES;
  const page = HELP_PAGES[address];
  return page && render(page);
};

/**
 * Ships the operator guide and the FAQ, in every language, as static HTML pages in the build (so a
 * deployed console's links work behind any server), and serves them the same way from Vite's dev server.
 */
export const helpPages = (): Plugin => ({
  name: 'oxygen-help-pages',
  configureServer(server) {
    server.middlewares.use((request, response, next) => {
      const address = (request.url ?? '').split('?')[0]?.replace(/^\//, '') ?? '';
      const page = renderHelpPage(address);
      if (!page) return next();
      response.setHeader('content-type', address === STYLESHEET ? 'text/css; charset=utf-8' : 'text/html; charset=utf-8');
      response.end(page);
    });
  },
  generateBundle() {
    this.emitFile({ type: 'asset', fileName: STYLESHEET, source: HELP_STYLES });
    for (const [address, page] of Object.entries(HELP_PAGES)) {
      this.emitFile({ type: 'asset', fileName: address, source: render(page) });
    }
  },
});
