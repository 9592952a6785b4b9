import { useEffect } from 'react';
import { Navigate } from 'react-router-dom';
import { useStore } from 'react-admin';
import { DEVICE_ATTS_VIEW_KEY, type DeviceAttsView } from './deviceAttsView';

/** `/list/card`, the template's card list: the device status page, in its card view. */
export const DeviceCardsRedirect = () => {
  const [, setView] = useStore<DeviceAttsView>(DEVICE_ATTS_VIEW_KEY, 'table');
  useEffect(() => setView('cards'), [setView]);
  return <Navigate to="/list/device-atts" replace />;
};
