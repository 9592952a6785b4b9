import type { RaRecord } from 'react-admin';
import type { Telemetry } from '../../domain/mqtt/payloads';

/** A device as the device list answers it (src/resources/devices/config.ts), live patches merged in. */
export interface MonitoredDevice extends RaRecord {
  Id: string;
  name: string;
  Type: number;
  Location: string;
  State: string;
  OrderNum?: string | null;
  Emergency?: boolean;
  Online?: boolean;
  LastSeen?: number | null;
  SessionOC?: string | null;
  Reading?: Telemetry | null;
}

/** The class of a value's small grey addition (the time an online chamber was last seen). */
export const MONITOR_CAPTION = 'monitor-caption';
