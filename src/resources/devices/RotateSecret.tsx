import { useState } from 'react';
import KeyIcon from '@mui/icons-material/Key';
import { useMutation } from '@tanstack/react-query';
import { Confirm, useCanAccess, useDataProvider, useNotify, useRefresh, type RaRecord } from 'react-admin';
import type { DeviceCredentials } from '../../domain/mqtt/connection';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import { RowAction } from '../generate/RowAction';
import { SecretDialog } from './SecretDialog';

/**
 * "Rotate secret" of a device (its list row, its detail page), for roles that may issue credentials (the
 * policy's devices/create): asks first, naming the device, then shows the new secret once. The server
 * ends the chamber's connection with the old one (docs/server-devices.md).
 */
export const RotateSecret = ({ record }: { record: RaRecord }) => {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const { canAccess } = useCanAccess({ resource: 'devices', action: 'create' });
  const [asking, setAsking] = useState(false);
  const [issued, setIssued] = useState<DeviceCredentials>();
  const rotate = useMutation({
    mutationFn: () => dataProvider.rotateDeviceSecret(String(record.Id)),
    onSuccess: (credentials) => {
      setAsking(false);
      setIssued(credentials);
    },
    onError: (error) => {
      setAsking(false);
      notify(error.message, { type: 'error' });
    },
  });
  if (!canAccess) return null;
  return (
    <>
      <RowAction label="crud.credentials.rotate" icon={<KeyIcon />} disabled={rotate.isPending} onClick={() => setAsking(true)} />
      <Confirm
        isOpen={asking}
        loading={rotate.isPending}
        title="crud.credentials.rotateTitle"
        titleTranslateOptions={{ id: record.Id, name: record.name }}
        content="crud.credentials.rotateContent"
        onConfirm={() => rotate.mutate()}
        onClose={() => setAsking(false)}
      />
      {issued !== undefined && (
        <SecretDialog
          credentials={issued}
          onClose={() => {
            setIssued(undefined);
            refresh();
          }}
        />
      )}
    </>
  );
};
