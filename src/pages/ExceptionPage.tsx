import { Box, Button, Stack, Typography } from '@mui/material';
import { Title, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';

/** The result pages 403, 404 (with retry and back) and 500 of the old console; 404 is also the not-found page. */
export const ExceptionPage = ({ status }: { status: 403 | 404 | 500 }) => {
  const translate = useTranslate();
  const navigate = useNavigate();
  return (
    <Box sx={{ textAlign: 'center', py: 8 }} data-testid={`exception-${status}`}>
      <Title title={translate(`app.exception.${status}.title`)} />
      <Typography variant="h2" component="p" color="text.secondary">
        {translate(`app.exception.${status}.title`)}
      </Typography>
      <Typography sx={{ my: 2 }}>{translate(`app.exception.${status}.body`)}</Typography>
      <Stack direction="row" spacing={2} justifyContent="center">
        {status === 404 ? (
          <>
            <Button variant="contained" onClick={() => navigate(0)}>
              {translate('app.exception.404.retry')}
            </Button>
            <Button variant="outlined" onClick={() => navigate(-1)}>
              {translate('app.exception.404.back')}
            </Button>
          </>
        ) : (
          <Button variant="contained" onClick={() => navigate('/dashboard/workplace')}>
            {translate('app.exception.home')}
          </Button>
        )}
      </Stack>
    </Box>
  );
};
