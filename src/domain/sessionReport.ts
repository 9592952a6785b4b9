import { z } from 'zod';
import { alarmRecordSchema } from './alarms/record';

/**
 * An order's session report, as `GET /api/v1/orders/{id}/report` answers it (docs/orders.md, "The
 * session report"): the booking, its chamber, the settings in force, every reading of the session, the
 * commands sent to the chamber and the alarms it raised while it ran. The session runs from the booking's use (UseTime) to
 * its end (FinishTime), or to now while it runs; a booking never used has no session, so no readings.
 */

/** The readings a report charts and exports, in column order. */
export const REPORT_READINGS = ['RCP', 'SP', 'RCPi02', 'RCT', 'RCRH', 'HmHR', 'HmSP02', 'HmBP'] as const;

/**
 * The most readings a report carries: sessions last at most a few hours and chambers report about once a
 * second, so 20,000 is over five hours; past it the report says `truncated` and holds the first ones.
 */
export const REPORT_MAX_READINGS = 20_000;

const number = z.number().nullable();

const readingSchema = z.strictObject({
  /** Epoch ms. */
  Time: z.number(),
  RCP: number,
  SP: number,
  RCPi02: number,
  RCT: number,
  RCRH: number,
  HmHR: number,
  HmSP02: number,
  /** "systolic/diastolic". */
  HmBP: z.string().nullable(),
});
export type SessionReading = z.infer<typeof readingSchema>;

/** The chamber's settings (SP, ST, SS, SL, SA) as a reading reported them. */
const settingsSchema = z.strictObject({
  SP: number,
  ST: number,
  SS: z.string().nullable(),
  SL: number,
  SA: number,
});
export type ReportSettings = z.infer<typeof settingsSchema>;
export const SETTINGS_IN_FORCE = ['SP', 'ST', 'SS', 'SL', 'SA'] as const satisfies readonly (keyof ReportSettings)[];

const commandSchema = z.strictObject({
  cmdId: z.string(),
  type: z.string(),
  /** The command as sent to the chamber. */
  command: z.unknown(),
  status: z.string(),
  error: z.string().nullable(),
  /** The account that sent it. */
  actor: z.string().nullable(),
  issuedAt: z.number(),
  answeredAt: z.number().nullable(),
});
export type ReportCommand = z.infer<typeof commandSchema>;

export const sessionReportSchema = z.strictObject({
  order: z.strictObject({
    id: z.number(),
    OrderNum: z.string(),
    Id: z.string(),
    Time: z.number(),
    SetT: z.number().nullable(),
    OC: z.string().nullable(),
    OpenId: z.string().nullable(),
    IsUsed: z.boolean(),
    IsPass: z.boolean(),
    UseTime: z.number().nullable(),
    FinishTime: z.number().nullable(),
    CancelTime: z.number().nullable(),
  }),
  device: z.strictObject({ Id: z.string(), name: z.string(), Type: z.number(), Location: z.string() }),
  /** The session's span: from UseTime to FinishTime (or the time of the answer while it runs); null when never used. */
  session: z.strictObject({ from: z.number(), to: z.number(), running: z.boolean() }).nullable(),
  /** As the first and the last reading of the session reported them; null without readings. */
  settings: z.strictObject({ atStart: settingsSchema, atEnd: settingsSchema }).nullable(),
  readings: z.array(readingSchema),
  /** More readings than REPORT_MAX_READINGS: the first ones are answered. */
  truncated: z.boolean(),
  commands: z.array(commandSchema),
  /** The chamber's alarms raised during the session, oldest first, each as it stands now (acknowledged, closed). */
  alarms: z.array(alarmRecordSchema),
});
export type SessionReport = z.infer<typeof sessionReportSchema>;
