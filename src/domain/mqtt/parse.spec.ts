import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stateRecordsConfig } from '../../resources/state-records/config';
import { EXAMPLE_DEVICE_ID, EXAMPLE_NOW, EXAMPLE_TIME, MQTT_EXAMPLES, MQTT_REJECTED_EXAMPLES } from '../../../tests/fixtures/mqttExamples';
import { MAX_PAYLOAD_BYTES, parseMessage, type ParseResult } from './parse';
import { MAX_FUTURE_MS, MIN_TIME, RANGES, isTimeSane } from './payloads';
import { TOPIC_KINDS, parseTopic, topicFor } from './topics';

const now = EXAMPLE_NOW;
const telemetryTopic = topicFor(EXAMPLE_DEVICE_ID, 'telemetry');
// A path, not a URL object: under jsdom the global URL is jsdom's, which node:fs does not take.
const doc = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../../../docs/mqtt.md'), 'utf8');

const reason = (result: ParseResult) => (result.ok ? 'accepted' : result.reason);
const telemetry = (record: Record<string, unknown>) =>
  reason(parseMessage(telemetryTopic, JSON.stringify({ Time: EXAMPLE_TIME, ...record }), now));
const onTopic = (kind: (typeof TOPIC_KINDS)[number], payload: unknown) =>
  reason(parseMessage(topicFor(EXAMPLE_DEVICE_ID, kind), typeof payload === 'string' ? payload : JSON.stringify(payload), now));

describe('the examples of docs/mqtt.md', () => {
  it.each(Object.entries(MQTT_EXAMPLES))('%s parses, as its kind', (_name, example) => {
    const result = parseMessage(example.topic, example.payload, now);
    expect(result).toMatchObject({ ok: true, deviceId: EXAMPLE_DEVICE_ID, kind: example.kind });
    // Bytes as a broker hands them over parse the same.
    expect(parseMessage(example.topic, new TextEncoder().encode(example.payload), now)).toEqual(result);
  });

  it.each(MQTT_REJECTED_EXAMPLES.map((example) => [example.reason, example] as const))('refused as %s', (expected, example) => {
    expect(reason(parseMessage(example.topic, example.payload, now))).toBe(expected);
  });

  it('the page shows every example literally, with its topic', () => {
    for (const [name, example] of Object.entries(MQTT_EXAMPLES)) {
      expect(doc, name).toContain(`-t ${example.topic} -m '${example.payload}'`);
    }
    for (const example of MQTT_REJECTED_EXAMPLES) {
      expect(doc, example.payload).toContain(`| \`${example.topic}\` | \`${example.payload}\` | \`${example.reason}\` |`);
    }
  });

  it('the page names every field, range and reason the schema has', () => {
    const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    for (const [field, range] of Object.entries(RANGES)) {
      // The telemetry table's row: | `RCP` | number | ATA (absolute) | 0 – 6 | no | … |
      expect(doc, field).toMatch(new RegExp(`\\| \`${field}\` \\|[^\\n]*\\| ${escape(`${range.min} – ${range.max}`)} \\|`));
    }
    expect(doc).toContain(`${MAX_PAYLOAD_BYTES} bytes`);
    for (const text of ['`topic`', '`size`', '`encoding`', '`json`', '`schema:<field>`', '`schema:unknown`', '`idMismatch`', '`time`']) {
      expect(doc).toContain(text);
    }
  });
});

describe('telemetry', () => {
  it('takes any subset of the readings with a Time, and an Id equal to the topic', () => {
    expect(telemetry({})).toBe('accepted');
    expect(telemetry({ Id: EXAMPLE_DEVICE_ID, RCP: 1.3 })).toBe('accepted');
    expect(telemetry({ HmBP: '120/80' })).toBe('accepted');
    for (const [field, range] of Object.entries(RANGES)) {
      expect(telemetry({ [field]: range.min }), field).toBe('accepted');
      expect(telemetry({ [field]: range.max }), field).toBe('accepted');
    }
  });

  it('refuses out-of-range, mistyped and non-integer values, naming the field', () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ RCPi02: 100.1 }, 'schema:RCPi02'],
      [{ RCPi02: -1 }, 'schema:RCPi02'],
      [{ RGPi02: 101 }, 'schema:RGPi02'],
      [{ RCP: -0.1 }, 'schema:RCP'],
      [{ RCP: 6.01 }, 'schema:RCP'],
      [{ RCP: '1.3' }, 'schema:RCP'],
      [{ RCP: null }, 'schema:RCP'],
      [{ SP: 0.9 }, 'schema:SP'],
      [{ ST: 30.5 }, 'schema:ST'],
      [{ RRD: -1 }, 'schema:RRD'],
      [{ RCT: 61 }, 'schema:RCT'],
      [{ RCT: -21 }, 'schema:RCT'],
      [{ RCRH: 100.5 }, 'schema:RCRH'],
      [{ RAP: 49 }, 'schema:RAP'],
      [{ HmHR: 19 }, 'schema:HmHR'],
      [{ HmHR: 251 }, 'schema:HmHR'],
      [{ HmHR: 72.5 }, 'schema:HmHR'],
      [{ HmSP02: 0 }, 'schema:HmSP02'],
      [{ HmSP02: 101 }, 'schema:HmSP02'],
      [{ HmBP: '80/120' }, 'schema:HmBP'],
      [{ HmBP: '120-80' }, 'schema:HmBP'],
      [{ HmBP: 120 }, 'schema:HmBP'],
      [{ SS: 'f' }, 'schema:SS'],
      [{ L: 2 }, 'schema:L'],
      [{ SL: true }, 'schema:SL'],
      [{ SA: 0.5 }, 'schema:SA'],
      [{ Time: 1.5e12 + 0.5 }, 'schema:Time'],
      [{ Time: '1767600000000' }, 'schema:Time'],
      [{ Time: -1 }, 'schema:Time'],
      [{ Id: 7 }, 'schema:Id'],
      [{ rcp: 1.3 }, 'schema:unknown'],
      [{ HmSPO2: 98 }, 'schema:unknown'],
    ];
    for (const [record, expected] of cases) expect(telemetry(record), JSON.stringify(record)).toBe(expected);
    expect(reason(parseMessage(telemetryTopic, '{"RCP":1e400,"Time":1767600000000}', now))).toBe('schema:RCP');
  });

  it('names an unknown field only in the detail, never in the reason', () => {
    expect(parseMessage(telemetryTopic, '{"Time":1767600000000,"Pressure\\n":1}', now)).toEqual({
      ok: false,
      reason: 'schema:unknown',
      detail: 'Pressure?',
    });
  });

  it('refuses a Time from the future or from an unset clock, an Id of another device, a non-object', () => {
    expect(telemetry({ Time: now + MAX_FUTURE_MS })).toBe('accepted');
    expect(telemetry({ Time: now + MAX_FUTURE_MS + 1 })).toBe('time');
    expect(telemetry({ Time: MIN_TIME - 1 })).toBe('time');
    expect(telemetry({ Time: 0 })).toBe('time');
    expect(isTimeSane(MIN_TIME, now)).toBe(true);
    expect(telemetry({ Id: 'OC-BJ-002' })).toBe('idMismatch');
    expect(telemetry({ Id: 'oc-bj-001' })).toBe('idMismatch');
    for (const payload of ['[]', 'null', '42', '"online"', 'true']) expect(onTopic('telemetry', payload), payload).toBe('schema');
    for (const payload of ['', '{', '{"Time":1767600000000,}', "{'Time':1}", 'NaN', '\uFEFF{"Time":1767600000000}']) {
      expect(onTopic('telemetry', payload), payload).toBe('json');
    }
  });

  it('refuses payloads over the size limit, counted in UTF-8 bytes', () => {
    const fits = JSON.stringify({ Time: EXAMPLE_TIME, RCP: 1.3 }).padEnd(MAX_PAYLOAD_BYTES, ' ');
    expect(parseMessage(telemetryTopic, fits, now).ok).toBe(true);
    expect(reason(parseMessage(telemetryTopic, `${fits} `, now))).toBe('size');
    expect(reason(parseMessage(telemetryTopic, new Uint8Array(MAX_PAYLOAD_BYTES + 1), now))).toBe('size');
    // 2,000 characters, 6,000 bytes.
    expect(reason(parseMessage(telemetryTopic, `{"Time":1767600000000,"x":"${'氧'.repeat(2000)}"}`, now))).toBe('size');
  });

  it('refuses bytes that are not UTF-8', () => {
    expect(reason(parseMessage(telemetryTopic, new Uint8Array([0x7b, 0xff, 0x7d]), now))).toBe('encoding');
  });

  it('is refused on a topic that is not a device topic, whatever the payload', () => {
    const payload = MQTT_EXAMPLES.telemetry.payload;
    for (const topic of ['oc/+/telemetry', 'oc/OC-BJ-001/telemetry/x', 'oc/OC-BJ-001', 'devices/OC-BJ-001/telemetry', '$share/oxygen/oc/OC-BJ-001/telemetry']) {
      expect(reason(parseMessage(topic, payload, now)), topic).toBe('topic');
    }
    // Another device's topic shape is fine for the parser (the broker's rights keep a device to its own
    // topics), but an Id naming another device than the topic is not.
    expect(parseMessage('oc/OC-BJ-002/telemetry', payload, now)).toMatchObject({ ok: true, deviceId: 'OC-BJ-002' });
    expect(reason(parseMessage('oc/OC-BJ-002/telemetry', MQTT_EXAMPLES.telemetryWithId.payload, now))).toBe('idMismatch');
  });

  it('every reading range lies within what the state records store and show', () => {
    const fields = stateRecordsConfig.fields as Record<string, { kind: string; min?: number; max?: number; integer?: boolean }>;
    for (const [field, range] of Object.entries(RANGES)) {
      const stored = fields[field];
      if (!stored) {
        expect(field, 'only atmospheric pressure is not stored yet').toBe('RAP');
        continue;
      }
      expect(stored.kind, field).toBe('number');
      expect(range.min, field).toBeGreaterThanOrEqual(stored.min ?? -Infinity);
      expect(range.max, field).toBeLessThanOrEqual(stored.max ?? Infinity);
      expect('integer' in range && range.integer, field).toBe(stored.integer ?? false);
    }
  });
});

describe('events, status, commands, acks', () => {
  it('events', () => {
    expect(onTopic('event', { type: 'sessionStart', Time: EXAMPLE_TIME, OC: '1' })).toBe('accepted');
    expect(onTopic('event', { type: 'sessionStart', Time: EXAMPLE_TIME, OC: 'x'.repeat(33) })).toBe('schema:OC');
    expect(onTopic('event', { type: 'sessionStart', Time: EXAMPLE_TIME, OC: 'a b' })).toBe('schema:OC');
    expect(onTopic('event', { type: 'sessionStart', Time: EXAMPLE_TIME, OC: 'a\u0000' })).toBe('schema:OC');
    expect(onTopic('event', { type: 'sessionEnd', Time: EXAMPLE_TIME, OC: '1' })).toBe('schema:unknown');
    expect(onTopic('event', { type: 'emergency', Time: EXAMPLE_TIME })).toBe('schema:active');
    expect(onTopic('event', { type: 'emergency', Time: EXAMPLE_TIME, active: 1 })).toBe('schema:active');
    expect(onTopic('event', { type: 'fault', Time: EXAMPLE_TIME, code: 'E1' })).toBe('accepted');
    expect(onTopic('event', { type: 'fault', Time: EXAMPLE_TIME, code: 'E 1' })).toBe('schema:code');
    expect(onTopic('event', { type: 'fault', Time: EXAMPLE_TIME, code: 'E1', message: 'x'.repeat(201) })).toBe('schema:message');
    expect(onTopic('event', { type: 'reboot', Time: EXAMPLE_TIME })).toBe('schema:type');
    expect(onTopic('event', { Time: EXAMPLE_TIME })).toBe('schema:type');
    expect(onTopic('event', { type: 'sessionEnd' })).toBe('schema:Time');
    expect(onTopic('event', { type: 'sessionEnd', Time: now + MAX_FUTURE_MS + 1 })).toBe('time');
    expect(onTopic('event', { type: 'sessionEnd', Time: EXAMPLE_TIME, Id: EXAMPLE_DEVICE_ID })).toBe('schema:unknown');
  });

  it('status is plain text, exactly online or offline', () => {
    expect(parseMessage('oc/OC-BJ-001/status', 'online', now)).toEqual({ ok: true, deviceId: 'OC-BJ-001', kind: 'status', message: 'online' });
    for (const payload of ['', 'Online', 'online\n', '"online"', '{"status":"online"}', '1']) expect(onTopic('status', payload), payload).toBe('schema');
  });

  it('commands', () => {
    const base = { cmdId: 'c1', Time: EXAMPLE_TIME };
    expect(onTopic('cmd', { ...base, type: 'permission', Permission: 'Close' })).toBe('accepted');
    expect(onTopic('cmd', { ...base, type: 'permission', Permission: 'open' })).toBe('schema:Permission');
    expect(onTopic('cmd', { ...base, type: 'state', State: 'Repair' })).toBe('accepted');
    expect(onTopic('cmd', { ...base, type: 'state', State: 'Idle' })).toBe('schema:State');
    expect(onTopic('cmd', { ...base, type: 'settings', SL: 0 })).toBe('accepted');
    expect(onTopic('cmd', { ...base, type: 'settings' })).toBe('schema:settings');
    expect(onTopic('cmd', { ...base, type: 'settings', SP: 3.5 })).toBe('schema:SP');
    expect(onTopic('cmd', { ...base, type: 'settings', RCP: 1.3 })).toBe('schema:unknown');
    expect(onTopic('cmd', { ...base, type: 'reboot' })).toBe('schema:type');
    expect(onTopic('cmd', { ...base, type: 'state', State: 'Work', cmdId: '' })).toBe('schema:cmdId');
    expect(onTopic('cmd', { ...base, type: 'state', State: 'Work', cmdId: 'x'.repeat(65) })).toBe('schema:cmdId');
    expect(onTopic('cmd', { ...base, type: 'state', State: 'Work', cmdId: 'a/b' })).toBe('schema:cmdId');
    expect(onTopic('cmd', { cmdId: 'c1', type: 'state', State: 'Work' })).toBe('schema:Time');
  });

  it('acks', () => {
    expect(onTopic('ack', { cmdId: 'c1', ok: false })).toBe('accepted');
    expect(onTopic('ack', { cmdId: 'c1', ok: true, error: 'x' })).toBe('schema:error');
    expect(onTopic('ack', { cmdId: 'c1', ok: false, error: '' })).toBe('schema:error');
    expect(onTopic('ack', { ok: true })).toBe('schema:cmdId');
    expect(onTopic('ack', { cmdId: 'c1', ok: true, Time: EXAMPLE_TIME })).toBe('schema:unknown');
  });
});

describe('parseMessage never throws', () => {
  const topics = fc.oneof(
    fc.string({ maxLength: 80 }),
    fc.constantFrom(...TOPIC_KINDS).map((kind) => `oc/${EXAMPLE_DEVICE_ID}/${kind}`),
    fc.tuple(fc.string({ maxLength: 40 }), fc.constantFrom(...TOPIC_KINDS, 'x', '')).map(([id, kind]) => `oc/${id}/${kind}`),
  );
  const payloads = fc.oneof(
    fc.uint8Array({ maxLength: 600 }),
    fc.string({ maxLength: 300, unit: 'binary' }),
    fc.json({ maxDepth: 4 }),
    fc.dictionary(
      fc.constantFrom('Time', 'Id', 'RCP', 'HmBP', 'type', 'cmdId', 'ok', 'error', 'active', 'OC', 'SP', 'x'),
      fc.oneof(fc.jsonValue(), fc.integer(), fc.double()),
    ).map((record) => JSON.stringify(record)),
    // The examples, whole and with one character cut out or changed: near misses of valid messages.
    fc
      .tuple(fc.constantFrom(...Object.values(MQTT_EXAMPLES).map((example) => example.payload)), fc.nat(), fc.option(fc.string({ maxLength: 1 })))
      .map(([payload, at, insert]) =>
        insert === null ? payload : payload.slice(0, at % (payload.length + 1)) + insert + payload.slice((at % (payload.length + 1)) + 1),
      ),
  );

  it('answers ok or a reason for any topic and any bytes', () => {
    fc.assert(
      fc.property(topics, payloads, fc.integer({ min: 0, max: 4e12 }), (topic, payload, clock) => {
        const result = parseMessage(topic, payload, clock);
        if (result.ok) {
          expect(parseTopic(topic)).toEqual({ deviceId: result.deviceId, kind: result.kind });
        } else {
          expect(result.reason).toMatch(/^(topic|size|encoding|json|schema(:[A-Za-z0-9]+)?|idMismatch|time)$/);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('accepts any telemetry record within the ranges', () => {
    const value = (field: keyof typeof RANGES) => {
      const range: { min: number; max: number; integer?: boolean } = RANGES[field];
      return range.integer
        ? fc.integer({ min: range.min, max: range.max })
        : fc.double({ min: range.min, max: range.max, noNaN: true, noDefaultInfinity: true });
    };
    const record = fc.record(
      {
        Time: fc.integer({ min: MIN_TIME, max: now }),
        L: fc.constantFrom(0, 1),
        SS: fc.constantFrom('F', 'M', 'S'),
        SL: fc.constantFrom(0, 1),
        SA: fc.constantFrom(0, 1),
        HmBP: fc.tuple(fc.integer({ min: 90, max: 200 }), fc.integer({ min: 40, max: 89 })).map(([s, d]) => `${s}/${d}`),
        ...Object.fromEntries((Object.keys(RANGES) as (keyof typeof RANGES)[]).map((field) => [field, value(field)])),
      },
      { requiredKeys: ['Time'] },
    );
    fc.assert(
      fc.property(record, (telemetryRecord) => {
        expect(reason(parseMessage(telemetryTopic, JSON.stringify(telemetryRecord), now))).toBe('accepted');
      }),
      { numRuns: 500 },
    );
  });
});
