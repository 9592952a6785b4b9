import { describe, expect, it } from 'vitest';
import { appEnUS } from './app.en-US';
import { appZhCN } from './app.zh-CN';
import { english } from './en-US';
import { chinese, loadMessages } from './index';

const leaves = (node: unknown, prefix = ''): [string, unknown][] =>
  node && typeof node === 'object'
    ? Object.entries(node).flatMap(([key, value]) => leaves(value, prefix ? `${prefix}.${key}` : key))
    : [[prefix, node]];

// A set: an English plural names its count in each of its forms, a Chinese text once.
const variables = (text: unknown) => [...new Set([...String(text).matchAll(/%\{(\w+)\}/g)].map((match) => match[1]))].sort();

describe('app catalogues', () => {
  const zh = new Map(leaves(appZhCN));
  const en = new Map(leaves(appEnUS));

  it('have the same keys in zh-CN and en-US', () => {
    expect([...zh.keys()].sort()).toEqual([...en.keys()].sort());
  });

  it('have a non-empty text for every key, with the same interpolation variables', () => {
    for (const [key, text] of zh) {
      expect(typeof text === 'string' && text.trim().length > 0, key).toBe(true);
      expect(variables(text), key).toEqual(variables(en.get(key)));
    }
  });

  it('carry the old console messages in both languages', () => {
    expect(appEnUS.app.login.accountRequired).toBe('Username cannot be empty');
    expect(appEnUS.app.login.passwordRequired).toBe('Password cannot be empty');
    expect(appEnUS.app.login.wrong).toBe('account or password wrong');
    expect(appEnUS.app.login.error).toBe('Login error, refresh and try again');
    expect(appEnUS.app.http.requestError).toBe('Request Error');
    expect(appZhCN.app.title).toBe('氧舱监管系统');
  });

  it('give the console the same full key set in both languages, react-admin included', () => {
    expect(leaves(chinese).map(([key]) => key).sort()).toEqual(leaves(english).map(([key]) => key).sort());
  });
});

describe('loading the languages', () => {
  it('has Chinese at once and fetches English on first use, the same catalogue every time', async () => {
    expect(await loadMessages('zh-CN')).toBe(chinese);
    const first = await loadMessages('en-US');
    expect(first).toBe(english);
    expect(first.app).toBe(appEnUS.app);
    expect(await loadMessages('en-US')).toBe(first);
  });
});
