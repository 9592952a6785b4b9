import type { ReactNode } from 'react';
import { Alert } from '@mui/material';
import type { UseQueryResult } from '@tanstack/react-query';
import { Loading, useTranslate } from 'react-admin';

/** A tab's part once its query answered: loading meanwhile, and a message naming the failure when it failed. */
export const Loaded = <T,>({ query, children }: { query: UseQueryResult<T>; children: (data: T) => ReactNode }) => {
  const translate = useTranslate();
  if (query.data !== undefined) return children(query.data);
  if (query.isPending) return <Loading />;
  return (
    <Alert severity="error" role="alert">
      {translate('app.userSetting.loadFailed', { reason: query.error instanceof Error ? query.error.message : '' })}
    </Alert>
  );
};
