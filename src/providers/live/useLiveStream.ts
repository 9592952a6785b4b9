import { useContext, useEffect } from 'react';
import { HttpError, useEvent, useLogoutIfAccessDenied } from 'react-admin';
import { LiveContext } from './LiveContext';

/**
 * Keeps the tab's live stream open while the calling component is mounted (the layout, so: while a
 * signed-in page shows). A stream the server refuses (401) signs out like any other lost session.
 */
export const useLiveStream = (): void => {
  const connection = useContext(LiveContext);
  const logoutIfAccessDenied = useLogoutIfAccessDenied();
  // Stable, so navigating (which renews react-admin's callbacks) does not reopen the stream.
  const signOut = useEvent(() => void logoutIfAccessDenied(new HttpError('live stream: not signed in', 401)));
  useEffect(() => {
    if (connection === undefined) return;
    const off = connection.on('unauthorized', signOut);
    connection.start();
    return () => {
      off();
      connection.stop();
    };
  }, [connection, signOut]);
};
