import { Button, Card, CardContent, Stack, Step, StepLabel, Stepper, Typography } from '@mui/material';
import TaskAltIcon from '@mui/icons-material/TaskAlt';
import { Title, useTranslate } from 'react-admin';
import { Link, useLocation } from 'react-router-dom';
import { useConsoleConfig } from '../../ConsoleConfigContext';
import { FORM_PATHS, type SubmitOutcome } from './submit';

/** The old console's success page progress: the submission waits, is processed, is launched. */
const PROGRESS = ['waiting', 'processing', 'launched'] as const;

/**
 * `/result/success`: where a form's accepted submit ends (router state from submit.ts): the outcome, the
 * submission's progress (waiting done, processing now, launched next), and a way to create another.
 * Opened without a submit, it says so.
 */
export const ResultSuccessPage = () => {
  const translate = useTranslate();
  const { landingPath } = useConsoleConfig();
  const outcome = useLocation().state as SubmitOutcome | null;
  const submitted = outcome !== null && outcome.failed === undefined;
  return (
    <Card sx={{ mt: 2 }} data-testid="result-success">
      <Title title={translate('app.menu.resultSuccess')} />
      <CardContent>
        <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', py: 3 }}>
          <TaskAltIcon color={submitted ? 'success' : 'disabled'} sx={{ fontSize: 64 }} />
          <Typography variant="h5" component="h2">
            {translate('app.result.successTitle')}
          </Typography>
          <Typography color="text.secondary">{translate(submitted ? 'app.result.successSubtitle' : 'app.result.successNone')}</Typography>
          <Stack direction="row" spacing={1}>
            <Button component={Link} to={FORM_PATHS[outcome?.form ?? 'step']} variant="contained">
              {translate('app.result.again')}
            </Button>
            <Button component={Link} to={landingPath}>
              {translate('app.result.back')}
            </Button>
          </Stack>
        </Stack>
        {submitted && (
          <Stack spacing={1} sx={{ maxWidth: 640, mx: 'auto' }}>
            <Typography variant="subtitle2">{translate('app.result.progress')}</Typography>
            <Stepper activeStep={1} data-testid="result-progress">
              {PROGRESS.map((step) => (
                <Step key={step}>
                  <StepLabel>{translate(`app.result.${step}`)}</StepLabel>
                </Step>
              ))}
            </Stepper>
          </Stack>
        )}
      </CardContent>
    </Card>
  );
};
