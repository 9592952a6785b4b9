import { describe, it, expect } from 'vitest';
import englishMessages from 'ra-language-english';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import { raChineseMessages } from './ra-zh-CN';

/** Keys whose Chinese value may equal the English one: they hold only placeholders or whitespace. */
const IDENTICAL_TO_ENGLISH = new Set([
  'ra.boolean.null', // '\u2003' (em space) — deliberately blank label for a null boolean
  'ra.page.edit', // '%{name} %{recordRepresentation}'
  'ra.page.list', // '%{name}'
  'ra.page.show', // '%{name} %{recordRepresentation}'
]);

/**
 * English variables that the Chinese single plural form deliberately leaves out.
 * BulkUpdateWithConfirmButton passes only name and smart_count to these keys, so a single Chinese form that used
 * %{recordRepresentation} would show the literal placeholder when several records are updated.
 */
const OMITTED_VARIABLES: Record<string, readonly string[]> = {
  'ra.message.bulk_update_content': ['recordRepresentation'],
  'ra.message.bulk_update_title': ['recordRepresentation'],
};

const PLURAL_SEPARATOR = '||||';

function flatten(value: unknown, prefix = '', out = new Map<string, unknown>()): Map<string, unknown> {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, child] of Object.entries(value)) {
      flatten(child, prefix ? `${prefix}.${key}` : key, out);
    }
  } else {
    out.set(prefix, value);
  }
  return out;
}

/** Every %{var} in a string; for a plural English string this is the union across its `||||` forms. */
function variables(text: string): Set<string> {
  return new Set([...text.matchAll(/%\{(\w+)\}/g)].map((match) => match[1] ?? ''));
}

const english = flatten(englishMessages);
const chinese = flatten(raChineseMessages);

function englishString(key: string): string {
  const value = english.get(key);
  if (typeof value !== 'string') throw new Error(`English ${key} is not a string`);
  return value;
}

function chineseString(key: string): string {
  const value = chinese.get(key);
  if (typeof value !== 'string') throw new Error(`Chinese ${key} is not a string`);
  return value;
}

describe('raChineseMessages (react-admin messages in zh-CN)', () => {
  it('has exactly the key paths of ra-language-english', () => {
    expect(english.size).toBeGreaterThan(100);
    expect([...chinese.keys()].sort()).toEqual([...english.keys()].sort());
  });

  it('has a non-empty string for every key', () => {
    for (const [key, value] of chinese) {
      expect(typeof value, key).toBe('string');
      expect((value as string).length, key).toBeGreaterThan(0);
      if ((value as string).trim() === '') {
        // Only where English is blank on purpose too.
        expect(englishString(key).trim(), key).toBe('');
      }
    }
  });

  it('keeps every %{variable} of the English string (all plural forms)', () => {
    for (const key of english.keys()) {
      const omitted = new Set(OMITTED_VARIABLES[key] ?? []);
      const expected = [...variables(englishString(key))].filter((name) => !omitted.has(name)).sort();
      const actual = variables(chineseString(key));
      for (const name of expected) {
        expect(actual.has(name), `${key} lacks %{${name}}`).toBe(true);
      }
      for (const name of omitted) {
        expect(actual.has(name), `${key} should omit %{${name}}`).toBe(false);
      }
    }
  });

  it('lists omitted variables only where English really uses them', () => {
    for (const [key, names] of Object.entries(OMITTED_VARIABLES)) {
      const englishVariables = variables(englishString(key));
      for (const name of names) expect(englishVariables.has(name), `${key}: ${name}`).toBe(true);
    }
  });

  it('introduces no %{variable} that English does not have', () => {
    for (const key of english.keys()) {
      const allowed = variables(englishString(key));
      for (const name of variables(chineseString(key))) {
        expect(allowed.has(name), `${key} has unknown %{${name}}`).toBe(true);
      }
    }
  });

  it('uses one plural form that carries %{smart_count} where English has plural forms', () => {
    for (const key of english.keys()) {
      const text = chineseString(key);
      expect(text.includes(PLURAL_SEPARATOR), key).toBe(false);
      if (englishString(key).includes(PLURAL_SEPARATOR)) {
        expect(text, key).toContain('%{smart_count}');
      }
    }
  });

  it('translates every value, except the listed placeholder-only ones', () => {
    const identical = [...english.keys()].filter((key) => chineseString(key) === englishString(key));
    expect(identical.sort()).toEqual([...IDENTICAL_TO_ENGLISH].sort());
    for (const key of english.keys()) {
      if (IDENTICAL_TO_ENGLISH.has(key)) continue;
      expect(chineseString(key), key).toMatch(/\p{Script=Han}/u);
    }
  });

  it('renders through ra-i18n-polyglot with the zh-CN locale', () => {
    const i18n = polyglotI18nProvider(() => raChineseMessages, 'zh-CN');
    const t = (key: string, options?: Record<string, unknown>) => String(i18n.translate(key, options));

    expect(t('ra.action.save')).toBe('保存');
    expect(t('ra.navigation.page_range_info', { offsetBegin: 11, offsetEnd: 20, total: 42 })).toBe(
      '第 11-20 条，共 42 条',
    );
    expect(t('ra.action.bulk_actions', { smart_count: 1 })).toBe('已选择 1 项');
    expect(t('ra.action.bulk_actions', { smart_count: 5 })).toBe('已选择 5 项');
    expect(t('ra.notification.deleted', { smart_count: 3 })).toBe('已删除 3 条记录');
    expect(t('ra.sort.sort_by', { field: '名称', field_lower_first: '名称', order: t('ra.sort.ASC') })).toBe(
      '按名称升序排序',
    );

    // The options react-admin's buttons pass: bulk buttons never pass recordRepresentation.
    const bulk = { smart_count: 4, name: '氧舱' };
    expect(t('ra.message.bulk_update_title', bulk)).toBe('更新氧舱（4 项）');
    expect(t('ra.message.bulk_update_content', bulk)).not.toContain('%{');
    expect(t('ra.message.bulk_delete_title', bulk)).toBe('删除氧舱（4 项）');
    expect(t('ra.message.bulk_delete_content', bulk)).not.toContain('%{');
  });
});
