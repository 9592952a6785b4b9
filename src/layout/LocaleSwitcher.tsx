import { useEffect, useState, type MouseEvent } from 'react';
import { Button, Menu, MenuItem } from '@mui/material';
import TranslateIcon from '@mui/icons-material/Translate';
import { useI18nProvider, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { LOCALES, type Locale } from '../domain/locales';

/**
 * react-admin re-mounts the whole tree, notifications included, once the new language is loaded; so the
 * switch leaves a note, and the re-mounted switcher shows the confirmation in the new language.
 */
const PENDING_NOTICE_KEY = 'app.localeChanged';

/** Language menu; switching confirms in the new language (docs/product.md, "The console"). */
export const LocaleSwitcher = ({ color = 'inherit' }: { color?: 'inherit' | 'primary' }) => {
  const [locale, setLocale] = useLocaleState();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const translate = useTranslate();
  const notify = useNotify();
  const current = LOCALES.find((entry) => entry.locale === locale) ?? LOCALES[0];

  // The store changes first; the messages (and this re-mount) follow once the provider has switched.
  const activeLocale = useI18nProvider().getLocale();
  useEffect(() => {
    if (sessionStorage.getItem(PENDING_NOTICE_KEY) !== activeLocale) return;
    sessionStorage.removeItem(PENDING_NOTICE_KEY);
    notify('app.locale.changed', { type: 'info' });
  }, [activeLocale, notify]);

  const choose = (next: Locale) => {
    setAnchor(null);
    if (next === locale) return;
    sessionStorage.setItem(PENDING_NOTICE_KEY, next);
    setLocale(next);
  };

  return (
    <>
      <Button
        color={color}
        startIcon={<TranslateIcon />}
        aria-label={translate('app.locale.switch')}
        onClick={(event: MouseEvent<HTMLElement>) => setAnchor(event.currentTarget)}
      >
        {current.name}
      </Button>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {LOCALES.map((entry) => (
          <MenuItem key={entry.locale} selected={entry.locale === locale} onClick={() => choose(entry.locale)} lang={entry.locale}>
            {entry.name}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
};
