import { useState, type FormEvent } from 'react';
import { Alert, Box, Button, Card, CardContent, Checkbox, FormControlLabel, Link, Stack, TextField, Typography } from '@mui/material';
import { Navigate, Link as RouterLink, useLocation } from 'react-router-dom';
import { useLogin, useNotify, useTranslate } from 'react-admin';
import { useConsoleConfig } from '../ConsoleConfigContext';
import { localTokenStore } from '../providers/tokenStore';
import { LocaleSwitcher } from '../layout/LocaleSwitcher';
import { UpstreamError } from '../providers/httpClient';
import { afterLoginPath, loginPathFor } from '../providers/loginPath';

const REMEMBERED_ACCOUNT_KEY = 'rememberedAccount';

/** Sign-in (docs/product.md, "The console"; docs/console.md, "Sign-in"). Passwords are never kept by the console; "remember" keeps the account. */
export const LoginPage = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const login = useLogin();
  const { search, state } = useLocation() as { search: string; state: { nextPathname?: string; nextSearch?: string } | null };
  const { landingPath, tokenKey } = useConsoleConfig();
  // The stored token, not react-admin's cached auth state: a sign-out clears the token at once, while the
  // cache may still say "signed in" and bounce the visitor between here and the page they came from.
  const signedIn = localTokenStore(tokenKey).get() !== null;
  const remembered = localStorage.getItem(REMEMBERED_ACCOUNT_KEY);
  const [account, setAccount] = useState(remembered ?? '');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(remembered !== null);
  const [touched, setTouched] = useState(false);
  const [pageError, setPageError] = useState(false);
  const [submitting, setSubmitting] = useState(false);

  // The page to return to: named in the URL (`?redirect=`), or passed as state by react-admin's sign-out.
  const returnSearch = new URLSearchParams(search).has('redirect')
    ? search
    : `?${loginPathFor({ pathname: state?.nextPathname ?? '/', search: state?.nextSearch ?? '' }).split('?')[1] ?? ''}`;
  const target = afterLoginPath(returnSearch, landingPath);
  if (signedIn) return <Navigate to={target} replace />;

  const accountError = touched && account.trim() === '';
  const passwordError = touched && password === '';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    setPageError(false);
    if (account.trim() === '' || password === '') return;
    setSubmitting(true);
    try {
      // An account whose password was reset goes to the password form first, then on to `target`.
      await login({ username: account.trim(), password, redirect: target }, target);
      if (remember) localStorage.setItem(REMEMBERED_ACCOUNT_KEY, account.trim());
      else localStorage.removeItem(REMEMBERED_ACCOUNT_KEY);
    } catch (error) {
      setSubmitting(false);
      if (error instanceof Error && error.message === 'app.login.wrong') {
        notify('app.login.wrong', { type: 'error' });
      } else {
        // The HTTP client has already shown the server's own message; the page says what to do next.
        if (!(error instanceof UpstreamError)) notify('app.login.error', { type: 'error' });
        setPageError(true);
      }
    }
  };

  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', bgcolor: 'grey.100' }}>
      <Box sx={{ position: 'absolute', top: 8, right: 8 }}>
        <LocaleSwitcher color="primary" />
      </Box>
      <Card sx={{ width: 380, maxWidth: '92vw' }}>
        <CardContent>
          <Typography variant="h5" component="h1" align="center" gutterBottom>
            {translate('app.title')}
          </Typography>
          <Typography variant="body2" align="center" color="text.secondary" sx={{ mb: 2 }}>
            {translate('app.subtitle')}
          </Typography>
          {pageError && (
            <Alert severity="error" sx={{ mb: 2 }} data-testid="login-error">
              {translate('app.login.error')}
            </Alert>
          )}
          <form onSubmit={submit} noValidate>
            <Stack spacing={2}>
              <TextField
                name="username"
                label={translate('app.login.account')}
                value={account}
                onChange={(event) => setAccount(event.target.value)}
                error={accountError}
                helperText={accountError ? translate('app.login.accountRequired') : ' '}
                autoComplete="username"
                autoFocus={!remembered}
                fullWidth
              />
              <TextField
                name="password"
                type="password"
                label={translate('app.login.password')}
                value={password}
                onChange={(event) => setPassword(event.target.value)}
                error={passwordError}
                helperText={passwordError ? translate('app.login.passwordRequired') : ' '}
                autoComplete={remember ? 'current-password' : 'off'}
                autoFocus={Boolean(remembered)}
                fullWidth
              />
              <Stack direction="row" alignItems="center" justifyContent="space-between">
                <FormControlLabel
                  control={<Checkbox checked={remember} onChange={(event) => setRemember(event.target.checked)} />}
                  label={translate('app.login.remember')}
                  title={translate('app.login.rememberHint')}
                />
                <Link component={RouterLink} to="/account-help#reset" variant="body2">
                  {translate('app.login.forgot')}
                </Link>
              </Stack>
              <Button type="submit" variant="contained" size="large" disabled={submitting} fullWidth>
                {translate('app.login.submit')}
              </Button>
              <Link component={RouterLink} to="/account-help#register" variant="body2" align="center">
                {translate('app.login.register')}
              </Link>
            </Stack>
          </form>
        </CardContent>
      </Card>
    </Box>
  );
};
