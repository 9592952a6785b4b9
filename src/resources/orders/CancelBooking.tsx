import { useState, type MouseEvent } from 'react';
import EventBusyIcon from '@mui/icons-material/EventBusy';
import { useMutation } from '@tanstack/react-query';
import { Button, Confirm, useCanAccess, useDataProvider, useNotify, useRecordContext, useRefresh } from 'react-admin';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import { orderStateOf } from './requests';

/** An unused booking's "Cancel booking", after a confirmation; shown only to roles that may cancel. */
export const CancelBooking = () => {
  const record = useRecordContext();
  const notify = useNotify();
  const refresh = useRefresh();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const { canAccess } = useCanAccess({ resource: 'orders', action: 'cancel' });
  const [asking, setAsking] = useState(false);
  const cancel = useMutation({
    mutationFn: () => dataProvider.cancelBooking(record?.id ?? ''),
    onSuccess: () => {
      notify('crud.orders.cancelled', { type: 'success', messageArgs: { order: record?.OrderNum } });
      setAsking(false);
      refresh();
    },
    onError: (error) => {
      notify(error.message, { type: 'error' });
      setAsking(false);
    },
  });
  if (!record || !canAccess || orderStateOf(record) !== 'open') return null;
  // The row opens the report on click; the button and its dialog (a portal in the same React tree) must not.
  const keepInRow = (event: MouseEvent) => event.stopPropagation();
  return (
    <span onClick={keepInRow}>
      <Button label="crud.orders.cancel" onClick={() => setAsking(true)}>
        <EventBusyIcon />
      </Button>
      <Confirm
        isOpen={asking}
        loading={cancel.isPending}
        title="crud.orders.cancelTitle"
        titleTranslateOptions={{ order: record.OrderNum }}
        content="crud.orders.cancelContent"
        contentTranslateOptions={{ oc: record.OC }}
        onConfirm={() => cancel.mutate()}
        onClose={() => setAsking(false)}
      />
    </span>
  );
};
