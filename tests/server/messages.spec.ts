import { describe, expect, it } from 'vitest';
import { LOCALES } from '../../src/domain/locales';
import { CATALOGUE, pickLanguage, translate } from '../../server/http/messages';

describe('server message catalogue', () => {
  it('has the same keys in both languages, none empty', () => {
    const [zh, en] = LOCALES.map(({ locale: language }) => Object.keys(CATALOGUE[language]).sort());
    expect(zh).toEqual(en);
    for (const { locale: language } of LOCALES) {
      for (const text of Object.values(CATALOGUE[language])) expect(text.trim()).not.toBe('');
    }
  });

  it('uses the same parameters in both languages', () => {
    const params = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
    for (const key of Object.keys(CATALOGUE['en-US']) as (keyof (typeof CATALOGUE)['en-US'])[]) {
      expect(params(CATALOGUE['zh-CN'][key]), key).toEqual(params(CATALOGUE['en-US'][key]));
    }
  });

  it('spells the old console\'s messages as its mock did', () => {
    expect(translate('en-US', 'auth.notSignedIn')).toBe('not logged in');
    expect(translate('en-US', 'auth.wrongCredentials')).toBe('account or password wrong');
    expect(translate('en-US', 'auth.tooManyFailures')).toBe('too many failed sign-ins, try again later');
    expect(translate('en-US', 'validation.accountEmpty', { field: 'Account' })).toMatch(/^username cannot be empty/);
    expect(translate('en-US', 'validation.passwordEmpty', { field: 'Code' })).toMatch(/^password cannot be empty/);
    expect(translate('en-US', 'failure')).toBe('Request Error');
  });

  it.each([
    [undefined, 'zh-CN'],
    ['', 'zh-CN'],
    ['*', 'zh-CN'],
    ['zh', 'zh-CN'],
    ['zh-TW', 'zh-CN'],
    ['zh-Hans-CN,zh;q=0.9', 'zh-CN'],
    ['en-US', 'en-US'],
    ['en', 'en-US'],
    ['fr-FR,fr;q=0.9', 'en-US'],
    ['en-US,zh-CN;q=0.9', 'en-US'],
    ['en;q=0.5,zh-CN;q=0.9', 'zh-CN'],
    ['zh-CN;q=0,en', 'en-US'],
  ])('picks the language of Accept-Language %j → %s', (header, expected) => {
    expect(pickLanguage(header)).toBe(expected);
  });
});
