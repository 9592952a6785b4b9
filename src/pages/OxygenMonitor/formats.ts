/**
 * Number and time formats of the live screens, made once per locale and kept: `toLocaleString` with a
 * locale builds a new Intl formatter on every call, which was the largest single cost of rendering a
 * monitor row that 1,000 chambers re-render every second (docs/performance.md, bench:monitor).
 */

const formats = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

const cached = <F extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => F): F => {
  let format = formats.get(key) as F | undefined;
  if (format === undefined) {
    format = make();
    formats.set(key, format);
  }
  return format;
};

/** `value` with exactly `digits` decimals in `locale`. */
export const formatNumber = (locale: string, value: number, digits: number): string =>
  cached(`number:${locale}:${digits}`, () => new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits })).format(value);

/** As `Date.prototype.toLocaleString(locale)`. */
export const formatDateTime = (locale: string, time: Date): string =>
  cached(`datetime:${locale}`, () => new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' })).format(time);

/** As `Date.prototype.toLocaleTimeString(locale)`. */
export const formatTime = (locale: string, time: Date): string =>
  cached(`time:${locale}`, () => new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: 'numeric', second: 'numeric' })).format(time);
