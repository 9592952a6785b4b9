import type { TranslationMessages } from 'react-admin';
import englishMessages from 'ra-language-english';
import { appEnUS } from './app.en-US';
import { RESOURCE_MESSAGES } from './resourceMessages';

/** The second language: a chunk of its own, loaded the first time someone picks it (loadMessages). */
export const english: TranslationMessages = { ...englishMessages, ...appEnUS, ...RESOURCE_MESSAGES['en-US'] };
