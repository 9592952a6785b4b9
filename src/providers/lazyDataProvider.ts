import type { ConsoleDataProvider, DataProviderOptions } from './dataProvider';

/**
 * Every method of the console's data provider, checked by the compiler against it: a method added
 * there and missing here (or the other way round) fails the build.
 */
const METHOD_NAMES = {
  getList: true,
  getOne: true,
  getMany: true,
  getManyReference: true,
  create: true,
  update: true,
  updateMany: true,
  delete: true,
  deleteMany: true,
  changePermission: true,
  changeState: true,
  changeSettings: true,
  commandOutcome: true,
  deviceCommandLog: true,
  deviceHistory: true,
  resetPassword: true,
  changeOwnPassword: true,
  assignDevices: true,
  bookChamber: true,
  cancelBooking: true,
  sessionReport: true,
  userMenu: true,
  messageList: true,
  readMessages: true,
  openAlarms: true,
  alarmAction: true,
  alarmHistory: true,
  alarmNotifications: true,
  sendTestNotification: true,
  notificationPreferences: true,
  saveNotificationPreferences: true,
  fleetSummary: true,
  statsOverview: true,
  statsReadings: true,
  statsPivot: true,
  submitChannelForm: true,
  rotateDeviceSecret: true,
  requestSettings: true,
  settingRequestAction: true,
  amendSettingRequest: true,
  profileBasic: true,
  operationLog: true,
  basicInfo: true,
  saveBasicInfo: true,
  certification: true,
  submitCertificate: true,
  pendingCertificates: true,
  decideCertificate: true,
  openSessions: true,
  revokeSession: true,
} as const satisfies Record<keyof ConsoleDataProvider, true>;

type AnyMethod = (...args: unknown[]) => Promise<unknown>;

/**
 * The data provider, its code (the adapters and the answers' zod schemas) fetched on the first call:
 * the login page makes none, so none of it is in the login route's script (docs/console.md, "Loading").
 */
export const lazyDataProvider = (options: DataProviderOptions): ConsoleDataProvider => {
  let provider: Promise<ConsoleDataProvider> | undefined;
  const load = () => (provider ??= import('./dataProvider').then(({ createDataProvider }) => createDataProvider(options)));
  const method =
    (name: keyof ConsoleDataProvider): AnyMethod =>
    async (...args) =>
      ((await load())[name] as AnyMethod)(...args);
  return Object.fromEntries(Object.keys(METHOD_NAMES).map((name) => [name, method(name as keyof ConsoleDataProvider)])) as unknown as ConsoleDataProvider;
};
