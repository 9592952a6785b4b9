import { useState } from 'react';
import { Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import EventAvailableIcon from '@mui/icons-material/EventAvailable';
import {
  AutocompleteInput,
  Button,
  DateTimeInput,
  Form,
  HttpError,
  ReferenceInput,
  required,
  SaveButton,
  TextInput,
  useCanAccess,
  useDataProvider,
  useNotify,
  useRefresh,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { namedField, type ConsoleDataProvider } from '../../providers/dataProvider';
import { CancelButton } from '../generate/CancelButton';
import { usePhoneDialog } from '../generate/usePhone';
import type { BookingBody } from './requests';
import { localInputTime } from '../../domain/time';

const FIELDS = ['Id', 'SetT', 'OpenId', 'OC'] as const;
const deviceLabel = (device: RaRecord) => `${String(device.Id)} ${String(device.name ?? '')}`.trim();
const byId = (text: string) => (text ? { Id: text } : {});

/**
 * "Book a chamber" in the order manager's toolbar: the chamber (picked among the devices the server lets
 * the operator see), the booking time, the guest's OpenId and an operation code (generated when left
 * empty). The server's rules decide; a refusal naming a field shows under it, any other as a toast.
 */
export const BookChamber = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const { canAccess } = useCanAccess({ resource: 'orders', action: 'create' });
  const [open, setOpen] = useState(false);
  const { fullScreen, actionsSx } = usePhoneDialog();
  if (!canAccess) return null;

  const save = async (values: Record<string, unknown>) => {
    const body: BookingBody = {
      Id: String(values.Id ?? ''),
      SetT: Number(values.SetT),
      OpenId: String(values.OpenId ?? ''),
      ...(typeof values.OC === 'string' && values.OC.trim() !== '' ? { OC: values.OC.trim() } : {}),
    };
    try {
      const booking = await dataProvider.bookChamber(body);
      notify('crud.orders.booked', { type: 'success', messageArgs: { order: booking.OrderNum, oc: booking.OC } });
      setOpen(false);
      refresh();
      return undefined;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const field = error instanceof HttpError && error.status === 400 ? namedField(message, FIELDS) : undefined;
      if (field) return { [field]: message };
      notify(message, { type: 'error' });
      return undefined;
    }
  };

  return (
    <>
      <Button label="crud.orders.book" onClick={() => setOpen(true)}>
        <EventAvailableIcon />
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby="book-chamber-title" maxWidth="sm" fullWidth fullScreen={fullScreen}>
        <Form onSubmit={save} noValidate>
          <DialogTitle id="book-chamber-title">{translate('crud.orders.bookTitle')}</DialogTitle>
          <DialogContent>
            <ReferenceInput source="Id" reference="devices">
              <AutocompleteInput label="resources.orders.fields.Id" optionText={deviceLabel} filterToQuery={byId} validate={required()} fullWidth />
            </ReferenceInput>
            <DateTimeInput source="SetT" label="resources.orders.fields.SetT" parse={localInputTime} validate={required()} fullWidth />
            <TextInput source="OpenId" label="resources.orders.fields.OpenId" validate={required()} fullWidth />
            <TextInput source="OC" label="resources.orders.fields.OC" helperText="crud.orders.ocHint" fullWidth />
          </DialogContent>
          <DialogActions sx={actionsSx}>
            <CancelButton onClick={() => setOpen(false)} />
            <SaveButton label="crud.orders.book" />
          </DialogActions>
        </Form>
      </Dialog>
    </>
  );
};
