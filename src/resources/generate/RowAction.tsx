import { IconButton, Tooltip } from '@mui/material';
import type { MouseEvent, ReactElement } from 'react';
import { useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { THUMB, usePhone } from './usePhone';

interface RowActionProps {
  /** A catalogue key: the button's name for screen readers and tests, and its tooltip. */
  label: string;
  icon: ReactElement;
  onClick?: (event: MouseEvent<HTMLElement>) => void;
  /** A page the action opens instead (a record's edit form). */
  to?: string;
  disabled?: boolean;
}

/**
 * A list row's action as an icon with its name in a tooltip: a row's actions keep to one line in every
 * language (docs/console.md, "Tables"), where worded buttons wrapped in English at 1366 px.
 */
export const RowAction = ({ label, icon, onClick, to, disabled }: RowActionProps) => {
  const translate = useTranslate();
  const name = translate(label);
  // On a phone a row action is tapped rather than clicked.
  const sx = usePhone() ? THUMB : undefined;
  const button = to ? (
    <IconButton aria-label={name} size="small" color="primary" component={Link} to={to} disabled={disabled} sx={sx} onClick={(event: MouseEvent<HTMLElement>) => event.stopPropagation()}>
      {icon}
    </IconButton>
  ) : (
    <IconButton aria-label={name} size="small" color="primary" onClick={onClick} disabled={disabled} sx={sx}>
      {icon}
    </IconButton>
  );
  // A disabled button fires no events, so the tooltip listens on a wrapper.
  return (
    <Tooltip title={name}>
      <span>{button}</span>
    </Tooltip>
  );
};
