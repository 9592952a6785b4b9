import { useEffect } from 'react';
import { useNotify } from 'react-admin';
import { useConsoleConfig } from '../ConsoleConfigContext';
import type { HttpClient } from '../providers/httpClient';

/**
 * Shows every failed upstream call that its caller does not announce itself (sign-in, commands) as an
 * error toast: the server's msg, already in the user's language, or 'Request Error'. Data calls are
 * announced by react-admin's own hooks instead, so no failure shows twice.
 */
export const HttpErrorNotifier = ({ http }: { http: HttpClient }) => {
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
  return null;
};
