import { z } from 'zod';
import { DEVICE_PERMISSIONS, DEVICE_STATES } from '../src/domain/devices';

/**
 * The simulator's calls to the server, as an administrator would make them: the upstream contract
 * (sign-in, the device, state-record and order lists, change_permission) and the REST API (registration,
 * secret rotation, the device types' ratings). A lost session (50008 / HTTP 401) signs in again once.
 */

export interface Log {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

class ApiError extends Error {
  constructor(
    readonly call: string,
    readonly code: number,
    message: string,
  ) {
    super(`${call}: ${message} (${code})`);
    this.name = 'ApiError';
  }
}

const NOT_SIGNED_IN = 50008;
/** The upstream's largest page (docs/server-lists.md). */
const PAGE = 1000;

const deviceSchema = z.object({
  Id: z.string(),
  Type: z.number().int().nullish(),
  State: z.enum(DEVICE_STATES).nullish(),
  Permission: z.enum(DEVICE_PERMISSIONS).nullish(),
  OrderNum: z.string().nullish(),
  Emergency: z.boolean().nullish(),
});
export type DeviceRecord = z.infer<typeof deviceSchema>;

const readingSchema = z.object({
  RCP: z.number().nullish(),
  RRD: z.number().nullish(),
  SP: z.number().nullish(),
  ST: z.number().nullish(),
  SS: z.enum(['F', 'M', 'S']).nullish(),
  SL: z.literal([0, 1]).nullish(),
  SA: z.literal([0, 1]).nullish(),
});
export type LastReading = z.infer<typeof readingSchema>;

const orderSchema = z.object({
  OrderNum: z.string(),
  Id: z.string(),
  OC: z.string().nullish(),
  SetT: z.number().nullish(),
  IsUsed: z.boolean().nullish(),
  IsPass: z.boolean().nullish(),
  /** Set when an operator cancelled the booking (docs/orders.md): its code starts no session. */
  CancelTime: z.number().nullish(),
});
export type OrderRecord = z.infer<typeof orderSchema>;

const listOf = <T extends z.ZodType>(item: T) => z.object({ list: z.array(item), total: z.number() });
const envelopeSchema = z.object({ data: z.unknown(), code: z.number(), msg: z.string().optional() });
const signInSchema = z.object({ State: z.boolean(), token: z.string().optional(), mustChangeCode: z.boolean().optional() });
const withSecretSchema = z.object({ Id: z.string(), secret: z.string() });
const deviceTypesSchema = z.array(z.object({ id: z.number(), ratedMaxAta: z.number() }));

export interface NewDevice {
  Id: string;
  name: string;
  Type: number;
  Location: string;
}

export class ServerApi {
  private token: string | null = null;

  constructor(
    private readonly base: string,
    private readonly account: string,
    private readonly password: string,
    private readonly apiPrefix = '/upstream',
  ) {}

  /** Signs in; throws when the account or password is wrong or the password must be changed first. */
  async signIn(): Promise<void> {
    const response = await fetch(`${this.base}${this.apiPrefix}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-language': 'en-US' },
      body: JSON.stringify({ Account: this.account, Code: this.password }),
    });
    const envelope = envelopeSchema.parse(await response.json());
    if (envelope.code !== 20000) throw new ApiError('login', envelope.code, envelope.msg ?? 'refused');
    const answer = signInSchema.parse(envelope.data);
    if (!answer.State || answer.token === undefined) throw new ApiError('login', 20000, `account or password wrong for "${this.account}"`);
    if (answer.mustChangeCode === true) {
      throw new ApiError('login', 20000, `"${this.account}" must choose a new password first (sign in to the console once)`);
    }
    this.token = answer.token;
  }

  /** Every device, by Id ascending. */
  async devices(): Promise<DeviceRecord[]> {
    const devices: DeviceRecord[] = [];
    for (let current = 1; ; current += 1) {
      const page = listOf(deviceSchema).parse(
        await this.upstream('/list/get_OCProperty', { current, pageSize: PAGE, sort: { field: 'Id', order: 'ASC' } }),
      );
      devices.push(...page.list);
      if (page.list.length < PAGE || devices.length >= page.total) return devices;
    }
  }

  /** Registers a device (`POST /api/v1/devices`) and answers its secret. */
  async registerDevice(device: NewDevice): Promise<string> {
    return withSecretSchema.parse(await this.rest('/devices', device)).secret;
  }

  /** Issues a new secret (`POST /api/v1/devices/:Id/secret`); the old one stops working. */
  async rotateSecret(deviceId: string): Promise<string> {
    return withSecretSchema.parse(await this.rest(`/devices/${encodeURIComponent(deviceId)}/secret`, {})).secret;
  }

  /** Each device type's rated maximum pressure (`GET /api/v1/device-types`), as the server holds them now. */
  async ratedMaxima(): Promise<Map<number, number>> {
    const types = deviceTypesSchema.parse(await this.rest('/device-types'));
    return new Map(types.map((type) => [type.id, type.ratedMaxAta]));
  }

  /** Opens a device for use (`order/change_permission`). */
  async openDevice(deviceId: string): Promise<void> {
    await this.upstream('/order/change_permission', { Id: deviceId, Permission: 'Open' });
  }

  /** The device's newest state record, if it has one. */
  async lastReading(deviceId: string): Promise<LastReading | undefined> {
    const page = listOf(readingSchema).parse(
      await this.upstream('/list/get_OCState', { current: 1, pageSize: 1, sort: { field: 'Time', order: 'DESC' }, filter: { Id: [deviceId] } }),
    );
    return page.list[0];
  }

  /** Open bookings of these devices with SetT in [from, to] (neither used, expired nor cancelled). */
  async openBookings(deviceIds: readonly string[], from: number, to: number): Promise<OrderRecord[]> {
    const orders = await this.orders({ Id: deviceIds, IsUsed: false, IsPass: false, SetT: { gte: from, lte: to } });
    return orders.filter((order) => order.CancelTime === null || order.CancelTime === undefined);
  }

  /** These bookings as they are now. */
  async bookings(orderNums: readonly string[]): Promise<OrderRecord[]> {
    return orderNums.length === 0 ? [] : this.orders({ OrderNum: orderNums });
  }

  private async orders(filter: Record<string, unknown>): Promise<OrderRecord[]> {
    const page = listOf(orderSchema).parse(
      await this.upstream('/list/get_Records', { current: 1, pageSize: PAGE, sort: { field: 'SetT', order: 'ASC' }, filter }),
    );
    return page.list;
  }

  private headers(): Record<string, string> {
    return { 'content-type': 'application/json', 'accept-language': 'en-US', authorization: `Bearer ${this.token ?? ''}` };
  }

  /** An upstream call in the envelope; answers `data`. */
  private async upstream(path: string, body: unknown, again = true): Promise<unknown> {
    if (this.token === null) await this.signIn();
    const response = await fetch(`${this.base}${this.apiPrefix}${path}`, { method: 'POST', headers: this.headers(), body: JSON.stringify(body) });
    const envelope = envelopeSchema.parse(await response.json());
    if (envelope.code === NOT_SIGNED_IN && again) {
      await this.signIn();
      return this.upstream(path, body, false);
    }
    if (envelope.code !== 20000) throw new ApiError(path, envelope.code, envelope.msg ?? 'failed');
    return envelope.data;
  }

  /** A POST (with `body`) or a GET (without) to the REST API under /api/v1; answers the body. */
  private async rest(path: string, body?: unknown, again = true): Promise<unknown> {
    if (this.token === null) await this.signIn();
    const request = body === undefined ? { method: 'GET', headers: this.headers() } : { method: 'POST', headers: this.headers(), body: JSON.stringify(body) };
    const response = await fetch(`${this.base}/api/v1${path}`, request);
    if (response.status === 401 && again) {
      await this.signIn();
      return this.rest(path, body, false);
    }
    const answer: unknown = await response.json();
    if (!response.ok) {
      const failure = z.object({ message: z.string(), code: z.number() }).safeParse(answer);
      throw new ApiError(path, failure.success ? failure.data.code : response.status, failure.success ? failure.data.message : response.statusText);
    }
    return answer;
  }
}
