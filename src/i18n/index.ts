import type { I18nProvider, TranslationMessages } from 'react-admin';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import raEnglishMessages from 'ra-language-english';
import { raChineseMessages } from './ra-zh-CN';
import { appZhCN } from './app.zh-CN';
import { DEFAULT_LOCALE, FALLBACK_LOCALE, isLocale, LOCALES, type Locale } from '../domain/locales';
import { RESOURCE_MESSAGES } from './resourceMessages';

type Catalogue = Record<string, unknown>;

/** Deep merge of message catalogues: keys of `over` win, keys only in `base` remain. */
const withFallback = (base: Catalogue, over: Catalogue): Catalogue =>
  Object.fromEntries(
    [...new Set([...Object.keys(base), ...Object.keys(over)])].map((key) => {
      const [fallback, own] = [base[key], over[key]];
      const bothNested = typeof fallback === 'object' && typeof own === 'object' && fallback && own;
      return [key, bothNested ? withFallback(fallback as Catalogue, own as Catalogue) : (own ?? fallback)];
    }),
  );

/**
 * The default language, in the first script the browser loads. Both catalogues are complete (tests
 * check it); react-admin's English is a net under any future gap in its Chinese messages.
 */
export const chinese = withFallback(raEnglishMessages, { ...raChineseMessages, ...appZhCN, ...RESOURCE_MESSAGES['zh-CN'] }) as TranslationMessages;

const loaded: Partial<Record<Locale, TranslationMessages>> = { [DEFAULT_LOCALE]: chinese };

/** A language's messages; English is fetched (its own chunk) the first time it is needed, then kept. */
export const loadMessages = async (locale: Locale): Promise<TranslationMessages> =>
  (loaded[locale] ??= (await import('./en-US')).english);

/**
 * react-admin keeps the chosen locale in its store (localStorage, key `RaStore.locale`); reading it here
 * lets the first render already be in the user's language.
 */
export const storedLocale = (): Locale => {
  try {
    const stored = JSON.parse(localStorage.getItem('RaStore.locale') ?? 'null') as unknown;
    return isLocale(stored) ? stored : DEFAULT_LOCALE;
  } catch {
    return DEFAULT_LOCALE;
  }
};

/**
 * The console's provider. It starts in the stored language when its messages are already loaded
 * (main.tsx loads them before the first render, so no key ever shows untranslated), in Chinese otherwise.
 */
export const createI18nProvider = (): I18nProvider => {
  const stored = storedLocale();
  return polyglotI18nProvider(
    (locale) => loaded[isLocale(locale) ? locale : FALLBACK_LOCALE] ?? loadMessages(isLocale(locale) ? locale : FALLBACK_LOCALE),
    loaded[stored] ? stored : DEFAULT_LOCALE,
    [...LOCALES],
  );
};
