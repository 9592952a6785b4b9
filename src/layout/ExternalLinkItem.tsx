import { ListItemIcon, ListItemText, MenuItem } from '@mui/material';
import LaunchIcon from '@mui/icons-material/Launch';

/** A menu entry leaving the console: opened in a new tab, without handing it this page. */
export const ExternalLinkItem = ({ href, label, onClick }: { href: string; label: string; onClick?: () => void }) => (
  <MenuItem component="a" href={href} target="_blank" rel="noopener noreferrer" onClick={onClick}>
    <ListItemIcon>
      <LaunchIcon fontSize="small" />
    </ListItemIcon>
    <ListItemText primary={label} />
  </MenuItem>
);
