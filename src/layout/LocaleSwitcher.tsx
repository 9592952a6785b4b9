import { useState, type MouseEvent } from 'react';
import { Button, Menu, MenuItem } from '@mui/material';
import TranslateIcon from '@mui/icons-material/Translate';
import { useLocaleState, useNotify, useTranslate } from 'react-admin';
import { LOCALES, type Locale } from '../i18n';

/** Language menu; switching confirms in the new language (spec point 9). */
export const LocaleSwitcher = ({ color = 'inherit' }: { color?: 'inherit' | 'primary' }) => {
  const [locale, setLocale] = useLocaleState();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const translate = useTranslate();
  const notify = useNotify();
  const current = LOCALES.find((entry) => entry.locale === locale) ?? LOCALES[0];

  const choose = (next: Locale) => {
    setAnchor(null);
    if (next === locale) return;
    setLocale(next);
    // The message key is translated when shown, i.e. after the switch, so it reads in the new language.
    notify('app.locale.changed', { type: 'info' });
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
