import { Navigate, useLocation, useParams } from 'react-router-dom';

/** `/redirect/:path`: re-enters a page (the old console used it to reload one), keeping the query. */
export const RedirectPage = () => {
  const { '*': path = '' } = useParams();
  const { search } = useLocation();
  return <Navigate to={`/${path}${search}`} replace />;
};
