import { http, HttpResponse } from 'msw';
import { CODES } from '../src/domain/envelope';
import { DEFAULT_BROKER_PORTS, type BrokerAddress } from '../src/domain/mqtt/connection';
import { devicesConfig } from '../src/resources/devices/config';
import { deviceIdSchema } from '../src/resources/devices/requests';
import type { WireRecord } from '../src/resources/model';
import { writeSchema } from '../src/resources/schema';
import { readJson, refusalOf, type AccessCheck } from './access';
import { serverBadInput } from './issueCommands';

const answer = (status: number, message: string, code: number) => HttpResponse.json({ message, code }, { status });

/** 32 random bytes as base64url (43 characters), as the server issues a secret. */
const newSecret = (): string => {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
};

/** The mocks run no broker: they name the server's default embedded one, on the host the console was reached by. */
const brokerOf = (request: Request): BrokerAddress => ({ scheme: 'mqtt', host: new URL(request.url).hostname, port: DEFAULT_BROKER_PORTS.mqtt });

const isBlank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/**
 * Device registration, secret rotation and removal under the REST prefix (docs/server-devices.md), as the
 * server answers them: the shared policy (devices/create, devices/delete), an empty Id as code 401 before
 * the body (`device ID cannot be empty`), the shared registration schema (40000 naming the field), an
 * existing Id refused naming it, an unknown one 404; the device as listed plus `secret` and `broker`.
 * Removal takes the device from the list and leaves its readings and orders where they are. Messages in
 * en-US, as the server words them by default.
 */
export const deviceRegistryHandlers = (restBase: string, tables: Map<string, WireRecord[]>, check: AccessCheck) => {
  const devices = tables.get('devices') ?? [];
  const registration = writeSchema(devicesConfig, 'create');
  const refuse = (request: Request, action: 'create' | 'delete') => {
    const refusal = refusalOf(request, check, { resource: devicesConfig.name, action });
    if (refusal === 'notSignedIn') return answer(401, 'not logged in', CODES.notSignedIn);
    return refusal === 'forbidden' ? answer(403, 'access denied', CODES.forbidden) : undefined;
  };
  /** The path's device, or the answer refusing the Id (400 naming it) or not finding it (404). */
  const deviceAt = (Id: unknown): { device: WireRecord; index: number } | Response => {
    if (!deviceIdSchema.safeParse(Id).success) return answer(400, 'Id is invalid', CODES.badInput);
    const index = devices.findIndex((record) => record.Id === Id);
    const device = devices[index];
    return device === undefined ? answer(404, 'not found', CODES.notFound) : { device, index };
  };

  return [
    http.post(`${restBase}/devices`, async ({ request }) => {
      const refused = refuse(request, 'create');
      if (refused) return refused;
      const json: unknown = await readJson(request);
      if (isBlank(typeof json === 'object' && json !== null ? (json as WireRecord).Id : undefined)) {
        return answer(400, 'device ID cannot be empty', CODES.emptyDeviceId);
      }
      const body = registration.safeParse(json, { reportInput: true });
      if (!body.success) return answer(400, serverBadInput(body.error), CODES.badInput);
      const Id = String(body.data.Id);
      if (devices.some((record) => record.Id === Id)) return answer(400, `device ${Id} already exists (Id)`, CODES.badInput);
      const device: WireRecord = {
        ...body.data,
        State: 'Stop',
        Permission: 'Close',
        OrderNum: null,
        Emergency: false,
        Online: false,
        LastSeen: null,
        UpdateTime: Date.now(),
        SessionOC: null,
        InSession: false,
        Reading: null,
      };
      devices.unshift(device);
      return HttpResponse.json({ ...device, secret: newSecret(), broker: brokerOf(request) }, { status: 201 });
    }),
    http.post(`${restBase}/devices/:Id/secret`, ({ request, params }) => {
      const refused = refuse(request, 'create');
      if (refused) return refused;
      const found = deviceAt(params.Id);
      if (found instanceof Response) return found;
      Object.assign(found.device, { UpdateTime: Date.now() });
      return HttpResponse.json({ ...found.device, secret: newSecret(), broker: brokerOf(request) });
    }),
    http.delete(`${restBase}/devices/:Id`, ({ request, params }) => {
      const refused = refuse(request, 'delete');
      if (refused) return refused;
      const found = deviceAt(params.Id);
      if (found instanceof Response) return found;
      devices.splice(found.index, 1);
      // No one is assigned a removed device any more: its records stay the super administrator's alone (docs/scope.md).
      for (const account of tables.get('accounts') ?? []) {
        if (Array.isArray(account.DeviceIds)) account.DeviceIds = account.DeviceIds.filter((id) => id !== found.device.Id);
      }
      return HttpResponse.json(found.device);
    }),
  ];
};
