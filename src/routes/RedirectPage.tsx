import { Navigate, useLocation, useParams } from 'react-router-dom';

/**
 * `/redirect/:path`: re-enters a page, keeping the query (the tab bar's reload, as in the old console).
 * The page unmounts while this shows and mounts again after, so its data is fetched anew.
 */
export const RedirectPage = () => {
  const { '*': path = '' } = useParams();
  const { search } = useLocation();
  return <Navigate to={`/${path}${search}`} replace />;
};
