import { useEffect } from 'react';
import { useTranslate } from 'react-admin';

/** The browser tab carries the supervisory-system branding in the current language. */
export const useDocumentTitle = () => {
  const translate = useTranslate();
  useEffect(() => {
    document.title = translate('app.title');
  }, [translate]);
};
