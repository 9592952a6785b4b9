/** Spans of time in milliseconds, as every timestamp of the product counts them (epoch ms, UTC). */

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/** A time as a `datetime-local` input holds it: to the minute, in the local time zone (the browser's). */
export const localInputValue = (time: number): string => new Date(time - new Date(time).getTimezoneOffset() * MINUTE_MS).toISOString().slice(0, 16);

/** The time a `datetime-local` input's value names (the browser's time zone); null when it is empty. */
export const localInputTime = (value: string): number | null => (value ? new Date(value).getTime() : null);
