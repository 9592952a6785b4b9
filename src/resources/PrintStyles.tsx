import { GlobalStyles } from '@mui/material';

/** On paper: the page's record alone (a session report, a signed settings request), without the console's bars, menus and buttons; each section kept whole on its page. */
export const PRINT_STYLES = (
  <GlobalStyles
    styles={{
      '@media print': {
        '.MuiAppBar-root, .MuiDrawer-root, .MuiDrawer-docked, .MuiTabs-root, .MuiFab-root, footer, [data-print="hide"]': { display: 'none !important' },
        '.RaLayout-appFrame': { marginTop: '0 !important' },
        '.RaLayout-content': { padding: '0 !important' },
        body: { background: 'white' },
      },
    }}
  />
);

