import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';

/** Every navigation, menu links included, starts at the top of the new page rather than where the last one was left. */
export const useScrollToTop = () => {
  const { pathname, search } = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname, search]);
};
