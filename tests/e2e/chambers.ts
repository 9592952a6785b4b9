import { postTo } from './harness';

/**
 * Calls of the real server a browser test makes as a person's setup (through the harness's postTo): sign
 * in, register chambers in a hall of their own.
 */
export const tokenOf = async (serverUrl: string, account: string, password: string): Promise<string> =>
  (await postTo<{ token: string }>(serverUrl, '/upstream/login', { Account: account, Code: password })).token;

/** Registers `ids` at `hall` as the super administrator, assigns `toClient` of them to the demo client; their MQTT secrets by Id. */
export const registerHall = async (serverUrl: string, { hall, ids, Type, toClient }: { hall: string; ids: string[]; Type: number; toClient: string[] }) => {
  const token = await tokenOf(serverUrl, 'admin', 'Admin2026');
  const secrets = new Map<string, string>();
  for (const Id of ids) {
    const { secret } = await postTo<{ secret: string }>(serverUrl, '/api/v1/devices', { Id, name: `${Id} 舱`, Type, Location: hall }, token);
    secrets.set(Id, secret);
  }
  await postTo(serverUrl, '/upstream/assign_Devices', { Account: 'client', DeviceIds: toClient }, token);
  return secrets;
};

/** The Ids of the chambers `account` sees, as the server scopes the device list. */
export const scopeOf = async (serverUrl: string, account: string, password: string): Promise<string[]> => {
  const token = await tokenOf(serverUrl, account, password);
  const { list } = await postTo<{ list: { Id: string }[] }>(serverUrl, '/upstream/list/get_OCProperty', { current: 1, pageSize: 1000 }, token);
  return list.map(({ Id }) => Id).sort();
};
