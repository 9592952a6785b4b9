import { useMediaQuery } from '@mui/material';
import { useTheme } from '@mui/material/styles';

/**
 * A phone-sized window (under MUI's `sm`, 600 px): react-admin's own switch (its app bar and side menu
 * change there too), so the console's phone layouts change at the same width.
 */
export const usePhone = (): boolean => {
  // Material's useTheme, which falls back to the default theme where no provider gives one (a bare banner).
  const theme = useTheme();
  return useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
};

/** A control a thumb hits: at least 44 by 44 CSS px (WCAG 2.5.5's target size). */
export const THUMB = { minWidth: 44, minHeight: 44 } as const;

/**
 * A dialog on a phone: the whole screen (nothing cut, nothing off-centre), its action buttons sharing the
 * width at a thumb's height.
 */
export const usePhoneDialog = () => {
  const phone = usePhone();
  return { fullScreen: phone, actionsSx: phone ? { '& .MuiButton-root': { ...THUMB, flex: 1 } } : undefined };
};
