import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import { CoreAdminContext, memoryStore, type AuthProvider, type DataProvider } from 'react-admin';
import type { AlarmRecord } from '../../src/domain/alarms/record';
import { HIGH_PATTERN, MEDIUM_PATTERN } from '../../src/domain/alarms/signals';
import type { Locale } from '../../src/domain/locales';
import { canAccess } from '../../src/domain/policy';
import type { Role } from '../../src/domain/roles';
import { chinese } from '../../src/i18n';
import { english } from '../../src/i18n/en-US';
import { AlarmBanner } from '../../src/layout/alarms/AlarmBanner';
import { AlarmCounts } from '../../src/layout/alarms/AlarmCounts';
import { useOpenAlarmsFeed } from '../../src/providers/alarms';
import { LiveContext } from '../../src/providers/live/LiveContext';
import { fakeConnection } from './live/fakeConnection';

/**
 * The alarm banner and the app bar's counts over the tab's open alarms, with the data provider answering
 * as the server does: what the operator reads, acknowledging from the banner, the flood, and the sound's
 * state as the browser allows it.
 */

const alarm = (id: number, fields: Partial<AlarmRecord> = {}): AlarmRecord => ({
  id,
  deviceId: `OC-${id}`,
  kind: 'o2-high',
  priority: 'high',
  state: 'active-unacked',
  value: 23.6,
  threshold: 23.5,
  raisedAt: Date.now() - 42_000,
  ackedAt: null,
  ackedBy: null,
  closedAt: null,
  shelvedUntil: null,
  comment: null,
  ...fields,
});

const Signals = () => {
  useOpenAlarmsFeed();
  return (
    <>
      <AlarmCounts />
      <AlarmBanner />
    </>
  );
};

const mount = (open: AlarmRecord[], { role = 'client', locale = 'zh-CN' }: { role?: Role; locale?: Locale } = {}) => {
  const { connection, emit } = fakeConnection();
  const alarmAction = vi.fn((id: number, _action: string, _body: unknown) => {
    const held = open.find((each) => each.id === id) ?? alarm(id);
    return Promise.resolve({ ...held, state: 'active-acked', ackedAt: Date.now(), ackedBy: role });
  });
  const dataProvider = { openAlarms: () => Promise.resolve(open), alarmAction } as unknown as DataProvider;
  const authProvider: AuthProvider = {
    login: () => Promise.resolve(),
    logout: () => Promise.resolve(),
    checkAuth: () => Promise.resolve(),
    checkError: () => Promise.resolve(),
    canAccess: ({ resource, action }) => Promise.resolve(canAccess(role, { resource, action })),
  };
  render(
    <CoreAdminContext
      dataProvider={dataProvider}
      authProvider={authProvider}
      i18nProvider={polyglotI18nProvider(() => (locale === 'zh-CN' ? chinese : english), locale)}
      store={memoryStore()}
    >
      <LiveContext.Provider value={connection}>
        <Signals />
      </LiveContext.Provider>
    </CoreAdminContext>,
  );
  const raise = (record: AlarmRecord) => act(() => emit('event', { type: 'alarm', data: record }));
  return { alarmAction, raise };
};

/** The first render of the console's components in jsdom takes a while. */
const FIRST_SHOWN = { timeout: 10_000 };

const banner = () => document.querySelector<HTMLElement>('[data-alarm-banner]');
const counts = () => document.querySelector<HTMLElement>('[data-alarm-counts]');

describe('the alarm banner and counts', () => {
  it('shows a client the high alarm in red, and its acknowledgement takes the banner away but keeps the count', async () => {
    const { alarmAction } = mount([alarm(7), alarm(3, { priority: 'low', kind: 'humidity', value: 88, threshold: 85, raisedAt: Date.now() - 1000 })]);
    await waitFor(() => expect(banner()?.dataset.priority).toBe('high'), FIRST_SHOWN);
    const shown = within(banner() as HTMLElement);
    expect(banner()?.dataset.alarmId).toBe('7');
    shown.getByText('高优先级报警（1）');
    shown.getByText('OC-7');
    shown.getByText('舱内氧浓度高');
    shown.getByText('23.6 % ≥ 23.5 %');
    // Raised 42 s before the test began.
    shown.getByText(/^00:4\d$/);
    // The test's router keeps the path in the hash.
    expect(shown.getByRole('link', { name: '查看全部' }).getAttribute('href')).toMatch(/^#\/alarms\?filter=/);
    expect({ ...counts()?.dataset }).toMatchObject({ high: '1', medium: '0', low: '1', newestAlarm: '3' });

    fireEvent.click(await shown.findByRole('button', { name: '确认' }));
    await waitFor(() => expect(banner()).toBeNull());
    expect(alarmAction).toHaveBeenCalledWith(7, 'ack', {});
    // Acknowledged but still active: it still stands.
    expect(counts()?.dataset.high).toBe('1');
  });

  it('links each count to the alarm list of its priority', async () => {
    mount([alarm(1, { priority: 'medium' })]);
    const medium = await screen.findByRole('link', { name: '中优先级报警：1 条' }, FIRST_SHOWN);
    const filter = JSON.parse(new URL((medium.getAttribute('href') ?? '').replace(/^#/, ''), 'http://console.test').searchParams.get('filter') ?? '');
    expect(filter).toEqual({ priority: 'medium', state: ['active-unacked', 'active-acked', 'rtn-unacked'] });
  });

  it('is yellow for medium alarms only, without a silence, and absent for low ones', async () => {
    const { raise } = mount([alarm(1, { priority: 'low', kind: 'humidity' })]);
    await waitFor(() => expect(counts()?.dataset.low).toBe('1'), FIRST_SHOWN);
    expect(banner()).toBeNull();
    raise(alarm(2, { priority: 'medium', kind: 'temperature', value: 27.04, threshold: 26, raisedAt: Date.now() }));
    await waitFor(() => expect(banner()?.dataset.priority).toBe('medium'));
    within(banner() as HTMLElement).getByText('27.0 °C ≥ 26.0 °C');
    expect(screen.queryByRole('button', { name: '静音 2 分钟' })).toBeNull();
  });

  it('names the newest alarm waiting, and in English', async () => {
    const { raise } = mount([alarm(1)], { locale: 'en-US' });
    await waitFor(() => expect(banner()?.dataset.alarmId).toBe('1'), FIRST_SHOWN);
    raise(alarm(2, { kind: 'spo2-low', value: 88, threshold: 90, raisedAt: Date.now() }));
    await waitFor(() => expect(banner()?.dataset.alarmId).toBe('2'));
    const shown = within(banner() as HTMLElement);
    shown.getByText('High-priority alarms (2)');
    shown.getByText('SpO2 low');
    shown.getByText('88 % ≤ 90 %');
    expect(counts()?.dataset.newestAlarm).toBe('2');
  });

  it('collapses a flood into one line naming its first alarm, which Acknowledge applies to', async () => {
    // A low alarm from before the flood's window: once counted, the tab has read its alarms.
    const { raise, alarmAction } = mount([alarm(100, { priority: 'low', kind: 'humidity', raisedAt: Date.now() - 20 * 60_000 })]);
    await waitFor(() => expect(counts()?.dataset.low).toBe('1'), FIRST_SHOWN);
    const start = Date.now() - 60_000;
    for (let id = 1; id <= 11; id += 1) raise(alarm(id, { raisedAt: start + id * 1000 }));
    // One of them closes again: it still counts in the flood.
    raise(alarm(5, { raisedAt: start + 5000, state: 'closed' }));
    await waitFor(() => expect(banner()?.dataset.flood).toBe('11'));
    const shown = within(banner() as HTMLElement);
    shown.getByText('报警泛滥：10 分钟内 11 条报警');
    shown.getByText('OC-1');
    fireEvent.click(shown.getByRole('button', { name: '确认' }));
    await waitFor(() => expect(banner()?.dataset.alarmId).toBe('2'));
    expect(alarmAction).toHaveBeenCalledWith(1, 'ack', {});
  });
});

/**
 * jsdom has no Web Audio: a stand-in with the parts the banner uses, suspended until resumed (as a
 * browser keeps it until the person clicks), counting the tones started.
 */
class StandInAudioContext extends EventTarget {
  static tones: number[] = [];
  state: AudioContextState = 'suspended';
  currentTime = 0;
  destination = {};
  resume() {
    this.state = 'running';
    this.dispatchEvent(new Event('statechange'));
    return Promise.resolve();
  }
  close() {
    this.state = 'closed';
    return Promise.resolve();
  }
  createOscillator() {
    const param = { value: 0 };
    return { type: '', frequency: param, connect: (node: unknown) => node, start: () => StandInAudioContext.tones.push(param.value), stop: () => undefined };
  }
  createGain() {
    const node = { gain: { setValueAtTime: () => undefined, linearRampToValueAtTime: () => undefined }, connect: (next: unknown) => next };
    return node;
  }
}

describe('the alarm sound', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    StandInAudioContext.tones = [];
  });

  it('is blocked until the first click, then plays the high pattern, and is silenced on request', async () => {
    vi.stubGlobal('AudioContext', StandInAudioContext);
    mount([alarm(1)], { role: 'lowUser' });
    await waitFor(() => expect(banner()?.dataset.sound).toBe('blocked'), FIRST_SHOWN);
    expect(StandInAudioContext.tones).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: '声音被浏览器阻止，点击启用' }));
    await waitFor(() => expect(banner()?.dataset.sound).toBe('playing'));
    expect(StandInAudioContext.tones).toEqual(HIGH_PATTERN.pulses.map(() => HIGH_PATTERN.hz));

    fireEvent.click(screen.getByRole('button', { name: '静音 2 分钟' }));
    await waitFor(() => expect(banner()?.dataset.sound).toBe('silenced'));
    within(banner() as HTMLElement).getByText(/^已静音，0[12]:\d\d 后恢复声音$/);
  });

  it('ends a silence when a new high alarm is raised, and sounds one medium tone per medium alarm raised', async () => {
    vi.stubGlobal('AudioContext', StandInAudioContext);
    const { raise } = mount([alarm(1)]);
    await waitFor(() => expect(banner()?.dataset.sound).toBe('blocked'), FIRST_SHOWN);
    fireEvent.keyDown(window, { key: 'Shift' });
    await waitFor(() => expect(banner()?.dataset.sound).toBe('playing'));
    fireEvent.click(screen.getByRole('button', { name: '静音 2 分钟' }));
    await waitFor(() => expect(banner()?.dataset.sound).toBe('silenced'));

    StandInAudioContext.tones = [];
    raise(alarm(2, { priority: 'medium', kind: 'temperature', raisedAt: Date.now() }));
    expect(StandInAudioContext.tones).toEqual([]);
    raise(alarm(3, { raisedAt: Date.now() }));
    await waitFor(() => expect(banner()?.dataset.sound).toBe('playing'));
    raise(alarm(4, { priority: 'medium', kind: 'temperature', raisedAt: Date.now() }));
    raise(alarm(4, { priority: 'medium', kind: 'temperature', raisedAt: Date.now() }));
    const medium = StandInAudioContext.tones.filter((hz) => hz === MEDIUM_PATTERN.hz);
    expect(medium).toHaveLength(MEDIUM_PATTERN.pulses.length);
  });
});
