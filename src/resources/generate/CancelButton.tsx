import { Button } from '@mui/material';
import { useTranslate } from 'react-admin';

/**
 * A dialog's Cancel, worded at every width: react-admin's Button becomes an icon-only button on a phone,
 * and one with no icon was an empty 24 px square.
 */
export const CancelButton = ({ onClick }: { onClick: () => void }) => {
  const translate = useTranslate();
  return <Button onClick={onClick}>{translate('ra.action.cancel')}</Button>;
};
