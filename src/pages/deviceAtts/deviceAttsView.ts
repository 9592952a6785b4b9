/** The device status page's two views of the same list; the operator's choice is kept in the Store. */
export const DEVICE_ATTS_VIEWS = ['table', 'cards'] as const;
export type DeviceAttsView = (typeof DEVICE_ATTS_VIEWS)[number];
export const DEVICE_ATTS_VIEW_KEY = 'device-atts.view';
