import type { TranslationMessages } from 'react-admin';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import { raChineseMessages } from './ra-zh-CN';
import { appZhCN } from './app.zh-CN';
import { appEnUS } from './app.en-US';
import { DEFAULT_LOCALE, FALLBACK_LOCALE, isLocale, LOCALES, type Locale } from '../domain/locales';
import { RESOURCE_CONFIGS } from '../resources/configs';
import { resourceCatalogues } from '../resources/i18n';

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

/** `resources.*` and `crud.*` messages per language, from the resources' configurations. */
const RESOURCE_MESSAGES = resourceCatalogues(RESOURCE_CONFIGS);

const english: TranslationMessages = { ...englishMessages, ...appEnUS, ...RESOURCE_MESSAGES['en-US'] };

/** Both catalogues are complete (tests check it); the en-US fallback is a net under any future gap. */
export const messages: Record<Locale, TranslationMessages> = {
  'zh-CN': withFallback(english, { ...raChineseMessages, ...appZhCN, ...RESOURCE_MESSAGES['zh-CN'] }) as TranslationMessages,
  'en-US': english,
};

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

export const i18nProvider = polyglotI18nProvider(
  (locale) => messages[isLocale(locale) ? locale : FALLBACK_LOCALE],
  storedLocale(),
  [...LOCALES],
);
