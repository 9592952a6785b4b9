import { describe, expect, it } from 'vitest';
import { ok, okRendered } from './envelope';

describe('okRendered: a list rendered by the store, put into the envelope as it is', () => {
  it('is the envelope ok() makes, with the list text in its place', () => {
    const list = [{ Id: 'OC-0001', SP: 60, Online: true, HmBP: null }];
    const text = okRendered(JSON.stringify(list), 7, '成功');
    expect(JSON.parse(text)).toEqual(ok({ list, total: 7 }, '成功'));
  });

  it('takes the text literally: `$` patterns and quotes in it stay as they are', () => {
    const list = [{ name: "Hall $& $' $1 \"B\" \\ 舱" }];
    expect(JSON.parse(okRendered(JSON.stringify(list), 1, 'ok'))).toEqual(ok({ list, total: 1 }, 'ok'));
  });

  it('carries an empty list', () => {
    expect(JSON.parse(okRendered('[]', 0, 'ok'))).toEqual(ok({ list: [], total: 0 }, 'ok'));
  });
});
