import { describe, expect, it } from 'vitest';
import { csvCell, csvTable } from './csv';

describe('csvCell', () => {
  it.each(['=HYPERLINK("http://evil","x")', '+1+1', '-2+3', '@SUM(A1)', '\tcmd', '\rcmd'])('neutralises a formula start: %j', (text) => {
    const cell = csvCell(text);
    // The cell, unquoted, begins with the apostrophe: a spreadsheet reads it as text.
    expect(cell.replace(/^"/, '')).toMatch(/^'/);
    expect(cell.replace(/^"|"$/g, '').replaceAll('""', '"')).toBe(`'${text}`);
  });

  it('leaves ordinary text, numbers and negative numbers as they are', () => {
    expect(csvCell('OC-0001')).toBe('OC-0001');
    expect(csvCell(-0.5)).toBe('-0.5');
    expect(csvCell(12)).toBe('12');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
  });

  it('quotes commas, quotes and line breaks (RFC 4180)', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
  });
});

describe('csvTable', () => {
  it('writes the header and each row, CRLF between rows', () => {
    expect(csvTable(['Id', 'name'], [['OC-1', '=1+1'], ['OC-2', null]])).toBe("Id,name\r\nOC-1,'=1+1\r\nOC-2,");
  });
});
