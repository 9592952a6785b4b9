import { Box, Button, Card, CardContent, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslate } from 'react-admin';

/** Where "register" and "forgot password" lead: accounts and resets come from one's administrator. */
export const AccountHelpPage = () => {
  const translate = useTranslate();
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', bgcolor: 'grey.100' }}>
      <Card sx={{ width: 560, maxWidth: '92vw' }}>
        <CardContent>
          <Typography variant="h5" component="h1" gutterBottom>
            {translate('app.accountHelp.title')}
          </Typography>
          <Typography variant="h6" id="register">
            {translate('app.accountHelp.registerTitle')}
          </Typography>
          <Typography paragraph>{translate('app.accountHelp.registerBody')}</Typography>
          <Typography variant="h6" id="reset">
            {translate('app.accountHelp.resetTitle')}
          </Typography>
          <Typography paragraph>{translate('app.accountHelp.resetBody')}</Typography>
          <Button component={RouterLink} to="/login" variant="contained">
            {translate('app.accountHelp.back')}
          </Button>
        </CardContent>
      </Card>
    </Box>
  );
};
