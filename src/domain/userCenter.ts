import { z } from 'zod';
import type { Locale } from './locales';
import { DAY_MS } from './time';

/**
 * The user centre's calls of the old console (its user info page), answered on the fleet's data in the
 * template's shapes (docs/product.md, "The old console's mocked calls"), by the server and by the mocks.
 * Each is a POST without a body, relative to the upstream's base (API_PREFIX), and answers a plain array.
 */
export const USER_CENTER_CALLS = {
  visits: '/api/user/visits',
  myProjects: '/api/user/my-project/list',
  myTeams: '/api/user/my-team/list',
  latestActivity: '/api/user/latest-activity',
} as const;

/** A list answers at most this many entries (the old calls take no paging). */
export const USER_CENTER_MAX = 100;
/** The latest activity: the caller's own latest audited changes, this many. */
export const LATEST_ACTIVITY_COUNT = 7;
/** Sign-ins and sign-outs are audited too, but are not activity worth listing. */
export const NOT_ACTIVITY_PREFIX = 'auth.';

/** Visits compare the last seven days with the seven before. */
export const VISITS_WINDOW_MS = 7 * DAY_MS;

/** The two figures of `visits`, in this order: sessions run and bookings made in the caller's chambers. */
export const VISIT_FIGURES = ['sessions', 'bookings'] as const;
export type VisitFigure = (typeof VISIT_FIGURES)[number];
export const VISIT_NAMES: Record<Locale, Record<VisitFigure, string>> = {
  'zh-CN': { sessions: '近 7 天舱次', bookings: '近 7 天预约' },
  'en-US': { sessions: 'Sessions, last 7 days', bookings: 'Bookings, last 7 days' },
};

/**
 * The change from the earlier window to the last, in percent with two decimals as the template's 206.32;
 * an earlier window with nothing gives 0 when the last has nothing either, else 100 (no base to divide by).
 */
export const growthPercent = (last: number, earlier: number): number => {
  if (earlier === 0) return last === 0 ? 0 : 100;
  return Math.round(((last - earlier) / earlier) * 10_000) / 100;
};

const count = z.number().int().nonnegative();

export const visitsAnswerSchema = z.array(z.strictObject({ name: z.string().min(1), visits: count, growth: z.number() }));
export type VisitsAnswer = z.infer<typeof visitsAnswerSchema>;

const contributorSchema = z.strictObject({ name: z.string().min(1), email: z.string(), avatar: z.string() });

/** A "project" is one of the caller's chambers: its name, its Id and site, and the accounts of the caller's subtree that manage it. */
export const myProjectsAnswerSchema = z.array(
  z.strictObject({ id: z.number().int().positive(), name: z.string(), description: z.string(), peopleNumber: count, contributors: z.array(contributorSchema) }),
);
export type MyProjectsAnswer = z.infer<typeof myProjectsAnswerSchema>;

/** A "team" is an account directly below the caller: its name, avatar and the size of its subtree (itself included). */
export const myTeamsAnswerSchema = z.array(z.strictObject({ id: z.number().int().positive(), avatar: z.string(), name: z.string().min(1), peopleNumber: count }));
export type MyTeamsAnswer = z.infer<typeof myTeamsAnswerSchema>;

/** An activity is one of the caller's own audited changes: what it did (in the reader's language) and to what. */
export const latestActivityAnswerSchema = z.array(z.strictObject({ id: z.number().int().positive(), title: z.string().min(1), description: z.string(), avatar: z.string() }));
export type LatestActivityAnswer = z.infer<typeof latestActivityAnswerSchema>;

/** A project's description: the chamber's Id and its site. */
export const projectDescription = (id: string, location: string): string => (location === '' ? id : `${id} · ${location}`);
