import { Alert, Card, CardContent } from '@mui/material';
import { Title, useTranslate } from 'react-admin';

/** A screen whose route and access exist but whose content ships in a later release; it says so plainly. */
export const PlannedPage = ({ labelKey }: { labelKey: string }) => {
  const translate = useTranslate();
  const page = translate(labelKey);
  return (
    <Card sx={{ mt: 2 }}>
      <Title title={page} />
      <CardContent>
        <Alert severity="info" title={translate('app.planned.title')}>
          {translate('app.planned.body', { page })}
        </Alert>
      </CardContent>
    </Card>
  );
};
