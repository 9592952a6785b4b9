import { useEffect } from 'react';
import { useNotify } from 'react-admin';
import { useConsoleConfig } from '../ConsoleConfigContext';
import type { HttpClient } from '../providers/httpClient';
import type { LiveConnection } from '../providers/live';

/**
 * Shows every failed upstream call that its caller does not announce itself (sign-in, commands) as an
 * error toast: the server's msg, already in the user's language, or 'Request Error'. Data calls are
 * announced by react-admin's own hooks instead, so no failure shows twice. When the server says the
 * console calls too often (429), it says that the console waits, and how long: once per pause of the
 * calls, and each time the live stream is told to wait.
 */
export const HttpErrorNotifier = ({ http, live }: { http: HttpClient; live: LiveConnection }) => {
  const notify = useNotify();
  const { errorToastMs } = useConsoleConfig();
  useEffect(
    () =>
      http.onError((error) =>
        // A server message has no translation and shows as it is (`_`); our own key is translated.
        notify(error.message, { type: 'error', autoHideDuration: errorToastMs, messageArgs: { _: error.message } }),
      ),
    [http, notify, errorToastMs],
  );
  useEffect(() => http.onBackOff((seconds) => notify('app.http.backingOff', { type: 'warning', messageArgs: { seconds } })), [http, notify]);
  useEffect(() => live.on('limited', (seconds) => notify('app.live.limited', { type: 'warning', messageArgs: { seconds } })), [live, notify]);
  return null;
};
