import type { DeviceState } from './devices';
import type { Level } from './roles';

/**
 * The demo's accounts and fleet as plain data: what `npm run demo` (the server's `--demo` seeders,
 * server/accounts/demo.ts and server/demo/fleet.ts) writes into its database, and what `npm run dev:mock`
 * (mocks/demo.ts) holds, so a test written against the demo runs against the mocks. The README shows
 * the passwords.
 */

/** The super administrator in demo mode (ADMIN_ACCOUNT and ADMIN_PASSWORD override it on the server). */
export const DEMO_ADMIN = { account: 'admin', password: 'Admin2026', level: 0 } as const;

/** One account per lower level, each under the one above it: admin → first → second → client. */
export const DEMO_ACCOUNTS: readonly { account: string; password: string; level: Level }[] = [
  { account: 'first', password: 'First2026', level: 1 },
  { account: 'second', password: 'Second2026', level: 2 },
  { account: 'client', password: 'Client2026', level: 3 },
];

export interface DemoDevice {
  id: string;
  name: string;
  type: number;
  location: string;
  state: DeviceState;
  permission: 'Open' | 'Close';
  online: boolean;
  /** Emergency rapid depressurisation active. */
  erd: boolean;
  /** Hours since its last reading (0: reporting now). */
  quietHours: number;
}

const device = (
  id: string,
  name: string,
  type: number,
  location: string,
  state: DeviceState,
  extra: Partial<Pick<DemoDevice, 'permission' | 'online' | 'erd' | 'quietHours'>> = {},
): DemoDevice => ({
  id,
  name,
  type,
  location,
  state,
  permission: extra.permission ?? (state === 'Work' ? 'Open' : 'Close'),
  online: extra.online ?? state !== 'Repair',
  erd: extra.erd ?? false,
  quietHours: extra.quietHours ?? (state === 'Work' ? 0 : state === 'Repair' ? 5 : 1),
});

const BEIJING = '北京市朝阳区康复中心';
const SHANGHAI = '上海市浦东新区健康管理中心';
const GUANGZHOU = '广州市天河区运动医学中心';
const CHENGDU = '成都市高新区养生馆';

/** 12 chambers at four sites. */
export const DEMO_DEVICES: readonly DemoDevice[] = [
  device('OC-BJ-001', '朝阳 1 号舱', 1, BEIJING, 'Work'),
  device('OC-BJ-002', '朝阳 2 号舱', 1, BEIJING, 'Work'),
  device('OC-BJ-003', '朝阳 3 号舱', 2, BEIJING, 'Stop', { permission: 'Open' }),
  device('OC-BJ-004', '朝阳 4 号舱', 3, BEIJING, 'Repair'),
  device('OC-SH-001', '浦东 1 号舱', 2, SHANGHAI, 'Work'),
  device('OC-SH-002', '浦东 2 号舱', 2, SHANGHAI, 'Stop'),
  device('OC-SH-003', '浦东 3 号舱', 4, SHANGHAI, 'Work'),
  device('OC-GZ-001', '天河 1 号舱', 3, GUANGZHOU, 'Work'),
  device('OC-GZ-002', '天河 2 号舱', 5, GUANGZHOU, 'Stop', { online: false, quietHours: 3 }),
  device('OC-GZ-003', '天河 3 号舱', 5, GUANGZHOU, 'Work'),
  device('OC-CD-001', '高新 1 号舱', 4, CHENGDU, 'Stop'),
  device('OC-CD-002', '高新 2 号舱', 1, CHENGDU, 'Stop', { erd: true }),
];

const ids = DEMO_DEVICES.map((demo) => demo.id);

/**
 * Who manages what (the super administrator manages every device by its level, without assignments):
 * first 8 (Beijing, Shanghai, one in Guangzhou), second 4 of first's (Beijing), client 2 of second's.
 */
export const DEMO_ASSIGNMENTS: Readonly<Record<string, readonly string[]>> = {
  first: ids.slice(0, 8),
  second: ids.slice(0, 4),
  client: ids.slice(0, 2),
};
