/** docs/product.md, "Devices and readings": the upstream's device properties (`list/get_OCProperty`). */
export const DEVICE_STATES = ['Work', 'Stop', 'Repair'] as const;
export type DeviceState = (typeof DEVICE_STATES)[number];
export const DEVICE_PERMISSIONS = ['Open', 'Close'] as const;

/** A device Id is also its MQTT username and topic segment, so it keeps to characters safe in both. */
export const DEVICE_ID_PATTERN = /^[A-Za-z0-9_-]+$/;
export const DEVICE_ID_MAX = 32;
