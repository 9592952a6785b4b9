/**
 * The product's languages: the console's catalogues and language switcher, and the server's messages
 * (chosen by Accept-Language), are keyed by this one list.
 */
export const LOCALES = [
  { locale: 'zh-CN', name: '简体中文' },
  { locale: 'en-US', name: 'English' },
] as const;
export type Locale = (typeof LOCALES)[number]['locale'];
/** The language of a visitor who states none. */
export const DEFAULT_LOCALE: Locale = 'zh-CN';
/** The language of a visitor whose language is none of LOCALES. */
export const FALLBACK_LOCALE: Locale = 'en-US';

export const isLocale = (value: unknown): value is Locale => LOCALES.some(({ locale }) => locale === value);
