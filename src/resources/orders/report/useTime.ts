import { useLocaleState } from 'react-admin';

/** A time as the report shows it: the console's language's date and time, or a dash for none. */
export const useTime = () => {
  const [locale] = useLocaleState();
  return (value: number | null | undefined) => (value === null || value === undefined ? '—' : new Date(value).toLocaleString(locale));
};
