import { Box, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { version } from '../../package.json';

/** The page footer (the `footer` setting): product name, release and copyright. */
export const ConsoleFooter = () => {
  const translate = useTranslate();
  return (
    <Box component="footer" data-console-footer sx={{ mt: 'auto', py: 2, textAlign: 'center' }}>
      <Typography variant="body2" color="text.secondary">
        {translate('app.footer.copyright', { year: new Date().getFullYear(), version })}
      </Typography>
    </Box>
  );
};
