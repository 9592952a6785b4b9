import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_DEVICE_TYPES } from '../../src/domain/deviceTypes';
import { CODES } from '../../src/domain/envelope';
import { DEVICE_COMMANDS } from '../../src/resources/devices/config';
import type { WireRecord } from '../../src/resources/model';
import { recordingLink, storedCommands, type RecordingLink } from './device-command-fakes';
import { call, envelope } from './http';
import { snapshot, T0, useFleetApp, type DemoName } from './fleet';
import { fakeClock, STORE_KINDS, useStore } from './stores';

/**
 * Set points within the chamber's rating (docs/device-types.md, "Set points within the rating"), on both
 * stores: a settings command above the device type's rated maximum, a device's move to a type rated below
 * its set point in force, and a type's rating lowered below a set point in force on one of its chambers
 * are each refused with 40000 naming the field and the limit, in the caller's language, writing nothing
 * and publishing nothing; exactly at the rating is allowed. The fleet's types: OC-A1 1 (rated 1.3),
 * OC-A2 and OC-B1 2 (1.5), OC-B2 3 (1.5), OC-C1 4 (1.5), OC-C2 5 (2.0).
 */

const SETTINGS = DEVICE_COMMANDS.changeSettings;
const UPDATE = '/device/update_OCProperty';

describe.each(STORE_KINDS)('set points within the rating (%s)', (kind) => {
  const store = useStore(kind);
  const clock = fakeClock(T0 + 60_000);
  const fleet = useFleetApp(store, clock.now);
  let link: RecordingLink;
  beforeEach(async () => {
    clock.advance(1000);
    link = recordingLink();
    fleet.app.ctx.link = link;
    // The store keeps the types between tests (wiping empties the data tables only): back to the migration's.
    for (const type of DEFAULT_DEVICE_TYPES) {
      await db().updateTable('device_types').set({ name: type.name, rated_max_ata: type.ratedMaxAta }).where('id', '=', type.id).execute();
    }
  });

  const db = () => store.context().db;
  const post = async (path: string, body: unknown, lang = 'en-US', who: DemoName = 'admin') => {
    const response = await call(fleet.app, path, body, { token: fleet.tokens[who], lang });
    return { http: response.statusCode, ...envelope<WireRecord | null>(response) };
  };
  const putType = async (id: number, ratedMaxAta: number, lang = 'en-US') => {
    const type = await db().selectFrom('device_types').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const response = await fleet.app.inject({
      method: 'PUT',
      url: `/api/v1/device-types/${id}`,
      headers: { authorization: `Bearer ${fleet.tokens.admin}`, 'content-type': 'application/json', 'accept-language': lang },
      payload: JSON.stringify({ id, name: type.name, ratedMaxAta, updatedAt: Number(type.updated_at) }),
    });
    return { http: response.statusCode, body: response.json<{ message?: string; code?: number; ratedMaxAta?: number }>() };
  };
  /** The chamber reported `SP` in its newest reading (the set point in force). */
  const reports = (device: string, SP: number) =>
    db().updateTable('devices').set({ latest: JSON.stringify({ Id: device, Time: clock.now(), SP, RCP: 1.01 }), last_seen_at: clock.now() }).where('id', '=', device).execute();
  const edit = (Id: string, Type: number) => ({ Id, name: 'Renamed', Type, Location: 'Hall Z' });
  const typeRow = (id: number) => db().selectFrom('device_types').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const auditEntries = () => db().selectFrom('audit_log').selectAll().where('target_type', 'in', ['device', 'deviceType']).orderBy('id').execute();

  /** Runs a refused call and checks that no table changed, no entry or command was written, nothing was published. */
  const unchanged = async <T>(refused: () => Promise<T>): Promise<T> => {
    const before = [await snapshot(store.context()), JSON.stringify(await db().selectFrom('device_types').selectAll().orderBy('id').execute())];
    const entries = await auditEntries();
    const commands = await storedCommands(fleet.app);
    const result = await refused();
    expect([await snapshot(store.context()), JSON.stringify(await db().selectFrom('device_types').selectAll().orderBy('id').execute())]).toEqual(before);
    expect(await auditEntries()).toEqual(entries);
    expect(await storedCommands(fleet.app)).toEqual(commands);
    expect(link.sent).toEqual([]);
    return result;
  };

  describe('change_settings', () => {
    it("refuses an SP above the device type's rating, naming SP, the limit and the type, in both languages", async () => {
      const english = await unchanged(() => post(SETTINGS, { Id: 'OC-A1', SP: 1.31, ST: 60 }));
      expect(english).toEqual({ http: 400, data: null, status: 'fail', code: CODES.badInput, msg: 'SP must be at most 1.3 ATA, the rated maximum of type 1 (单人软体舱)' });
      const chinese = await unchanged(() => post(SETTINGS, { Id: 'OC-A1', SP: 1.5 }, 'zh-CN'));
      expect(chinese).toMatchObject({ http: 400, code: CODES.badInput, msg: 'SP 不能大于 1.3 ATA，即类型 1（单人软体舱）的额定最高压力' });
      // The user role is held to the same limit on its own devices.
      expect(await unchanged(() => post(SETTINGS, { Id: 'OC-B1', SP: 1.6 }, 'en-US', 'first'))).toMatchObject({
        code: CODES.badInput,
        msg: 'SP must be at most 1.5 ATA, the rated maximum of type 2 (单人硬体舱)',
      });
    });

    it('accepts an SP exactly at the rating, and settings without an SP whatever the rating', async () => {
      const atRating = await post(SETTINGS, { Id: 'OC-A1', SP: 1.3 });
      expect(atRating).toMatchObject({ http: 200, code: CODES.ok });
      expect(await post(SETTINGS, { Id: 'OC-C2', SP: 2 })).toMatchObject({ http: 200, code: CODES.ok });
      expect(await post(SETTINGS, { Id: 'OC-A1', ST: 90 })).toMatchObject({ http: 200, code: CODES.ok });
      expect(link.sent.map(({ deviceId, command }) => [deviceId, command.type === 'settings' ? command.SP : null])).toEqual([
        ['OC-A1', 1.3],
        ['OC-C2', 2],
        ['OC-A1', undefined],
      ]);
    });

    it('follows the rating as the administrator edited it', async () => {
      expect((await putType(5, 1.6)).http).toBe(200);
      expect(await unchanged(() => post(SETTINGS, { Id: 'OC-C2', SP: 1.7 }))).toMatchObject({
        code: CODES.badInput,
        msg: 'SP must be at most 1.6 ATA, the rated maximum of type 5 (医用加压舱)',
      });
      expect(await post(SETTINGS, { Id: 'OC-C2', SP: 1.6 })).toMatchObject({ code: CODES.ok });
    });

    it('answers a device out of scope as not found before it speaks of the rating', async () => {
      expect(await unchanged(() => post(SETTINGS, { Id: 'OC-C2', SP: 2.5 }, 'en-US', 'first'))).toMatchObject({ http: 404, code: CODES.notFound });
    });
  });

  describe("a device's type (device/update_OCProperty)", () => {
    it('refuses a type rated below the set point the chamber reports, naming Type, the type, its rating, the device and the set point', async () => {
      await reports('OC-B1', 1.5);
      const english = await unchanged(() => post(UPDATE, edit('OC-B1', 1)));
      expect(english).toEqual({
        http: 400,
        data: null,
        status: 'fail',
        code: CODES.badInput,
        msg: 'Type: type 1 (单人软体舱) is rated 1.3 ATA, below the set point of 1.5 ATA in force on OC-B1',
      });
      const chinese = await unchanged(() => post(UPDATE, edit('OC-B1', 1), 'zh-CN'));
      expect(chinese.msg).toBe('Type：类型 1（单人软体舱）的额定最高压力为 1.3 ATA，低于设备 OC-B1 当前生效的设定压力 1.5 ATA');
    });

    it('accepts a type rated exactly at the set point in force, or above it, and a device that reported none', async () => {
      await reports('OC-B1', 1.3);
      expect(await post(UPDATE, edit('OC-B1', 1))).toMatchObject({ http: 200, code: CODES.ok, data: { Type: 1 } });
      await reports('OC-C2', 1.5);
      expect(await post(UPDATE, edit('OC-C2', 3))).toMatchObject({ code: CODES.ok, data: { Type: 3 } });
      expect(await post(UPDATE, edit('OC-C1', 1))).toMatchObject({ code: CODES.ok, data: { Type: 1 } });
    });

    it('counts a settings command the chamber has not reported yet, until it is refused or times out', async () => {
      await reports('OC-A2', 1.2);
      clock.advance(1000);
      expect(await post(SETTINGS, { Id: 'OC-A2', SP: 1.5 })).toMatchObject({ code: CODES.ok });
      link.sent.length = 0;
      expect(await unchanged(() => post(UPDATE, edit('OC-A2', 1)))).toMatchObject({
        code: CODES.badInput,
        msg: 'Type: type 1 (单人软体舱) is rated 1.3 ATA, below the set point of 1.5 ATA in force on OC-A2',
      });
      // Acknowledged and not reported yet: still in force.
      await db().updateTable('device_commands').set({ status: 'acked', answered_at: clock.now() }).where('device_id', '=', 'OC-A2').execute();
      expect((await unchanged(() => post(UPDATE, edit('OC-A2', 1)))).code).toBe(CODES.badInput);
      // The chamber refused it: the set point in force is the one it reports.
      await db().updateTable('device_commands').set({ status: 'refused' }).where('device_id', '=', 'OC-A2').execute();
      expect(await post(UPDATE, edit('OC-A2', 1))).toMatchObject({ code: CODES.ok, data: { Type: 1 } });
    });

    it('keeps a type whose rating now lies below the set point: only a change of type is checked', async () => {
      await reports('OC-B1', 1.5);
      expect(await post(UPDATE, { ...edit('OC-B1', 2), name: 'Kept type' })).toMatchObject({ code: CODES.ok, data: { name: 'Kept type', Type: 2 } });
    });
  });

  describe("a type's rating (PUT /api/v1/device-types/:id)", () => {
    it('refuses a rating below a set point in force on one of its chambers, naming ratedMaxAta, how many and the highest', async () => {
      await reports('OC-A2', 1.4);
      await reports('OC-B1', 1.5);
      const one = await unchanged(() => putType(2, 1.4));
      expect(one).toEqual({
        http: 400,
        body: { code: CODES.badInput, message: 'ratedMaxAta cannot be 1.4 ATA: 1 chamber(s) of this type run a higher set point, OC-B1 at 1.5 ATA' },
      });
      const both = await unchanged(() => putType(2, 1.3, 'zh-CN'));
      expect(both.http).toBe(400);
      expect(both.body.message).toBe('ratedMaxAta 不能设为 1.3 ATA：该类型有 2 台氧舱的设定压力更高，如 OC-B1 为 1.5 ATA');
      expect(await typeRow(2)).toMatchObject({ rated_max_ata: 1.5 });
    });

    it('counts a settings command on its way to one of its chambers', async () => {
      expect(await post(SETTINGS, { Id: 'OC-C2', SP: 1.9 })).toMatchObject({ code: CODES.ok });
      link.sent.length = 0;
      expect(await unchanged(() => putType(5, 1.8))).toMatchObject({ http: 400, body: { message: expect.stringContaining('OC-C2 at 1.9 ATA') } });
    });

    it('accepts a rating exactly at the highest set point in force, and any rise', async () => {
      await reports('OC-A2', 1.4);
      await reports('OC-B1', 1.45);
      expect(await putType(2, 1.45)).toMatchObject({ http: 200, body: { ratedMaxAta: 1.45 } });
      expect(await putType(2, 1.2).then((answer) => answer.http)).toBe(400);
      expect(await putType(2, 2.5)).toMatchObject({ http: 200, body: { ratedMaxAta: 2.5 } });
      expect((await auditEntries()).map((entry) => entry.action)).toEqual(['deviceType.update', 'deviceType.update']);
    });
  });
});
