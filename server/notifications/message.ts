import type { AlarmKind, AlarmPriority } from '../../src/domain/alarms/rules';
import type { Locale } from '../../src/domain/locales';
import { ALARM_KIND_LABELS, ALARM_KIND_UNITS } from '../../src/resources/alarms/config';
import { crudEnUS } from '../../src/resources/i18n/crud.en-US';
import { crudZhCN } from '../../src/resources/i18n/crud.zh-CN';
import { translate } from '../http/messages';
import type { AlarmRow } from '../db/schema';

/**
 * What a notification says (docs/notifications.md, "What arrives"), made when it is written to the outbox
 * and kept there as it was: the chamber, its site, the kind, the value against its limit and a link to the
 * alarm's page, in the server's notification language (NOTIFY_LOCALE).
 */
export interface Notification {
  event: 'raised' | 'escalated' | 'escalation' | 'test';
  /** The escalation's step (1, 2, …); 0 otherwise. */
  step: number;
  alarm: {
    id: number;
    device: string;
    chamber: string;
    site: string;
    kind: AlarmKind;
    priority: AlarmPriority;
    value: number | null;
    threshold: number | null;
    unit: string;
    raisedAt: number;
  } | null;
  title: string;
  /** The facts, one a line, in the notification's language. */
  lines: string[];
  link: string;
  linkText: string;
}

const UNITS: Record<Locale, Record<string, string>> = { 'en-US': crudEnUS.crud.units, 'zh-CN': crudZhCN.crud.units };

const shown = (value: number): string => String(Math.round(value * 100) / 100);

export interface AlarmNotificationInput {
  alarm: AlarmRow;
  device: { name: string; location: string };
  event: 'raised' | 'escalated' | 'escalation';
  step: number;
  /** An escalation's wait, minutes. */
  minutes?: number;
  locale: Locale;
  /** The console's origin as people reach it (CONSOLE_PUBLIC_URL). */
  publicUrl: string;
}

export const alarmNotification = ({ alarm, device, event, step, minutes = 0, locale, publicUrl }: AlarmNotificationInput): Notification => {
  const kind = alarm.kind as AlarmKind;
  const priority = alarm.priority as AlarmPriority;
  const unitKey = ALARM_KIND_UNITS[kind];
  const unit = unitKey === undefined ? '' : UNITS[locale][unitKey];
  const withUnit = (value: number) => `${shown(value)}${unit === '%' ? '' : ' '}${unit ?? ''}`.trim();
  const words = {
    alarm: Number(alarm.id),
    device: alarm.device_id,
    name: device.name,
    site: device.location,
    kind: ALARM_KIND_LABELS[locale][kind],
    priority: translate(locale, `box.alarm.${priority}`),
    value: alarm.value === null ? '' : withUnit(alarm.value),
    threshold: alarm.threshold === null ? '' : withUnit(alarm.threshold),
    minutes,
    step,
    time: new Date(Number(alarm.raised_at)).toISOString().slice(0, 19).replace('T', ' '),
  };
  const title =
    event === 'escalation'
      ? translate(locale, 'notify.escalation.title', words)
      : translate(locale, event === 'raised' ? 'box.alarmRaised.title' : 'box.alarmEscalated.title', words);
  const lines = [
    translate(locale, 'notify.chamber', words),
    translate(locale, 'notify.site', words),
    translate(locale, 'notify.kind', words),
    ...(alarm.value === null ? [] : [translate(locale, alarm.threshold === null ? 'notify.valueOnly' : 'notify.value', words)]),
    translate(locale, 'notify.raisedAt', words),
    ...(event === 'escalation' ? [translate(locale, 'notify.escalatedTo', words)] : []),
  ];
  return {
    event,
    step,
    alarm: {
      id: Number(alarm.id),
      device: alarm.device_id,
      chamber: device.name,
      site: device.location,
      kind,
      priority,
      value: alarm.value,
      threshold: alarm.threshold,
      unit: unit ?? '',
      raisedAt: Number(alarm.raised_at),
    },
    title,
    lines,
    link: `${publicUrl.replace(/\/+$/, '')}/alarms/${alarm.id}/show`,
    linkText: translate(locale, 'notify.link'),
  };
};

/** What "send test" sends: the channel's name, and a link to the console. */
export const testNotification = (channel: string, locale: Locale, publicUrl: string): Notification => ({
  event: 'test',
  step: 0,
  alarm: null,
  title: translate(locale, 'notify.test.title'),
  lines: [translate(locale, 'notify.test.line', { name: channel })],
  link: publicUrl,
  linkText: translate(locale, 'notify.link'),
});
