import SendIcon from '@mui/icons-material/Send';
import { useState, type MouseEvent } from 'react';
import { useDataProvider, useNotify, useRecordContext } from 'react-admin';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import { RowAction } from '../generate/RowAction';

/**
 * A channel's "send test": the server sends a test notification on it at once and answers what the receiver
 * said, shown as it is (a chat robot's refusal, an SMTP server's reply) so the admin sees why it failed.
 */
export const SendTestAction = () => {
  const record = useRecordContext();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const [sending, setSending] = useState(false);
  if (!record) return null;
  const send = (event: MouseEvent<HTMLElement>) => {
    event.stopPropagation();
    setSending(true);
    dataProvider
      .sendTestNotification(record.id)
      .then(({ ok, answer }) => notify(ok ? 'app.notifications.test.ok' : 'app.notifications.test.failed', { type: ok ? 'success' : 'error', messageArgs: { answer } }))
      .catch((error: Error) => notify(error.message, { type: 'error' }))
      .finally(() => setSending(false));
  };
  return <RowAction label="app.notifications.test.action" icon={<SendIcon />} onClick={send} disabled={sending} />;
};
