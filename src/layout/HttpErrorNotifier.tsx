import { useEffect } from 'react';
import { useNotify } from 'react-admin';
import { useConsoleConfig } from '../ConsoleConfigContext';
import type { HttpClient } from '../providers/httpClient';

/**
 * Shows every failed upstream call as an error toast with the server's msg (already in the user's
 * language), or 'Request Error' when there is none, for the configured 5 seconds.
 */
export const HttpErrorNotifier = ({ http }: { http: HttpClient }) => {
  const notify = useNotify();
  const { errorToastMs } = useConsoleConfig();
  useEffect(
    () =>
      http.onError((error) =>
        notify(error.message || 'app.http.requestError', {
          type: 'error',
          autoHideDuration: errorToastMs,
          // A server message is shown as it is; only our own key goes through translation.
          messageArgs: error.message ? { _: error.message } : undefined,
        }),
      ),
    [http, notify, errorToastMs],
  );
  return null;
};
