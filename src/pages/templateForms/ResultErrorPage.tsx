import { Alert, Button, Card, CardContent, List, ListItem, ListItemIcon, ListItemText, Stack, Typography } from '@mui/material';
import ErrorIcon from '@mui/icons-material/HighlightOff';
import { Title, useTranslate } from 'react-admin';
import { Link, useLocation } from 'react-router-dom';
import { useConsoleConfig } from '../../ConsoleConfigContext';
import { FORM_PATHS, type SubmitOutcome } from './submit';

/**
 * `/result/error`: where a refused or failed submit ends (router state from submit.ts). Its detail lines
 * are the old console's two kinds, told by what really failed: the content (the server's message, naming
 * the field), or the user group's permission (a 40300). "Go back" leaves for the landing page; "return
 * for correction" opens the form again with what was sent and the message under its field. Opened
 * without a failed submit, it says so.
 */
export const ResultErrorPage = () => {
  const translate = useTranslate();
  const { landingPath } = useConsoleConfig();
  const outcome = useLocation().state as SubmitOutcome | null;
  const failed = outcome?.failed;
  return (
    <Card sx={{ mt: 2 }} data-testid="result-error">
      <Title title={translate('app.menu.resultError')} />
      <CardContent>
        <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', py: 3 }}>
          <ErrorIcon color={failed ? 'error' : 'disabled'} sx={{ fontSize: 64 }} />
          <Typography variant="h5" component="h2">
            {translate('app.result.errorTitle')}
          </Typography>
          <Typography color="text.secondary">{translate(failed ? 'app.result.errorSubtitle' : 'app.result.errorNone')}</Typography>
          <Stack direction="row" spacing={1}>
            <Button component={Link} to={landingPath}>
              {translate('app.result.back')}
            </Button>
            <Button component={Link} to={FORM_PATHS[outcome?.form ?? 'step']} state={failed ? outcome : undefined} variant="contained">
              {translate('app.result.correct')}
            </Button>
          </Stack>
        </Stack>
        {failed && (
          <Alert severity="error" icon={false} sx={{ maxWidth: 640, mx: 'auto' }}>
            <Typography variant="subtitle2">{translate('app.result.errorDetails')}</Typography>
            <List dense data-testid="result-error-details">
              <ListItem>
                <ListItemIcon>
                  <ErrorIcon color="error" fontSize="small" />
                </ListItemIcon>
                <ListItemText primary={failed.forbidden ? translate('app.result.forbidden') : failed.message} />
              </ListItem>
            </List>
          </Alert>
        )}
      </CardContent>
    </Card>
  );
};
